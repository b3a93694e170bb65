// Real Apache Kafka brokers (scripts/kafka.sh's pinned release) on the configuration the Kafka
// controller generated: a three-node KRaft cluster of one dual-role node pool is made by
// `capstan manager --controllers=kafka` on the test's backend (pods by the workload
// simulator), then each node runs as one process on loopback from exactly its ConfigMap
// (server.config, cluster.id, metadata.version; testing/kafka_broker.h says how the pod
// network and data volume are stood in for). The quorum forms, the brokers report the cluster
// id the controller chose, and a producer/consumer round trip works through each listener with
// every message replicated to all three brokers. Then the topic operator on those brokers:
// KafkaTopics become topics, grow, keep their settings and go when deleted.
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/types.h"
#include "controllers/kafka/cluster_admin.h"
#include "runtime/gzip/gzip.h"
#include "runtime/json/json.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/pkcs12.h"
#include "runtime/pki/pki.h"
#include "testing/kafka_client.h"
#include "testing/kafka_nodes_fixture.h"
#include "testing/prometheus.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <thread>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

class KafkaBrokerE2E : public KafkaNodesFixture {
 protected:
  KafkaBrokerE2E() : KafkaNodesFixture({"kafka-broker", /*simulate_workloads=*/true, "kafka,kafkanodepools,pods,configmaps"}) {}
  std::vector<std::string> manager_flags() override { return {"--controllers=kafka"}; }
};

TEST_P(KafkaBrokerE2E, ThreeRealNodesFormAQuorumOnTheGeneratedConfigurationAndServeEveryListener) {
  // JBOD storage: a claim and an ephemeral volume, each a log directory, the KRaft metadata log
  // on the second.
  std::string cluster = kKafkaNodesCluster;
  const std::string single = "storage: {type: persistent-claim, size: 1Gi, deleteClaim: true}";
  cluster.replace(cluster.find(single), single.size(),
                  "storage: {type: jbod, volumes: [{id: 0, type: persistent-claim, size: 1Gi, deleteClaim: true}, "
                  "{id: 1, type: ephemeral, kraftMetadata: shared}]}");
  // Rack awareness: each broker's rack is its Node's zone label (the workload simulator's one Node).
  const std::string listeners = "    listeners:\n";
  cluster.replace(cluster.find(listeners), listeners.size(), "    rack: {topologyKey: topology.kubernetes.io/zone}\n" + listeners);
  kubectl_->ok({"label", "node", "--all", "topology.kubernetes.io/zone=zone-a", "--overwrite"});
  std::vector<KafkaNodeSpec> nodes = make_cluster("", {"events-dual-0", "events-dual-1", "events-dual-2"}, cluster);
  ASSERT_EQ(nodes.size(), 3u) << "the Kafka did not become Ready";
  const std::string cluster_id = jsonpath("kafka", "events", ".status.clusterId");
  // The spec names none: new nodes are formatted with the default (the status says what the
  // cluster finalized, which this manager, not told where the brokers are, cannot ask).
  const std::string metadata_version(apis::kafka::v1::kDefaultMetadataVersion);
  for (const auto& n : nodes) {
    EXPECT_EQ(n.cluster_id, cluster_id) << n.pod << ": the ConfigMap carries the cluster id of the status";
    EXPECT_EQ(n.metadata_version, metadata_version) << n.pod;
    ASSERT_FALSE(n.server_config.empty()) << n.pod;
  }
  EXPECT_EQ(nodes[0].host, "events-dual-0.events-kafka-brokers.data.svc");

  KafkaBrokers brokers(*dir_, nodes, std::move(network_));
  std::cout << "[ kafka ] three nodes listening " << brokers.start_seconds() << " s after their start\n";
  for (const char* volume : {"/data-0", "/data-1"})
    EXPECT_NE(read_file(brokers.data_dir("events-dual-1") + volume + "/kafka-log1/meta.properties").find("cluster.id=" + cluster_id),
              std::string::npos)
        << volume << ": each log directory was formatted with the controller's cluster id";
  EXPECT_TRUE(std::filesystem::exists(brokers.data_dir("events-dual-1") + "/data-1/kafka-log1/__cluster_metadata-0"))
      << "the KRaft metadata log is on the volume marked kraftMetadata: shared";

  const RunResult racks = brokers.java_client({{"bootstrap.servers", brokers.bootstrap_servers(9092)}}, {"nodes"});
  EXPECT_EQ(racks.out, "0 zone-a\n1 zone-a\n2 zone-a\n") << "broker.rack from the Node's label, as Kafka's describeCluster reports it\n"
                                                          << racks.err;

  for (int port : {9092, 9094}) {
    SCOPED_TRACE("listener on port " + std::to_string(port));
    KafkaClient client(brokers.bootstrap_servers(port));
    EXPECT_EQ(client.cluster_id(), cluster_id);
    EXPECT_TRUE(eventually([&] { return client.broker_count() == 3; }, 30s)) << brokers.logs();
    const std::string topic = "orders-" + std::to_string(port);
    // Replicated to all three brokers; min.insync.replicas 2 and acks=all make every write
    // cross the replication listener.
    ASSERT_NO_THROW(client.create_topic(topic, 3, 3)) << brokers.logs();
    std::vector<std::string> sent;
    for (int i = 0; i < 30; ++i) sent.push_back("order " + std::to_string(i) + " via " + std::to_string(port));
    ASSERT_NO_THROW(client.produce(topic, sent)) << brokers.logs();
    auto received = client.consume(topic, 3, sent.size());
    std::sort(received.begin(), received.end());
    std::sort(sent.begin(), sent.end());
    EXPECT_EQ(received, sent);
  }
  // Kafka spreads the partitions over the node's log directories: both hold some.
  auto partitions_in = [&](const std::string& volume) {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(brokers.data_dir("events-dual-1") + volume + "/kafka-log1"))
      n += e.is_directory() && e.path().filename().string().rfind("orders-", 0) == 0;
    return n;
  };
  EXPECT_GT(partitions_in("/data-0"), 0);
  EXPECT_GT(partitions_in("/data-1"), 0);
}

CAPSTAN_E2E_BACKENDS(KafkaBrokerE2E);

