#include "controllers/kafka/nodes.h"
#include "controllers/kafka/objects.h"
#include "controllers/kafka/security.h"

#include "runtime/json/yaml.h"
#include "runtime/meta/base64.h"

#include <set>

#include <gtest/gtest.h>

namespace capstan::kafka {
namespace {

using Ids = std::vector<std::int32_t>;

// Kafka "events" in namespace "data" with `spec_kafka` (YAML lines under spec.kafka).
json::Value kafka_object(const std::string& spec_kafka = "") {
  return json::from_yaml(R"(apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata: {name: events, namespace: data, uid: 6c1c8a7e-0000-4000-8000-000000000001}
)" + (spec_kafka.empty() ? std::string() : "spec:\n  kafka:\n" + spec_kafka));
}

TEST(KafkaNodeIds, NewPoolsTakeTheLowestFreeIdsInOrder) {
  auto ids = assign_node_ids({{"controllers", 3, {}, false, true}, {"brokers", 3, {}, true, false}});
  EXPECT_EQ(ids["controllers"], (Ids{0, 1, 2}));
  EXPECT_EQ(ids["brokers"], (Ids{3, 4, 5}));
}

TEST(KafkaNodeIds, ScalingKeepsIdsFillsGapsAndRemovesTheHighest) {
  // brokers scale up while controllers keep 0-2: the gap (3) is filled first, then 6.
  auto up = assign_node_ids({{"controllers", 3, {0, 1, 2}, false, true}, {"brokers", 4, {4, 5}, true, false}});
  EXPECT_EQ(up["controllers"], (Ids{0, 1, 2}));
  EXPECT_EQ(up["brokers"], (Ids{3, 4, 5, 6}));
  auto down = assign_node_ids({{"controllers", 3, {0, 1, 2}, false, true}, {"brokers", 2, {3, 4, 5, 6}, true, false}});
  EXPECT_EQ(down["brokers"], (Ids{3, 4}));
  EXPECT_EQ(assign_node_ids({{"p", 0, {0, 1}, true, true}})["p"], Ids{});
}

TEST(KafkaServerConfig, KraftRolesQuorumAndListeners) {
  const auto spec = apis::kafka::v1::Kafka::from_json(json::from_yaml(R"(
spec:
  kafka:
    listeners: [{name: plain, port: 9092, type: internal, tls: false}]
    config: {num.partitions: 3}
)")).spec.kafka;
  std::vector<Node> all{{0, "ctl", false, true}, {1, "ctl", false, true}, {2, "ctl", false, true}, {3, "brk", true, false}};
  EXPECT_EQ(all[3].pod_name("events"), "events-brk-3");
  EXPECT_EQ(node_host("events", "data", all[3]), "events-brk-3.events-kafka-brokers.data.svc");
  std::string broker = server_config(spec, "events", "data", all[3], all);
  for (const char* line : {"node.id=3\n", "process.roles=broker\n",
                           "controller.quorum.voters=0@events-ctl-0.events-kafka-brokers.data.svc:9090,1@events-ctl-1.events-kafka-brokers.data.svc:9090,"
                           "2@events-ctl-2.events-kafka-brokers.data.svc:9090\n",
                           "listeners=REPLICATION-9091://0.0.0.0:9091,PLAIN-9092://0.0.0.0:9092\n",
                           "advertised.listeners=REPLICATION-9091://events-brk-3.events-kafka-brokers.data.svc:9091,"
                           "PLAIN-9092://events-brk-3.events-kafka-brokers.data.svc:9092\n",
                           "listener.security.protocol.map=CONTROLPLANE-9090:PLAINTEXT,REPLICATION-9091:PLAINTEXT,PLAIN-9092:PLAINTEXT\n",
                           "inter.broker.listener.name=REPLICATION-9091\n", "log.dirs=/var/lib/kafka/data/kafka-log3\n", "num.partitions=3\n"})
    EXPECT_NE(broker.find(line), std::string::npos) << line << " not in\n" << broker;
  std::string controller = server_config(spec, "events", "data", all[0], all);
  EXPECT_NE(controller.find("process.roles=controller\n"), std::string::npos);
  EXPECT_NE(controller.find("listeners=CONTROLPLANE-9090://0.0.0.0:9090\n"), std::string::npos) << controller;
  EXPECT_EQ(controller.find("advertised.listeners"), std::string::npos);
  EXPECT_EQ(controller.find("inter.broker.listener.name"), std::string::npos);
}

TEST(KafkaObjects, TheNodeConfigMapCarriesWhatItsStorageIsFormattedWith) {
  const auto kafka = kafka_object();
  const auto cm = node_configmap(kafka, {4, "brk", true, false}, {"node.id=4\n", "q1fXmGqkT3W1yTtS7Zx0aA", "4.1-IV1"});
  EXPECT_EQ(cm.at("metadata").at("name").as_string(), "events-brk-4");
  const auto& data = cm.at("data");
  EXPECT_EQ(data.at("server.config").as_string(), "node.id=4\n");
  EXPECT_EQ(data.at("cluster.id").as_string(), "q1fXmGqkT3W1yTtS7Zx0aA");
  EXPECT_EQ(data.at("metadata.version").as_string(), "4.1-IV1");

  const auto pdb = disruption_budget(kafka, 6);
  EXPECT_EQ(pdb.at("metadata").at("name").as_string(), "events-kafka");
  EXPECT_EQ(pdb.at("spec").at("minAvailable").as_int64(), 5);
  EXPECT_EQ(pdb.at("spec").at("selector").at("matchLabels").at("kafka.capstan.dev/cluster").as_string(), "events");
  EXPECT_EQ(disruption_budget(kafka, 0).at("spec").at("minAvailable").as_int64(), 0);
}

TEST(KafkaTls, ATlsListenerServesTheBrokersCertificateFromThePemKeystore) {
  const auto kafka = kafka_object(
      "    listeners: [{name: plain, port: 9092, type: internal, tls: false}, {name: tls, port: 9093, type: internal, tls: true}]\n");
  const auto spec = apis::kafka::v1::Kafka::from_json(kafka).spec.kafka;
  ASSERT_TRUE(serves_tls(spec));
  std::vector<Node> all{{0, "dual", true, true}, {1, "ctl", false, true}};
  const std::string broker = server_config(spec, "events", "data", all[0], all);
  EXPECT_NE(broker.find("listener.security.protocol.map=CONTROLPLANE-9090:PLAINTEXT,REPLICATION-9091:PLAINTEXT,PLAIN-9092:PLAINTEXT,"
                        "TLS-9093:SSL\n"),
            std::string::npos)
      << broker;
  EXPECT_NE(broker.find("listener.name.tls-9093.ssl.keystore.location=/opt/kafka/broker-certs/tls-combined.pem\n"
                        "listener.name.tls-9093.ssl.keystore.type=PEM\n"),
            std::string::npos)
      << broker;
  EXPECT_EQ(broker.find("listener.name.plain-9092"), std::string::npos);
  EXPECT_EQ(server_config(spec, "events", "data", all[1], all).find("keystore"), std::string::npos) << "a controller serves no user listener";

  // With the internal listeners in mutual TLS every node, controllers too, presents its own
  // certificate and accepts only peers of the cluster CA.
  const std::string controller = server_config(spec, "events", "data", all[1], all, /*internal_tls=*/true);
  EXPECT_NE(controller.find("listener.security.protocol.map=CONTROLPLANE-9090:SSL,REPLICATION-9091:SSL,"), std::string::npos) << controller;
  for (const char* line : {"listener.name.controlplane-9090.ssl.client.auth=required\n",
                           "listener.name.controlplane-9090.ssl.endpoint.identification.algorithm=HTTPS\n",
                           "listener.name.controlplane-9090.ssl.truststore.location=/opt/kafka/cluster-ca-certs/ca.crt\n",
                           "listener.name.replication-9091.ssl.keystore.location=/opt/kafka/broker-certs/tls-combined.pem\n"})
    EXPECT_NE(controller.find(line), std::string::npos) << line;
  EXPECT_TRUE(needs_certificate(spec, all[1], true));
  EXPECT_FALSE(needs_certificate(spec, all[1], false));
  const auto op = operator_certificate(kafka);
  EXPECT_EQ(op.at("spec").at("secretName").as_string(), "events-cluster-operator-certs");
  EXPECT_EQ(op.at("spec").at("usages").at(0).as_string(), "client auth");

  // The broker's certificate: from the cluster CA, the names clients use, Kafka's key encoding.
  const auto crt = node_certificate(kafka, all[0]);
  EXPECT_EQ(crt.at("metadata").at("name").as_string(), "events-dual-0");
  const auto& cs = crt.at("spec");
  EXPECT_EQ(cs.at("secretName").as_string(), "events-dual-0");
  EXPECT_EQ(cs.at("issuerRef").at("name").as_string(), "events-cluster-ca");
  EXPECT_EQ(cs.at("privateKey").at("encoding").as_string(), "PKCS8");
  EXPECT_EQ(cs.at("additionalOutputFormats").at(0).at("type").as_string(), "CombinedPEM");
  std::set<std::string> names;
  for (const auto& d : cs.at("dnsNames").as_array()) names.insert(std::string(d.as_string()));
  for (const char* want : {"events-dual-0.events-kafka-brokers.data.svc", "events-dual-0.events-kafka-brokers.data.svc.cluster.local",
                           "events-kafka-bootstrap", "events-kafka-bootstrap.data.svc", "events-kafka-brokers.data.svc.cluster.local"})
    EXPECT_TRUE(names.contains(want)) << want;
  EXPECT_EQ(cs.at("secretTemplate").at("labels").at("kafka.capstan.dev/kind").as_string(), "Kafka")
      << "the controller's Secret cache is narrowed to this label";

  // The CAs: self-signed roots, each with its Issuer; the public Secret has ca.crt only.
  std::vector<std::string> made;
  for (const auto& o : ca_objects(kafka))
    made.push_back(std::string(o.at("kind").as_string()) + "/" + std::string(o.at("metadata").at("name").as_string()));
  EXPECT_EQ(made, (std::vector<std::string>{"Issuer/events-ca-selfsigned", "Certificate/events-cluster-ca", "Issuer/events-cluster-ca",
                                            "Certificate/events-clients-ca", "Issuer/events-clients-ca"}));
  const auto pub = ca_cert_secret(kafka, cluster_ca_name("events"), "PEM");
  EXPECT_EQ(pub.at("metadata").at("name").as_string(), "events-cluster-ca-cert");
  EXPECT_EQ(pub.at("data").as_object().size(), 1u);
  EXPECT_EQ(meta::base64_decode(pub.at("data").at("ca.crt").as_string()).value_or(""), "PEM");

  // The broker's pod mounts both; a change of its certificate (the inputs) changes its revision.
  apis::kafka::v1::KafkaNodePoolSpec pool;
  const auto pod = node_pod(kafka, spec, pool, all[0], "config");
  const auto& mounts = pod.at("spec").at("containers").at(0).at("volumeMounts").as_array();
  ASSERT_EQ(mounts.size(), 4u);
  EXPECT_EQ(mounts[2].at("mountPath").as_string(), "/opt/kafka/broker-certs");
  EXPECT_EQ(mounts[3].at("mountPath").as_string(), "/opt/kafka/cluster-ca-certs");
  EXPECT_EQ(pod.at("spec").at("volumes").at(3).at("secret").at("secretName").as_string(), "events-cluster-ca-cert");
  EXPECT_NE(node_pod(kafka, spec, pool, all[0], "config" + std::string("renewed")).at("metadata").at("annotations"),
            pod.at("metadata").at("annotations"));
}

TEST(KafkaScramListener, SaslScramSha512OverTlsOrPlaintextWithoutTheClientsCa) {
  const auto kafka = kafka_object(
      "    listeners: [{name: scram, port: 9094, type: internal, tls: true, authentication: {type: scram-sha-512}},\n"
      "                {name: plain, port: 9095, type: internal, tls: false, authentication: {type: scram-sha-512}}]\n");
  const auto spec = apis::kafka::v1::Kafka::from_json(kafka).spec.kafka;
  std::vector<Node> all{{0, "dual", true, true}};
  const std::string broker = server_config(spec, "events", "data", all[0], all);
  EXPECT_NE(broker.find(",SCRAM-9094:SASL_SSL,PLAIN-9095:SASL_PLAINTEXT\n"), std::string::npos) << broker;
  for (const char* listener : {"scram-9094", "plain-9095"}) {
    const std::string prefix = std::string("listener.name.") + listener;
    EXPECT_NE(broker.find(prefix + ".sasl.enabled.mechanisms=SCRAM-SHA-512\n"), std::string::npos) << broker;
    EXPECT_NE(broker.find(prefix + ".scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;\n"),
              std::string::npos)
        << broker;
  }
  EXPECT_EQ(broker.find("client.auth"), std::string::npos) << "SCRAM clients present no certificate";
  EXPECT_FALSE(authenticates_clients(spec)) << "no clients CA truststore for SCRAM listeners";
}

TEST(KafkaMetrics, TheNodesRunTheExporterAndThePodMonitorSelectsTheirPort) {
  const auto kafka = kafka_object(R"(    listeners: [{name: plain, port: 9092, type: internal, tls: false}]
    metricsConfig:
      type: jmxPrometheusExporter
      valueFrom: {configMapKeyRef: {name: kafka-metrics, key: config.yml}}
      podMonitor: {labels: {release: main}}
)");
  const auto spec = apis::kafka::v1::Kafka::from_json(kafka).spec.kafka;
  ASSERT_TRUE(spec.metrics_config);
  EXPECT_TRUE(spec.metrics_config->pod_monitor_enabled());
  const Node node{0, "dual", true, true};
  const auto cm = node_configmap(kafka, node, {"node.id=0\n", "id", "4.1-IV1", "rules: []\n"});
  EXPECT_EQ(cm.at("data").at("metrics-config.json").as_string(), "rules: []\n");
  EXPECT_FALSE(node_configmap(kafka, node, {"node.id=0\n", "id", "4.1-IV1", ""}).at("data").as_object().contains("metrics-config.json"));

  apis::kafka::v1::KafkaNodePoolSpec pool;
  const auto pod = node_pod(kafka, spec, pool, node, "config");
  const auto& container = pod.at("spec").at("containers").at(0);
  EXPECT_EQ(container.at("env").at(0).at("value").as_string(), "true") << "KAFKA_METRICS_ENABLED";
  EXPECT_EQ(container.at("ports").as_array().back().at("name").as_string(), "tcp-prometheus");
  EXPECT_EQ(container.at("ports").as_array().back().at("containerPort").as_int64(), 9404);

  const auto pm = pod_monitor(kafka, *spec.metrics_config->pod_monitor);
  EXPECT_EQ(pm.at("metadata").at("name").as_string(), "events-kafka");
  EXPECT_EQ(pm.at("metadata").at("labels").at("release").as_string(), "main");
  EXPECT_EQ(pm.at("metadata").at("labels").at("kafka.capstan.dev/kind").as_string(), "Kafka") << "the controller's narrowed cache sees it";
  EXPECT_EQ(pm.at("spec").at("selector").at("matchLabels").at("kafka.capstan.dev/cluster").as_string(), "events");
  EXPECT_EQ(pm.at("spec").at("podMetricsEndpoints").at(0).at("port").as_string(), "tcp-prometheus");

  // Without metricsConfig nothing of it, and the pod is the one it always was.
  auto plain = spec;
  plain.metrics_config.reset();
  const auto before = node_pod(kafka, plain, pool, node, "config");
  EXPECT_EQ(before.at("spec").at("containers").at(0).at("env").at(0).at("value").as_string(), "false");
  EXPECT_EQ(before.at("spec").at("containers").at(0).at("ports").as_array().size(), 3u);
}

TEST(KafkaClusterId, TwentyTwoBase64UrlCharactersOfSixteenBytesNeverStartingWithADash) {
  // One random ID in 64 would start with '-' (kafka-storage format would then fail on it).
  std::set<std::string> seen;
  for (int i = 0; i < 5000; ++i) {
    const std::string id = new_cluster_id();
    ASSERT_EQ(id.size(), 22u) << id;
    ASSERT_NE(id.front(), '-') << id;
    auto bytes = meta::base64url_decode(id);
    ASSERT_TRUE(bytes && bytes->size() == 16) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 5000u);
}

}  // namespace
}  // namespace capstan::kafka
