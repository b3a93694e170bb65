#include "apis/kafka/v1/types.h"

#include "apis/common/crd_test_util.h"
#include "apis/kafka/v1/crds.h"
#include "apiserver/builtin/crd_strategy.h"
#include "apiserver/schema/schema.h"
#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::apis::kafka::v1 {
namespace {

using Strings = std::vector<std::string>;

const char* kKafka = R"(
apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata: {name: events, namespace: data}
spec:
  kafka:
    version: 4.0.0
    metadataVersion: 4.0-IV3
    listeners:
    - {name: plain, port: 9092, type: internal, tls: false}
    - {name: internal, port: 9093, type: cluster-ip, tls: false}
    - name: external
      port: 9094
      type: nodeport
      tls: false
      configuration:
        externalTrafficPolicy: Local
        preferredNodePortAddressType: InternalDNS
        bootstrap: {nodePort: 32100}
        brokers: [{broker: 0, advertisedHost: kafka-0.example.com, advertisedPort: 19094, nodePort: 32101}]
    rack: {topologyKey: topology.kubernetes.io/zone}
    config:
      offsets.topic.replication.factor: 3
      auto.create.topics.enable: false
      ssl.cipher.suites: TLS_AES_256_GCM_SHA384
)";

TEST(KafkaTypes, KafkaSpecAndDefaults) {
  const auto kafka = Kafka::from_json(json::from_yaml(kKafka));
  EXPECT_EQ(kafka.name(), "events");
  EXPECT_EQ(kafka.namespace_(), "data");
  const auto& s = kafka.spec.kafka;
  EXPECT_EQ(s.effective_version(), "4.0.0");
  EXPECT_EQ(s.effective_metadata_version(), "4.0-IV3");
  EXPECT_EQ(s.effective_image(), "quay.io/strimzi/kafka:0.48.0-kafka-4.0.0");
  ASSERT_EQ(s.listeners.size(), 3u);
  ASSERT_TRUE(s.listeners[2].configuration);
  const auto& conf = *s.listeners[2].configuration;
  EXPECT_EQ(conf.bootstrap->node_port, 32100);
  ASSERT_NE(conf.broker_override(0), nullptr);
  EXPECT_EQ(conf.broker_override(0)->advertised_host, "kafka-0.example.com");
  EXPECT_EQ(conf.broker_override(0)->advertised_port, 19094);
  EXPECT_EQ(conf.broker_override(0)->node_port, 32101);
  EXPECT_EQ(conf.broker_override(1), nullptr);
  EXPECT_EQ(conf.preferred_node_port_address_type, "InternalDNS");
  ASSERT_TRUE(s.rack);
  EXPECT_EQ(s.rack->topology_key, "topology.kubernetes.io/zone");
  EXPECT_EQ(KafkaSpec::from_json(json::from_yaml(kKafka).at("spec"), "spec").to_json(), json::from_yaml(kKafka).at("spec")) << "round trip";
  ASSERT_EQ(s.listeners.size(), 3u);
  EXPECT_EQ(s.listeners[1].name, "internal");
  EXPECT_EQ(s.listeners[1].type, "cluster-ip");
  EXPECT_EQ(s.listeners[1].port, 9093);
  EXPECT_EQ(s.properties().at("offsets.topic.replication.factor"), "3");
  EXPECT_EQ(s.properties().at("auto.create.topics.enable"), "false");
  EXPECT_EQ(s.properties().at("ssl.cipher.suites"), "TLS_AES_256_GCM_SHA384");
  auto d = Kafka::from_json(json::from_yaml("spec: {kafka: {listeners: []}}")).spec.kafka;
  EXPECT_EQ(d.effective_version(), "4.1.0");
  EXPECT_EQ(d.effective_metadata_version(), "4.1-IV1");
  auto older = Kafka::from_json(json::from_yaml("spec: {kafka: {version: 4.0.0, listeners: []}}")).spec.kafka;
  EXPECT_EQ(older.effective_metadata_version(), "4.0-IV3") << "the release's own, when the spec names none";
  EXPECT_EQ(older.effective_image(), "quay.io/strimzi/kafka:0.48.0-kafka-4.0.0");
}

TEST(KafkaTypes, NodePools) {
  auto p = KafkaNodePool::from_json(json::from_yaml(
      "spec: {replicas: 3, roles: [controller, broker], storage: {type: persistent-claim, size: 10Gi, deleteClaim: true}}")).spec;
  EXPECT_EQ(p.replicas, 3);
  EXPECT_TRUE(p.broker());
  EXPECT_TRUE(p.controller());
  EXPECT_EQ(p.storage.type, "persistent-claim");
  EXPECT_EQ(p.storage.size, "10Gi");
  EXPECT_TRUE(p.storage.delete_claim);
}