// TLS with certificates from the certificates controller: the manager runs both controllers,
// and the Kafka's CAs, its nodes' and the operator's certificates are Certificates it issues.
// The internal listeners are mutual TLS, so the manager's topic operator presents its own
// certificate; it is told where the bootstrap Service and each broker's replication address
// lead (the brokers advertise their names: their certificates carry them).
class KafkaTlsE2E : public KafkaNodesFixture {
 protected:
  KafkaTlsE2E() : KafkaNodesFixture({"kafka-tls", /*simulate_workloads=*/true, "kafka,kafkatopics,kafkausers,certificates,issuers,pods"}) {
    address_map_ = replication_address_map();
  }
  std::vector<std::string> manager_flags() override {
    return {"--controllers=kafka,certificates", "--kafka-address-map=" + address_map_, "--kafka-full-reconciliation-interval=3s"};
  }

  std::string address_map_;
  std::string tls_bootstrap_;  // the TLS listener's bootstrap, once the brokers run
};

TEST_P(KafkaTlsE2E, ATlsListenerServesBrokerCertificatesOfTheClusterCaThatClientsVerifyByName) {
  const std::string cluster = kafka_cluster_with("      - {name: tls, port: 9093, type: internal, tls: true}\n");
  std::vector<KafkaNodeSpec> nodes = make_cluster("", {"events-dual-0", "events-dual-1", "events-dual-2"}, cluster);
  ASSERT_EQ(nodes.size(), 3u) << "the Kafka did not become Ready";
  for (const char* o : {"certificate/events-cluster-ca", "certificate/events-clients-ca", "issuer/events-cluster-ca",
                        "certificate/events-dual-0", "certificate/events-dual-2"})
    EXPECT_EQ(get({"get", o, "-n", "data", "-o", "jsonpath={.metadata.ownerReferences[0].name}"}), "events") << o;
  for (const char* crt : {"events-cluster-ca", "events-dual-0", "events-dual-1", "events-dual-2"})
    EXPECT_EQ(condition("certificate", crt, "data", "Ready"), "True") << crt;

  // What clients trust: the public CA Secret, also in the listener's status; no key in it.
  auto ca = secret_data("events-cluster-ca-cert");
  ASSERT_EQ(ca.size(), 1u);
  const std::string ca_pem = ca["ca.crt"];
  EXPECT_EQ(pki::Certificate::parse_pem(ca_pem).is_ca(), true);
  EXPECT_EQ(jsonpath("kafka", "events", R"(.status.listeners[?(@.name=="tls")].certificates[0])"), ca_pem);
  EXPECT_EQ(jsonpath("kafka", "events", R"(.status.listeners[?(@.name=="plain")].certificates)"), "");
  EXPECT_EQ(secret_data("events-clients-ca-cert").size(), 1u);
  const std::string ca_file = dir_->file("cluster-ca.crt");
  write_file(ca_file, ca_pem);

  for (const auto& n : nodes) {
    EXPECT_NE(n.server_config.find("listener.security.protocol.map=CONTROLPLANE-9090:SSL,REPLICATION-9091:SSL,"), std::string::npos)
        << n.pod;
    EXPECT_NE(n.server_config.find("listener.name.replication-9091.ssl.client.auth=required"), std::string::npos) << n.pod;
  }
  EXPECT_EQ(condition("certificate", "events-cluster-operator-certs", "data", "Ready"), "True");

  // The quorum forms and the brokers replicate over mutual TLS (names checked).
  KafkaBrokers brokers(*dir_, nodes, std::move(network_));
  KafkaClient tls(brokers.bootstrap_servers(9093, /*by_name=*/true),
                  {{"security.protocol", "ssl"}, {"ssl.ca.location", ca_file}, {"ssl.endpoint.identification.algorithm", "https"}});
  EXPECT_EQ(tls.cluster_id(), jsonpath("kafka", "events", ".status.clusterId")) << brokers.logs();
  ASSERT_NO_THROW(tls.create_topic("secure", 3, 3)) << brokers.logs();
  std::vector<std::string> sent{"one", "two", "three"};
  ASSERT_NO_THROW(tls.produce("secure", sent)) << brokers.logs();
  auto received = tls.consume("secure", 3, sent.size());
  std::sort(received.begin(), received.end());
  std::sort(sent.begin(), sent.end());
  EXPECT_EQ(received, sent);

  // The verification is real: a client trusting another CA, or naming the broker by an address
  // its certificate does not carry, is refused.
  auto other_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  const std::string other_ca = dir_->file("other-ca.crt");
  write_file(other_ca, pki::self_signed_ca("other", std::chrono::hours(1), other_key).to_pem());
  EXPECT_ANY_THROW(KafkaClient(brokers.bootstrap_servers(9093, true), {{"security.protocol", "ssl"}, {"ssl.ca.location", other_ca}})
                       .cluster_id(5s));
  EXPECT_ANY_THROW(KafkaClient(brokers.bootstrap_servers(9093), {{"security.protocol", "ssl"}, {"ssl.ca.location", ca_file},
                                                                 {"ssl.endpoint.identification.algorithm", "https"}})
                       .cluster_id(5s));

  // The replication listener takes no client without a certificate of the cluster CA.
  EXPECT_ANY_THROW(KafkaClient(brokers.bootstrap_servers(9091, true), {{"security.protocol", "ssl"}, {"ssl.ca.location", ca_file}})
                       .cluster_id(5s));

  // The topic operator reaches it with the operator's certificate.
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: kafka.capstan.dev/v1
kind: KafkaTopic
metadata: {name: audited, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {partitions: 2, replicas: 3, config: {retention.ms: 3600000}}
)");
  EXPECT_TRUE(eventually([&] { return condition("kafkatopic", "audited", "data", "Ready") == "True"; }, 90s))
      << jsonpath("kafkatopic", "audited", ".status") << brokers.logs();
  kafka::ClusterAdmin kafka_admin(brokers.bootstrap_servers(9092), 30s);  // the test's own look, on the plain listener
  auto state = kafka_admin.describe("audited");
  ASSERT_TRUE(state);
  EXPECT_EQ(state->partitions, 2);
  EXPECT_EQ(kafka_admin.overrides("audited"), (std::map<std::string, std::string>{{"retention.ms", "3600000"}}));

  // A broker's certificate issued again (its Secret lost) rolls that broker alone.
  auto revision = [&](const std::string& pod) { return jsonpath("pod", pod, R"(.metadata.annotations.kafka\.capstan\.dev/revision)"); };
  const std::string r0 = revision("events-dual-0"), r1 = revision("events-dual-1");
  const std::string serial = jsonpath("certificate", "events-dual-0", ".status.revision");
  kubectl_->ok({"delete", "secret", "events-dual-0", "-n", "data"});
  EXPECT_TRUE(eventually([&] {
    const std::string r = revision("events-dual-0");
    return !r.empty() && r != r0;
  }, 60s)) << "the broker was not rolled onto its new certificate";
  EXPECT_NE(jsonpath("certificate", "events-dual-0", ".status.revision"), serial);
  EXPECT_EQ(revision("events-dual-1"), r1);
  EXPECT_TRUE(eventually([&] { return condition("kafka", "events", "data", "Ready") == "True"; }, 60s));
}

