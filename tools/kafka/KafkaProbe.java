// Kafka's own Java client (kafka-clients, of the pinned broker release) for the e2e tests' SCRAM
// checks: brokers of Kafka 4 refuse the SCRAM proofs of librdkafka before 2.6.1 (Debian's is
// 2.0.2), so a SCRAM user is proven with this client. scripts/kafka.sh compiles it.
//
//   java -cp 'libs/*:probe' KafkaProbe client.properties check                   (prints the cluster id)
//   java -cp 'libs/*:probe' KafkaProbe client.properties produce <topic> <message>...
//   java -cp 'libs/*:probe' KafkaProbe client.properties produce-until <topic> <stop-file>
//       (one message every 50 ms until the file exists, each with the producer's own retries
//       within a 30 s delivery timeout; prints "sent=N acked=N failed=N max_latency_ms=N", and the
//       failures on stderr; exit 1 when a send failed)
//   java -cp 'libs/*:probe' KafkaProbe client.properties consume <topic> <count> (prints the messages)
//   java -cp 'libs/*:probe' KafkaProbe client.properties quotas <user>           (prints key=value, sorted)
//   java -cp 'libs/*:probe' KafkaProbe client.properties set-quota <user> <key> <value>
//   java -cp 'libs/*:probe' KafkaProbe client.properties acls <principal>
//       (Admin.describeAcls of the principal, one binding a line, sorted:
//       "<resource type> <name> <pattern type> <host> <operation> <permission>", e.g. "TRANSACTIONAL_ID tx- PREFIXED * WRITE ALLOW")
//   java -cp 'libs/*:probe' KafkaProbe client.properties produce-transactional <topic> <transactional.id> <message>...
//       (the messages in one committed transaction)
//   java -cp 'libs/*:probe' KafkaProbe client.properties features
//       (prints the finalized metadata.version as Kafka names its level, e.g. "metadata.version=3.9-IV0")
//   java -cp 'libs/*:probe' KafkaProbe client.properties nodes
//       (Admin.describeCluster's nodes, "<id> <rack>" a line by id, "-" for a node without a rack)
//   java -cp 'libs/*:probe' KafkaProbe client.properties quorum
//       (Admin.describeMetadataQuorum's leader, "leader=<id>")
//
// Exit 0 on success; 1 with "ERROR <exception>: <message>" on stderr otherwise.
import java.io.FileReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.server.common.MetadataVersion;

public final class KafkaProbe {
  private static final long TIMEOUT_MS = 20_000;

  public static void main(String[] args) {
    try {
      Properties p = new Properties();
      try (FileReader r = new FileReader(args[0])) {
        p.load(r);
      }
      p.putIfAbsent("default.api.timeout.ms", Long.toString(TIMEOUT_MS));
      p.putIfAbsent("request.timeout.ms", Long.toString(TIMEOUT_MS / 2));
      switch (args[1]) {
        case "check" -> check(p);
        case "produce" -> produce(p, args[2], List.of(args).subList(3, args.length));
        case "produce-until" -> produceUntil(p, args[2], Path.of(args[3]));
        case "consume" -> consume(p, args[2], Integer.parseInt(args[3]));
        case "quotas" -> quotas(p, args[2]);
        case "set-quota" -> setQuota(p, args[2], args[3], Double.parseDouble(args[4]));
        case "features" -> features(p);
        case "nodes" -> nodes(p);
        case "quorum" -> quorum(p);
        case "acls" -> acls(p, args[2]);
        case "produce-transactional" -> produceTransactional(p, args[2], args[3], List.of(args).subList(4, args.length));
        default -> throw new IllegalArgumentException("unknown command " + args[1]);
      }
      System.exit(0);
    } catch (Throwable e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      System.err.println("ERROR " + cause.getClass().getSimpleName() + ": " + cause.getMessage());
      System.exit(1);
    }
  }

  private static void check(Properties p) throws Exception {
    try (Admin admin = Admin.create(p)) {
      System.out.println(admin.describeCluster().clusterId().get(TIMEOUT_MS, TimeUnit.MILLISECONDS));
    }
  }