TEST(KafkaTypes, StatusRoundTripsAndABadMemberIsNamed) {
  const auto status = json::from_yaml(R"(
conditions: [{type: Ready, status: "True", lastTransitionTime: "2026-01-02T03:04:05Z", observedGeneration: 2}]
observedGeneration: 2
listeners: [{name: plain, addresses: [{host: b.data.svc, port: 9092}], bootstrapServers: "b.data.svc:9092"}]
kafkaNodePools: [{name: dual}]
clusterId: abc
kafkaVersion: "4.1.0"
kafkaMetadataVersion: "4.1-IV1"
)");
  EXPECT_EQ(KafkaStatus::from_json(status, "status").to_json(), status);
  try {
    KafkaNodePool::from_json(json::from_yaml("spec: {replicas: three, roles: [broker]}"));
    ADD_FAILURE() << "decoded";
  } catch (const codec::DecodeError& e) {
    EXPECT_STREQ(e.what(), "spec.replicas: expected an integer, got string");
  }
}

TEST(KafkaCrds, AcceptedByTheApiServerAndKeepEveryImplementedField) {
  apiserver::builtin::CrdStrategy strategy;
  auto all = crds();
  ASSERT_EQ(all.size(), 4u);
  for (auto crd : all) {
    strategy.prepare_create(crd);
    EXPECT_TRUE(strategy.validate(crd, nullptr).empty()) << json::serialize(crd);
  }
  EXPECT_EQ(json::serialize(*json::find(all[0], {"spec", "names", "shortNames"})), R"(["k"])");
  EXPECT_EQ(json::serialize(*json::find(all[1], {"spec", "names", "shortNames"})), R"(["knp"])");
  const auto& check = testing::schema_errors;
  EXPECT_EQ(check(all[0], json::from_yaml(kKafka)), Strings{});
  EXPECT_EQ(check(all[1], json::from_yaml(R"(
apiVersion: kafka.capstan.dev/v1
kind: KafkaNodePool
metadata: {name: dual, labels: {kafka.capstan.dev/cluster: events}}
spec: {replicas: 3, roles: [controller, broker], storage: {type: ephemeral, sizeLimit: 1Gi}, resources: {requests: {memory: 1Gi}}}
)")),
            Strings{});
  auto bad = check(all[0], json::from_yaml("{spec: {kafka: {listeners: [{name: Plain_1, port: 9092, type: bogus, tls: false}]}}}"));
  EXPECT_EQ(bad.size(), 2u) << ::testing::PrintToString(bad);
  EXPECT_EQ(json::serialize(*json::find(all[2], {"spec", "names", "shortNames"})), R"(["kt"])");
  EXPECT_EQ(check(all[2], json::from_yaml(R"(
apiVersion: kafka.capstan.dev/v1
kind: KafkaTopic
metadata: {name: orders, labels: {kafka.capstan.dev/cluster: events}}
spec: {topicName: orders, partitions: 12, replicas: 3, config: {retention.ms: 604800000, cleanup.policy: compact}}
status: {topicName: orders, observedGeneration: 1, conditions: [{type: Ready, status: "True", lastTransitionTime: "2026-12-05T12:00:00Z"}]}
)")),
            Strings{});
  EXPECT_EQ(check(all[2], json::from_yaml("{spec: {partitions: 0, replicas: 40000}}")).size(), 2u) << "the counts are bounded in the schema";
  EXPECT_EQ(json::serialize(*json::find(all[3], {"spec", "names", "shortNames"})), R"(["ku"])");
  EXPECT_EQ(check(all[3], json::from_yaml(R"(
apiVersion: kafka.capstan.dev/v1
kind: KafkaUser
metadata: {name: carol, labels: {kafka.capstan.dev/cluster: events}}
spec:
  authentication: {type: tls}
  authorization:
    type: simple
    acls: [{resource: {type: topic, name: ledger, patternType: literal}, operations: [Read, Write], type: allow, host: "*"}]
status: {username: CN=carol, secret: carol, observedGeneration: 1}
)")),
            Strings{});
  EXPECT_EQ(check(all[3], json::from_yaml("{spec: {authentication: {type: oauth}, authorization: {type: simple, acls: "
                                          "[{resource: {type: delegationToken, name: t}, operations: [Fly]}]}}}"))
                .size(),
            3u)
      << "what is not implemented is refused by the schema";
}

}  // namespace
}  // namespace capstan::apis::kafka::v1