// Authentication and authorization: a listener takes only clients with a certificate of the
// clients CA (Certificates the users apply, issued by the cluster's Issuer <c>-clients-ca, or a
// KafkaUser's), whose subject is the user, and Kafka's StandardAuthorizer lets the super users do
// anything and everyone else what the ACLs of their KafkaUser allow.
TEST_P(KafkaTlsE2E, ClientCertificatesOfTheClientsCaAuthenticateAndKafkaUsersGetExactlyTheirAcls) {
  // The CAs' lifetimes of the spec (Strimzi's clusterCa / clientsCa): the certificates they
  // sign are valid as long, and renewed as early.
  const std::string cluster = kafka_cluster_with(
                                  "      - {name: mtls, port: 9093, type: internal, tls: true, authentication: {type: tls}}\n"
                                  "    authorization: {type: simple, superUsers: [CN=alice]}\n") +
                              "  clusterCa: {validityDays: 60, renewalDays: 15}\n"
                              "  clientsCa: {validityDays: 40, renewalDays: 10}\n";
  const std::string users = R"(---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: alice, namespace: data}
spec: {secretName: alice, commonName: alice, usages: [client auth], issuerRef: {name: events-clients-ca}}
---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: bob, namespace: data}
spec: {secretName: bob, commonName: bob, usages: [client auth], issuerRef: {name: events-clients-ca}}
)";
  std::vector<KafkaNodeSpec> nodes = make_cluster(users, {"events-dual-0", "events-dual-1", "events-dual-2"}, cluster);
  ASSERT_EQ(nodes.size(), 3u) << "the Kafka did not become Ready";
  for (const char* user : {"alice", "bob"})
    ASSERT_TRUE(eventually([&] { return condition("certificate", user, "data", "Ready") == "True"; }, 30s)) << user;
  EXPECT_NE(nodes[0].server_config.find("super.users=User:CN=events-kafka;User:CN=cluster-operator;User:CN=alice\n"), std::string::npos)
      << nodes[0].server_config;
  EXPECT_NE(nodes[0].server_config.find("listener.name.mtls-9093.ssl.truststore.location=/opt/kafka/client-ca-certs/ca.crt"),
            std::string::npos);

  const std::string ca_file = dir_->write("cluster-ca.crt", secret_data("events-cluster-ca-cert")["ca.crt"]);
  auto client_of = [&](const std::string& user) {
    auto files = secret_data(user);
    return KafkaClient(tls_bootstrap_, {{"security.protocol", "ssl"},
                                            {"ssl.ca.location", ca_file},
                                            {"ssl.certificate.location", dir_->write(user + ".crt", files["tls.crt"])},
                                            {"ssl.key.location", dir_->write(user + ".key", files["tls.key"])}});
  };
  KafkaBrokers brokers(*dir_, nodes, std::move(network_));
  tls_bootstrap_ = brokers.bootstrap_servers(9093, /*by_name=*/true);

  // alice, a super user, may do anything.
  KafkaClient alice = client_of("alice");
  ASSERT_NO_THROW(alice.create_topic("ledger", 3, 3)) << brokers.logs();
  ASSERT_NO_THROW(alice.produce("ledger", {"debit", "credit"})) << brokers.logs();
  EXPECT_EQ(alice.consume("ledger", 3, 2).size(), 2u);
  // bob is who he says he is, and allowed nothing.
  auto error_of = [](auto&& call) -> std::string {
    try {
      call();
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  const std::string bob_creates = error_of([&] { client_of("bob").create_topic("bobs", 1, 3, {}, 20s); });
  EXPECT_NE(bob_creates.find("AUTHORIZATION_FAILED"), std::string::npos) << bob_creates;
  const std::string bob_writes = error_of([&] { client_of("bob").produce("ledger", {"forged"}, 20s); });
  EXPECT_NE(bob_writes.find("AUTHORIZATION_FAILED"), std::string::npos) << bob_writes;
  // A certificate of the clients CA naming the operator or the nodes (whoever may create
  // Certificates in the namespace can have one) is not them.
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: forged, namespace: data}
spec: {secretName: forged, commonName: cluster-operator, usages: [client auth], issuerRef: {name: events-clients-ca}}
)");
  ASSERT_TRUE(eventually([&] { return condition("certificate", "forged", "data", "Ready") == "True"; }, 30s));
  const std::string forged = error_of([&] { client_of("forged").create_topic("forged", 1, 3, {}, 20s); });
  EXPECT_NE(forged.find("AUTHORIZATION_FAILED"), std::string::npos) << forged;
  // Without a certificate of the clients CA there is no connection, and an anonymous client of
  // the plain listener is allowed nothing.
  EXPECT_ANY_THROW(KafkaClient(tls_bootstrap_, {{"security.protocol", "ssl"}, {"ssl.ca.location", ca_file}}).cluster_id(5s));
  const std::string anonymous = error_of([&] { KafkaClient(brokers.bootstrap_servers(9092)).create_topic("anonymous", 1, 3, {}, 20s); });
  EXPECT_NE(anonymous.find("AUTHORIZATION_FAILED"), std::string::npos) << anonymous;

  // The operator is a super user: its topics are made.
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: kafka.capstan.dev/v1
kind: KafkaTopic
metadata: {name: audited, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {partitions: 1, replicas: 3}
)");
  EXPECT_TRUE(eventually([&] { return condition("kafkatopic", "audited", "data", "Ready") == "True"; }, 90s))
      << jsonpath("kafkatopic", "audited", ".status") << brokers.logs();

  // A KafkaUser: its certificate from the clients CA, and exactly its ACLs in Kafka.
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: kafka.capstan.dev/v1
kind: KafkaUser
metadata: {name: carol, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec:
  authentication: {type: tls}
  authorization:
    type: simple
    acls:
      - resource: {type: topic, name: ledger}
        operations: [Write, Describe, Read]
      - resource: {type: topic, name: led, patternType: prefix}
        operations: [Describe]
)");
  ASSERT_TRUE(eventually([&] { return condition("kafkauser", "carol", "data", "Ready") == "True"; }, 90s))
      << jsonpath("kafkauser", "carol", ".status") << brokers.logs();
  EXPECT_EQ(jsonpath("kafkauser", "carol", ".status.username"), "CN=carol");
  EXPECT_EQ(jsonpath("kafkauser", "carol", ".status.secret"), "carol");
  EXPECT_EQ(jsonpath("certificate", "carol", ".spec.issuerRef.name"), "events-clients-ca");
  ASSERT_TRUE(eventually([&] { return condition("certificate", "carol", "data", "Ready") == "True"; }, 30s));
  // (A certificate ends no later than its CA, issued a little before it: within the hour.)
  auto valid_days = [&](const std::string& secret, const std::string& key) {
    const pki::Certificate c = pki::Certificate::parse_pem(secret_data(secret)[key]);
    return std::chrono::duration_cast<std::chrono::minutes>(c.not_after() - c.not_before()).count() / 1440.0;
  };
  EXPECT_NEAR(valid_days("carol", "tls.crt"), 40, 0.04) << "spec.clientsCa.validityDays";
  EXPECT_NEAR(valid_days("events-clients-ca-cert", "ca.crt"), 40, 0.001);
  EXPECT_NEAR(valid_days("events-dual-0", "tls.crt"), 60, 0.04) << "spec.clusterCa.validityDays";
  EXPECT_NEAR(valid_days("events-cluster-ca-cert", "ca.crt"), 60, 0.001);
  EXPECT_EQ(jsonpath("certificate", "carol", ".spec.renewBefore"), "240h");
  EXPECT_EQ(jsonpath("certificate", "events-dual-0", ".spec.renewBefore"), "360h");
  KafkaClient carol = client_of("carol");
  EXPECT_NO_THROW(carol.produce("ledger", {"carol's entry"}, 30s)) << brokers.logs();
  EXPECT_EQ(carol.consume("ledger", 3, 3).size(), 3u);
  const std::string carol_creates = error_of([&] { carol.create_topic("carols", 1, 3, {}, 20s); });
  EXPECT_NE(carol_creates.find("AUTHORIZATION_FAILED"), std::string::npos) << carol_creates;

  // Deleting the KafkaUser deletes its ACLs first: the same certificate is allowed nothing.
  kubectl_->ok({"delete", "kafkauser", "carol", "-n", "data", "--wait=true", "--timeout=60s"});
  EXPECT_TRUE(eventually([&] { return !error_of([&] { carol.produce("ledger", {"after"}, 10s); }).empty(); }, 30s))
      << "carol still writes after her KafkaUser was deleted";
}