  private static void produce(Properties p, String topic, List<String> messages) throws Exception {
    p.put("acks", "all");
    p.put("max.block.ms", Long.toString(TIMEOUT_MS));
    p.put("delivery.timeout.ms", Long.toString(TIMEOUT_MS));
    p.put("request.timeout.ms", Long.toString(TIMEOUT_MS / 2));
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      for (String m : messages) producer.send(new ProducerRecord<>(topic, m)).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }
  }

  private static void produceTransactional(Properties p, String topic, String transactionalId, List<String> messages) throws Exception {
    p.put("acks", "all");
    p.put("transactional.id", transactionalId);
    p.put("max.block.ms", Long.toString(TIMEOUT_MS));
    p.put("delivery.timeout.ms", Long.toString(TIMEOUT_MS));
    p.put("request.timeout.ms", Long.toString(TIMEOUT_MS / 2));
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      producer.initTransactions();
      producer.beginTransaction();
      for (String m : messages) producer.send(new ProducerRecord<>(topic, m));
      producer.commitTransaction();
    }
  }

  private static void produceUntil(Properties p, String topic, Path stop) throws Exception {
    p.put("acks", "all");
    p.put("enable.idempotence", "true");
    p.put("delivery.timeout.ms", "30000");
    p.put("request.timeout.ms", "10000");
    p.put("max.block.ms", "30000");
    AtomicInteger acked = new AtomicInteger(), failed = new AtomicInteger();
    AtomicLong maxLatency = new AtomicLong();
    List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    int sent = 0;
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      while (!Files.exists(stop)) {
        final long start = System.nanoTime();
        final String message = "message " + sent++;
        producer.send(new ProducerRecord<>(topic, message), (metadata, e) -> {
          long ms = (System.nanoTime() - start) / 1_000_000;
          maxLatency.accumulateAndGet(ms, Math::max);
          if (e == null) {
            acked.incrementAndGet();
          } else {
            failed.incrementAndGet();
            failures.add(message + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
          }
        });
        Thread.sleep(50);
      }
      producer.flush();
    }
    System.out.println("sent=" + sent + " acked=" + acked.get() + " failed=" + failed.get() + " max_latency_ms=" + maxLatency.get());
    for (String f : failures.subList(0, Math.min(failures.size(), 10))) System.err.println(f);
    if (failed.get() > 0) throw new IllegalStateException(failed.get() + " of " + sent + " messages failed");
  }

  private static void consume(Properties p, String topic, int count) {
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (PartitionInfo info : consumer.partitionsFor(topic)) partitions.add(new TopicPartition(topic, info.partition()));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      int seen = 0;
      long deadline = System.currentTimeMillis() + TIMEOUT_MS;
      while (seen < count && System.currentTimeMillis() < deadline) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
          System.out.println(r.value());
          ++seen;
        }
      }
      if (seen < count) throw new IllegalStateException("read " + seen + " of " + count + " messages of " + topic);
    }
  }

  private static void quotas(Properties p, String user) throws Exception {
    ClientQuotaEntity entity = new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, user));
    try (Admin admin = Admin.create(p)) {
      ClientQuotaFilter filter = ClientQuotaFilter.containsOnly(List.of(ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.USER, user)));
      Map<ClientQuotaEntity, Map<String, Double>> all = admin.describeClientQuotas(filter).entities().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
      for (Map.Entry<String, Double> e : new TreeMap<>(all.getOrDefault(entity, Map.of())).entrySet())
        System.out.println(e.getKey() + "=" + e.getValue());
    }
  }

  private static void acls(Properties p, String principal) throws Exception {
    AclBindingFilter filter = new AclBindingFilter(ResourcePatternFilter.ANY,
        new AccessControlEntryFilter(principal, null, AclOperation.ANY, AclPermissionType.ANY));
    try (Admin admin = Admin.create(p)) {
      List<String> lines = new ArrayList<>();
      for (AclBinding b : admin.describeAcls(filter).values().get(TIMEOUT_MS, TimeUnit.MILLISECONDS))
        lines.add(b.pattern().resourceType() + " " + b.pattern().name() + " " + b.pattern().patternType() + " " + b.entry().host() + " "
            + b.entry().operation() + " " + b.entry().permissionType());
      java.util.Collections.sort(lines);
      for (String line : lines) System.out.println(line);
    }
  }

  // Admin.describeFeatures, as Strimzi reads the metadata version; the level named by the
  // broker's own MetadataVersion table (kafka-server-common), not the operator's.
  private static void features(Properties p) throws Exception {
    try (Admin admin = Admin.create(p)) {
      FinalizedVersionRange v = admin.describeFeatures().featureMetadata().get(TIMEOUT_MS, TimeUnit.MILLISECONDS)
          .finalizedFeatures().get(MetadataVersion.FEATURE_NAME);
      if (v == null) throw new IllegalStateException("no finalized " + MetadataVersion.FEATURE_NAME);
      System.out.println(MetadataVersion.FEATURE_NAME + "=" + MetadataVersion.fromFeatureLevel(v.maxVersionLevel()).version());
    }
  }

  // The cluster's nodes as describeCluster reports them: "<id> <rack>" per line ("-" for none).
  private static void nodes(Properties p) throws Exception {
    try (Admin admin = Admin.create(p)) {
      TreeMap<Integer, String> racks = new TreeMap<>();
      for (Node n : admin.describeCluster().nodes().get(TIMEOUT_MS, TimeUnit.MILLISECONDS))
        racks.put(n.id(), n.hasRack() ? n.rack() : "-");
      racks.forEach((id, rack) -> System.out.println(id + " " + rack));
    }
  }

  private static void quorum(Properties p) throws Exception {
    try (Admin admin = Admin.create(p)) {
      System.out.println("leader=" + admin.describeMetadataQuorum().quorumInfo().get(TIMEOUT_MS, TimeUnit.MILLISECONDS).leaderId());
    }
  }

  private static void setQuota(Properties p, String user, String key, double value) throws Exception {
    ClientQuotaEntity entity = new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, user));
    try (Admin admin = Admin.create(p)) {
      admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity, List.of(new ClientQuotaAlteration.Op(key, value)))))
          .all()
          .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }
  }
}