// SCRAM-SHA-512: KafkaUsers with a generated or a given password authenticate over SASL_SSL
// with the credential the user operator set in Kafka (AlterUserScramCredentials), get their ACLs
// (a transactional id prefix's too) and quotas, follow a change of their password, and lose
// credential, ACLs and quotas with their KafkaUser.
TEST_P(KafkaTlsE2E, ScramUsersAuthenticateWithTheirPasswordsOverSaslSslAndLoseThemWithTheirKafkaUser) {
  const std::string cluster = kafka_cluster_with(
      "      - {name: scram, port: 9093, type: internal, tls: true, authentication: {type: scram-sha-512}}\n"
      "    authorization: {type: simple, superUsers: [admin]}\n");
  const std::string objects = kLedgerTopic + R"(---
apiVersion: kafka.capstan.dev/v1
kind: KafkaUser
metadata: {name: dave, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec:
  authentication: {type: scram-sha-512}
  quotas: {producerByteRate: 1048576, requestPercentage: 55, controllerMutationRate: 2.5}
  authorization:
    type: simple
    acls:
      - resource: {type: topic, name: ledger}
        operations: [Write, Describe, Read]
      - resource: {type: transactionalId, name: tx-, patternType: prefix}
        operations: [Write, Describe]
---
apiVersion: kafka.capstan.dev/v1
kind: KafkaUser
metadata: {name: admin, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {authentication: {type: scram-sha-512}}
---
apiVersion: v1
kind: Secret
metadata: {name: erin-password, namespace: data}
stringData: {pw: erins-first-password}
---
apiVersion: kafka.capstan.dev/v1
kind: KafkaUser
metadata: {name: erin, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec:
  authentication:
    type: scram-sha-512
    password: {valueFrom: {secretKeyRef: {name: erin-password, key: pw}}}
)";
  std::vector<KafkaNodeSpec> nodes = make_cluster(objects, {"events-dual-0", "events-dual-1", "events-dual-2"}, cluster);
  ASSERT_EQ(nodes.size(), 3u) << "the Kafka did not become Ready";
  EXPECT_NE(nodes[0].server_config.find(",SCRAM-9093:SASL_SSL"), std::string::npos) << nodes[0].server_config;
  KafkaBrokers brokers(*dir_, nodes, std::move(network_));
  const std::string ca_file = dir_->write("cluster-ca.crt", secret_data("events-cluster-ca-cert")["ca.crt"]);
  // Kafka's own client: Kafka 4 refuses librdkafka 2.0's SCRAM proofs (testing/kafka_broker.h).
  // Its TLS name check is off here (the TLS listener's test checks the names); SCRAM is the point.
  auto client = [&](const std::string& user, const std::string& password, const std::vector<std::string>& command) {
    return brokers.java_client({{"bootstrap.servers", brokers.bootstrap_servers(9093, /*by_name=*/true)},
                                {"security.protocol", "SASL_SSL"},
                                {"sasl.mechanism", "SCRAM-SHA-512"},
                                {"sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user +
                                                         "\" password=\"" + password + "\";"},
                                {"ssl.truststore.type", "PEM"},
                                {"ssl.truststore.location", ca_file},
                                {"ssl.endpoint.identification.algorithm", ""}},
                               command);
  };
  auto authenticates = [&](const std::string& user, const std::string& password) { return client(user, password, {"check"}).code == 0; };

  for (const char* user : {"dave", "erin", "admin"})
    ASSERT_TRUE(eventually([&] { return condition("kafkauser", user, "data", "Ready") == "True"; }, 90s))
        << user << ": " << jsonpath("kafkauser", user, ".status") << brokers.logs();
  ASSERT_TRUE(eventually([&] { return condition("kafkatopic", "ledger", "data", "Ready") == "True"; }, 60s))
      << jsonpath("kafkatopic", "ledger", ".status");
  EXPECT_EQ(jsonpath("kafkauser", "dave", ".status.username"), "dave");
  EXPECT_EQ(jsonpath("kafkauser", "dave", ".status.secret"), "dave");

  // dave's password was generated; his Secret carries it and the JAAS line Java clients use.
  auto dave = secret_data("dave");
  ASSERT_EQ(dave["password"].size(), 32u);
  EXPECT_NE(dave["sasl.jaas.config"].find("username=\"dave\" password=\"" + dave["password"] + "\""), std::string::npos);
  const RunResult produced = client("dave", dave["password"], {"produce", "ledger", "dave's entry"});
  ASSERT_EQ(produced.code, 0) << produced.err << brokers.logs();
  const RunResult consumed = client("dave", dave["password"], {"consume", "ledger", "1"});
  EXPECT_EQ(consumed.out, "dave's entry\n") << consumed.err;
  // dave's bindings in Kafka, as Kafka's own Admin.describeAcls reports them to admin, a super
  // user: the transactional id prefix too (librdkafka 2.0 has no word for it; acls.h), and it
  // lets dave's transactional producers of tx-* commit, not others.
  const std::string admin_password = secret_data("admin")["password"];
  auto acls = [&](const std::string& principal) {
    const RunResult r = client("admin", admin_password, {"acls", principal});
    return r.code == 0 ? r.out : "describeAcls failed: " + r.err;
  };
  const std::string daves_acls =
      "TOPIC ledger LITERAL * DESCRIBE ALLOW\nTOPIC ledger LITERAL * READ ALLOW\nTOPIC ledger LITERAL * WRITE ALLOW\n"
      "TRANSACTIONAL_ID tx- PREFIXED * DESCRIBE ALLOW\nTRANSACTIONAL_ID tx- PREFIXED * WRITE ALLOW\n";
  EXPECT_TRUE(eventually([&] { return acls("User:dave") == daves_acls; }, 20s)) << acls("User:dave");
  const RunResult in_transaction = client("dave", dave["password"], {"produce-transactional", "ledger", "tx-1", "dave's transaction"});
  EXPECT_EQ(in_transaction.code, 0) << in_transaction.err << brokers.logs();
  const RunResult other_transaction = client("dave", dave["password"], {"produce-transactional", "ledger", "other-1", "not dave's"});
  EXPECT_NE(other_transaction.err.find("TransactionalIdAuthorizationException"), std::string::npos) << other_transaction.err;
  const RunResult wrong = client("dave", "not-daves-password", {"check"});
  EXPECT_NE(wrong.err.find("SaslAuthenticationException"), std::string::npos) << wrong.err;
  EXPECT_FALSE(authenticates("mallory", dave["password"]));
  // A reconcile keeps the password (the Secret is not rewritten with a new one).
  std::this_thread::sleep_for(4s);  // past a full reconciliation (3 s)
  EXPECT_EQ(secret_data("dave")["password"], dave["password"]);
  EXPECT_TRUE(authenticates("dave", dave["password"]));

  // dave's quotas are the spec's, follow it, and a quota set behind the operator's back goes at
  // the next full reconciliation (3 s); admin, a super user, reads them.
  auto quotas = [&] { return client("admin", admin_password, {"quotas", "dave"}).out; };
  EXPECT_EQ(quotas(), "controller_mutation_rate=2.5\nproducer_byte_rate=1048576.0\nrequest_percentage=55.0\n");
  kubectl_->ok({"patch", "kafkauser", "dave", "-n", "data", "--type=json", "-p",
                R"([{"op":"remove","path":"/spec/quotas/producerByteRate"},{"op":"add","path":"/spec/quotas/consumerByteRate","value":2048}])"});
  EXPECT_TRUE(eventually([&] { return quotas() == "consumer_byte_rate=2048.0\ncontroller_mutation_rate=2.5\nrequest_percentage=55.0\n"; }, 30s))
      << quotas();
  const RunResult drift = client("admin", admin_password, {"set-quota", "dave", "producer_byte_rate", "1"});
  ASSERT_EQ(drift.code, 0) << drift.err;
  EXPECT_TRUE(eventually([&] { return quotas() == "consumer_byte_rate=2048.0\ncontroller_mutation_rate=2.5\nrequest_percentage=55.0\n"; }, 30s))
      << "the quota set behind the operator's back stayed: " << quotas();

  // erin's password is hers; she authenticates but may not write; a new password replaces it.
  EXPECT_EQ(secret_data("erin")["password"], "erins-first-password");
  const RunResult erin_writes = client("erin", "erins-first-password", {"produce", "ledger", "erin's"});
  EXPECT_NE(erin_writes.err.find("TopicAuthorizationException"), std::string::npos) << erin_writes.err;
  kubectl_->ok({"patch", "secret", "erin-password", "-n", "data", "--type=merge", "-p", R"({"stringData":{"pw":"erins-second-password"}})"});
  EXPECT_TRUE(eventually([&] { return authenticates("erin", "erins-second-password"); }, 30s)) << "the new password was not set in Kafka";
  EXPECT_FALSE(authenticates("erin", "erins-first-password"));
  EXPECT_EQ(secret_data("erin")["password"], "erins-second-password");

  // erin switches to tls: she becomes User:CN=erin, with a certificate of the clients CA in her
  // Secret, and User:erin loses its credential and the password keys of her Secret.
  kubectl_->ok({"patch", "kafkauser", "erin", "-n", "data", "--type=merge", "-p",
                R"({"spec":{"authentication":{"type":"tls","password":null},"quotas":{"consumerByteRate":4096}}})"});
  EXPECT_TRUE(eventually([&] { return jsonpath("kafkauser", "erin", ".status.username") == "CN=erin"; }, 60s))
      << jsonpath("kafkauser", "erin", ".status");
  EXPECT_TRUE(eventually([&] { return !authenticates("erin", "erins-second-password"); }, 20s)) << "User:erin kept its SCRAM credential";
  EXPECT_TRUE(eventually([&] {
    auto erin = secret_data("erin");
    return !erin.contains("password") && !erin.contains("sasl.jaas.config") && erin.contains("tls.crt");
  }, 60s)) << "erin's Secret: " << get({"get", "secret", "erin", "-n", "data", "-o", "jsonpath={.data}"});
  // Strimzi's keys too: user.crt / user.key mirror the certificate, user.p12 opens with user.password.
  EXPECT_TRUE(eventually([&] {
    auto erin = secret_data("erin");
    return erin.contains("user.p12") && erin["user.crt"] == erin["tls.crt"] && erin["user.key"] == erin["tls.key"];
  }, 60s)) << "erin's Secret: " << get({"get", "secret", "erin", "-n", "data", "-o", "jsonpath={.data}"});
  {
    auto erin = secret_data("erin");
    auto p12 = pki::decode_pkcs12(erin["user.p12"], erin["user.password"]);
    EXPECT_TRUE(p12.key == pki::PrivateKey::from_pem(erin["user.key"]));
    EXPECT_EQ(p12.profile, pki::Pkcs12Profile::Modern2023);
    EXPECT_EQ(erin["user.password"].size(), 32u) << "a generated password";
  }
  EXPECT_TRUE(eventually([&] { return client("admin", admin_password, {"quotas", "CN=erin"}).out == "consumer_byte_rate=4096.0\n"; }, 30s));

  // erin goes back to scram-sha-512: her certificate and its Secret go, a password Secret returns.
  kubectl_->ok({"patch", "kafkauser", "erin", "-n", "data", "--type=merge", "-p", R"({"spec":{"authentication":{"type":"scram-sha-512","password":{"valueFrom":{"secretKeyRef":{"name":"erin-password","key":"pw"}}}}}})"});
  EXPECT_TRUE(eventually([&] { return authenticates("erin", "erins-second-password"); }, 60s)) << "erin's password was not set again";
  EXPECT_TRUE(eventually([&] {
    auto erin = secret_data("erin");
    return erin["password"] == "erins-second-password" && !erin.contains("tls.crt") && !erin.contains("user.p12");
  }, 60s)) << "erin's Secret: " << get({"get", "secret", "erin", "-n", "data", "-o", "jsonpath={.data}"});
  EXPECT_EQ(get({"get", "certificate", "erin", "-n", "data", "--ignore-not-found", "-o", "name"}), "");

  // dave switches to tls after quotas of his own: those of User:dave go, the spec's are CN=dave's.
  kubectl_->ok({"patch", "kafkauser", "dave", "-n", "data", "--type=merge", "-p", R"({"spec":{"authentication":{"type":"tls"}}})"});
  EXPECT_TRUE(eventually([&] { return quotas().empty(); }, 60s)) << "User:dave kept its quotas: " << quotas();
  EXPECT_TRUE(eventually([&] {
    return client("admin", admin_password, {"quotas", "CN=dave"}).out == "consumer_byte_rate=2048.0\ncontroller_mutation_rate=2.5\nrequest_percentage=55.0\n";
  }, 30s)) << client("admin", admin_password, {"quotas", "CN=dave"}).out;
  EXPECT_FALSE(authenticates("dave", dave["password"]));
  // His bindings moved with him, the transactional id's included.
  EXPECT_TRUE(eventually([&] { return acls("User:dave").empty(); }, 20s)) << "User:dave kept ACLs: " << acls("User:dave");
  EXPECT_TRUE(eventually([&] { return acls("User:CN=dave") == daves_acls; }, 20s)) << acls("User:CN=dave");

  // A deleted KafkaUser's quotas, Secret and credential go with it.
  kubectl_->ok({"delete", "kafkauser", "dave", "-n", "data", "--wait=true", "--timeout=60s"});
  EXPECT_TRUE(eventually([&] { return secret_data("dave").empty(); }, 30s)) << "dave's Secret outlived his KafkaUser";
  EXPECT_TRUE(eventually([&] { return client("admin", admin_password, {"quotas", "CN=dave"}).out.empty(); }, 10s))
      << "dave's quotas outlived his KafkaUser";
  EXPECT_TRUE(eventually([&] { return acls("User:CN=dave").empty(); }, 10s)) << "dave's ACLs outlived his KafkaUser: " << acls("User:CN=dave");
  kubectl_->ok({"delete", "kafkauser", "admin", "-n", "data", "--wait=true", "--timeout=60s"});
  EXPECT_TRUE(eventually([&] { return !authenticates("admin", admin_password); }, 20s)) << "admin still authenticates after his KafkaUser was deleted";
}

CAPSTAN_E2E_BACKENDS(KafkaTlsE2E);

// Metrics: with metricsConfig every node runs Prometheus' JMX exporter, and with the monitoring
// controller on too the cluster gets a PodMonitor that a Prometheus selects by its labels; a
// real Prometheus scrapes the real brokers' exporters through that job.
class KafkaMetricsE2E : public KafkaNodesFixture {
 protected:
  KafkaMetricsE2E() : KafkaNodesFixture({"kafka-metrics", /*simulate_workloads=*/true, "kafka,podmonitors,prometheuses,pods"}) {}
  std::vector<std::string> manager_flags() override { return {"--controllers=kafka,monitoring"}; }
};

TEST_P(KafkaMetricsE2E, EveryNodeExportsItsMetricsAndThePodMonitorMadeForTheClusterScrapesThem) {
  std::string cluster = kKafkaNodesCluster;
  cluster.replace(cluster.find("    config:\n"), 0, R"(    metricsConfig:
      type: jmxPrometheusExporter
      valueFrom: {configMapKeyRef: {name: kafka-metrics, key: kafka-metrics-config.yml}}
      podMonitor: {labels: {release: main}}
)");
  // Strimzi's example rules for the broker's kafka.server beans.
  const std::string metrics = R"(---
apiVersion: v1
kind: ConfigMap
metadata: {name: kafka-metrics, namespace: data}
data:
  kafka-metrics-config.yml: |
    lowercaseOutputName: true
    rules:
    - pattern: kafka.server<type=(.+), name=(.+)><>Value
      name: kafka_server_$1_$2
      type: GAUGE
---
apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: ops, namespace: data}
spec: {scrapeInterval: 1s, podMonitorSelector: {matchLabels: {release: main}}}
)";
  std::vector<KafkaNodeSpec> nodes = make_cluster(metrics, {"events-dual-0", "events-dual-1", "events-dual-2"}, cluster);
  ASSERT_EQ(nodes.size(), 3u) << "the Kafka did not become Ready";
  for (const auto& n : nodes) EXPECT_NE(n.metrics_config.find("kafka_server_$1_$2"), std::string::npos) << n.pod;
  EXPECT_EQ(jsonpath("pod", "events-dual-1", R"(.spec.containers[0].ports[?(@.name=="tcp-prometheus")].containerPort)"), "9404");
  EXPECT_EQ(jsonpath("podmonitor", "events-kafka", ".metadata.labels.release"), "main");
  EXPECT_EQ(jsonpath("podmonitor", "events-kafka", ".metadata.ownerReferences[0].name"), "events");

  // The Prometheus selected it: its job is in the generated configuration.
  auto generated = [&] {
    std::string b64 = get({"get", "secret", "prometheus-ops", "-n", "data", "-o", "jsonpath={.data.prometheus\\.yaml\\.gz}"});
    auto gz = b64.empty() ? std::nullopt : meta::base64_decode(b64);
    return gz ? gzip::decompress(*gz) : std::string();
  };
  ASSERT_TRUE(eventually([&] { return generated().find("podMonitor/data/events-kafka/0") != std::string::npos; }, 30s)) << generated();

  // The job runs in a real Prometheus, its discovery swapped for the three exporters (and so
  // without the relabelings that read what discovery finds), against the real brokers.
  KafkaBrokers brokers(*dir_, nodes, std::move(network_));
  json::Value config = with_static_targets(json::from_yaml(generated()));
  for (auto& job : config.at("scrape_configs").as_array()) {
    json::Array targets;
    for (const auto& n : nodes) targets.push_back(json::Value(brokers.metrics_address(n.pod)));
    job.as_object()["static_configs"] = json::Array{json::Object{{"targets", std::move(targets)}}};
    job.as_object().erase("relabel_configs");
  }
  TempDir prom_dir("prometheus");
  PrometheusServer prometheus(prom_dir, json::to_yaml(config), {});
  auto query = [&](const std::string& q) { return prometheus.get("/api/v1/query?query=" + q); };
  EXPECT_TRUE(eventually([&] { return query("count(up%3D%3D1)").find(R"("3"])") != std::string::npos; }, 60s))
      << query("up") << "\n" << prometheus.get("/api/v1/targets") << brokers.logs();
  // Every broker reports the partitions it leads (the __consumer_offsets topic gives some).
  EXPECT_TRUE(eventually([&] { return query("count(kafka_server_replicamanager_leadercount)").find(R"("3"])") != std::string::npos; }, 60s))
      << query("kafka_server_replicamanager_leadercount");

  // Opting out removes the PodMonitor; the nodes keep their exporter.
  kubectl_->ok({"patch", "kafka", "events", "-n", "data", "--type=merge", "-p",
                R"({"spec":{"kafka":{"metricsConfig":{"podMonitor":{"enabled":false}}}}})"});
  EXPECT_TRUE(eventually([&] { return get({"get", "podmonitor", "-n", "data", "-o", "name"}).empty(); }, 30s));
}

CAPSTAN_E2E_BACKENDS(KafkaMetricsE2E);

// The topic operator against the real nodes. The manager runs outside the nodes' "pod network",
// so it is told where the bootstrap Service's replication port leads (--kafka-address-map), as
// a manager run through port-forwards would be; a full reconciliation every 3 s (instead of 2 min)
// lets the test see drift set back.
class KafkaTopicE2E : public KafkaNodesFixture {
 protected:
  KafkaTopicE2E() : KafkaNodesFixture({"kafka-topic", /*simulate_workloads=*/true, "kafka,kafkatopics,pods"}) {
    operator_bootstrap_ = network_.address("events-dual-0.events-kafka-brokers.data.svc", 9091);
  }
  std::vector<std::string> manager_flags() override {
    return {"--controllers=kafka", "--kafka-address-map=events-kafka-bootstrap.data.svc:9091=" + operator_bootstrap_,
            "--kafka-full-reconciliation-interval=3s"};
  }

  std::string ready(const std::string& topic) { return condition("kafkatopic", topic, "data", "Ready"); }
  std::string reason(const std::string& topic) {
    return jsonpath("kafkatopic", topic, R"(.status.conditions[?(@.type=="Ready")].reason)");
  }

  std::string operator_bootstrap_;
};

TEST_P(KafkaTopicE2E, KafkaTopicsBecomeTopicsThatFollowTheirSpecAndGoWithThem) {
  std::vector<KafkaNodeSpec> nodes = make_cluster();
  ASSERT_EQ(nodes.size(), 3u) << "the Kafka did not become Ready";
  KafkaBrokers brokers(*dir_, nodes, std::move(network_));
  kafka::ClusterAdmin kafka_admin(brokers.bootstrap_servers(9092), 30s);  // the test's own look at Kafka

  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: kafka.capstan.dev/v1
kind: KafkaTopic
metadata: {name: orders, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec:
  partitions: 3
  replicas: 3
  config: {retention.ms: 7200000, segment.bytes: 104857600, min.insync.replicas: 2}
)");
  ASSERT_TRUE(eventually([&] { return ready("orders") == "True"; }, 90s)) << brokers.logs();
  EXPECT_EQ(jsonpath("kafkatopic", "orders", ".status.topicName"), "orders");
  auto state = kafka_admin.describe("orders");
  ASSERT_TRUE(state);
  EXPECT_EQ(state->partitions, 3);
  EXPECT_EQ(state->replicas, 3);
  const std::map<std::string, std::string> settings{{"min.insync.replicas", "2"}, {"retention.ms", "7200000"}, {"segment.bytes", "104857600"}};
  EXPECT_EQ(kafka_admin.overrides("orders"), settings);

  // Messages go through all three partitions.
  KafkaClient client(brokers.bootstrap_servers(9092));
  std::vector<std::string> sent;
  for (int i = 0; i < 12; ++i) sent.push_back("order " + std::to_string(i));
  ASSERT_NO_THROW(client.produce("orders", sent));
  EXPECT_EQ(client.consume("orders", 3, sent.size()).size(), sent.size());

  // Partitions grow; they never shrink (NotSupported, and Kafka keeps its five).
  kubectl_->ok({"patch", "kafkatopic", "orders", "-n", "data", "--type=merge", "-p", R"({"spec":{"partitions":5}})"});
  auto partitions = [&] {
    auto s = kafka_admin.describe("orders");
    return s ? s->partitions : 0;
  };
  EXPECT_TRUE(eventually([&] { return partitions() == 5; }, 60s));
  kubectl_->ok({"patch", "kafkatopic", "orders", "-n", "data", "--type=merge", "-p", R"({"spec":{"partitions":2}})"});
  EXPECT_TRUE(eventually([&] { return reason("orders") == "NotSupported"; }, 60s));
  EXPECT_EQ(ready("orders"), "False");
  EXPECT_NE(jsonpath("kafkatopic", "orders", R"(.status.conditions[?(@.type=="Ready")].message)").find("Decreasing partitions not supported"),
            std::string::npos);
  EXPECT_EQ(partitions(), 5);
  kubectl_->ok({"patch", "kafkatopic", "orders", "-n", "data", "--type=merge", "-p", R"({"spec":{"partitions":5}})"});
  EXPECT_TRUE(eventually([&] { return ready("orders") == "True"; }, 60s));

  // A setting changed behind the operator's back is set back; one added is removed.
  const std::map<std::string, std::string> drift{{"cleanup.policy", "compact"}, {"retention.ms", "1000"}, {"segment.bytes", "104857600"}};
  kafka_admin.alter_overrides("orders", drift, {});
  // The brokers apply a change a moment after the controller quorum took it: seen first, then undone.
  EXPECT_TRUE(eventually([&] { return kafka_admin.overrides("orders") != settings; }, 30s)) << "the drift never showed";
  EXPECT_TRUE(eventually([&] { return kafka_admin.overrides("orders") == settings; }, 60s)) << "drift was not set back";

  // A second KafkaTopic for the same topic does not take it over.
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: kafka.capstan.dev/v1
kind: KafkaTopic
metadata: {name: orders-again, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {topicName: orders, partitions: 1, config: {retention.ms: 1}}
)");
  EXPECT_TRUE(eventually([&] { return reason("orders-again") == "ResourceConflict"; }, 60s));
  EXPECT_EQ(kafka_admin.overrides("orders"), settings);
  kubectl_->ok({"delete", "kafkatopic", "orders-again", "-n", "data", "--wait=true", "--timeout=60s"});
  EXPECT_TRUE(kafka_admin.describe("orders")) << "deleting the conflicting KafkaTopic kept the topic";

  // Deleting the KafkaTopic deletes the topic first.
  kubectl_->ok({"delete", "kafkatopic", "orders", "-n", "data", "--wait=true", "--timeout=60s"});
  EXPECT_TRUE(eventually([&] { return !kafka_admin.describe("orders"); }, 30s)) << "the topic outlived its KafkaTopic";
}



// Strimzi's broker scale-down check on real brokers: a broker that still holds partition
// replicas is not removed by a scale-down (its pool's is reverted, with a Warning on the Kafka)
// until its replicas are gone.
TEST_P(KafkaTopicE2E, AScaleDownThatWouldLoseDataIsRefusedUntilTheReplicasAreGone) {
  std::vector<KafkaNodeSpec> nodes = make_cluster(R"(---
apiVersion: kafka.capstan.dev/v1
kind: KafkaNodePool
metadata: {name: extra, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {replicas: 1, roles: [broker], storage: {type: ephemeral}}
)",
                                                  {"events-dual-0", "events-dual-1", "events-dual-2", "events-extra-3"});
  ASSERT_EQ(nodes.size(), 4u) << "the Kafka did not become Ready";
  KafkaBrokers brokers(*dir_, nodes, std::move(network_));
  kafka::ClusterAdmin kafka_admin(brokers.bootstrap_servers(9092), 30s);
  // Eight single-replica partitions over four brokers: node 3 holds some of them.
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: kafka.capstan.dev/v1
kind: KafkaTopic
metadata: {name: spread, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {partitions: 8, replicas: 1}
)");
  ASSERT_TRUE(eventually([&] { return ready("spread") == "True"; }, 90s)) << brokers.logs();
  ASSERT_EQ(kafka_admin.holding_replicas({3}), std::set<std::int32_t>{3});

  kubectl_->ok({"scale", "knp", "extra", "-n", "data", "--replicas=0"});
  auto warning = [&] { return jsonpath("kafka", "events", R"(.status.conditions[?(@.type=="Warning")].message)"); };
  ASSERT_TRUE(eventually([&] { return !warning().empty(); }, 60s)) << "the scale-down was not refused";
  EXPECT_EQ(warning(), "Reverting scale-down of KafkaNodePool extra by changing number of replicas to 1: brokers [3] still hold partition replicas");
  EXPECT_EQ(jsonpath("kafka", "events", R"(.status.conditions[?(@.type=="Warning")].reason)"), "ScaleDownPreventionCheck");
  std::this_thread::sleep_for(5s);  // more than one full reconciliation (3 s)
  EXPECT_NE(get({"get", "pods", "-n", "data", "-o", "name"}).find("pod/events-extra-3"), std::string::npos)
      << "a broker holding replicas was removed";
  EXPECT_EQ(jsonpath("knp", "extra", ".status.nodeIds"), "[3]");

  // With the topic gone the broker holds nothing, and the scale-down goes ahead.
  kubectl_->ok({"delete", "kafkatopic", "spread", "-n", "data", "--wait=true", "--timeout=60s"});
  EXPECT_TRUE(eventually([&] { return get({"get", "pods", "-n", "data", "-o", "name"}).find("events-extra-3") == std::string::npos; }, 60s))
      << "the scale-down never went ahead";
  EXPECT_TRUE(eventually([&] { return warning().empty(); }, 30s)) << warning();
}

CAPSTAN_E2E_BACKENDS(KafkaTopicE2E);

}  // namespace
}  // namespace capstan::e2e
