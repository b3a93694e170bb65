// Rack awareness (rack.h): the broker's rack line and config provider, the pods' init container,
// volume, affinity and ServiceAccount, and the RBAC objects.
#include "controllers/kafka/nodes.h"
#include "controllers/kafka/objects.h"
#include "controllers/kafka/rack.h"

#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::kafka {
namespace {

namespace v1 = apis::kafka::v1;

json::Value kafka_object(const std::string& more = "") {
  return json::from_yaml(R"(apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata: {name: events, namespace: data, uid: 6c1c8a7e-0000-4000-8000-000000000001}
spec:
  kafka:
    listeners: [{name: plain, port: 9092, type: internal, tls: false}]
)" + more);
}

v1::KafkaClusterSpec spec_of(const json::Value& kafka) { return v1::Kafka::from_json(kafka).spec.kafka; }

const json::Object* named(const json::Value& list, std::string_view name) {
  for (const auto& v : list.as_array())
    if (json::get_string(v, {"name"}) == name) return &v.as_object();
  return nullptr;
}

TEST(KafkaRack, ABrokerReadsItsRackThroughTheStrimziDirProvider) {
  const auto spec = spec_of(kafka_object("    rack: {topologyKey: topology.kubernetes.io/zone}\n"
                                         "    config: {replica.selector.class: org.apache.kafka.common.replica.RackAwareReplicaSelector}\n"));
  ASSERT_TRUE(spec.rack);
  EXPECT_EQ(spec.rack->topology_key, "topology.kubernetes.io/zone");
  std::vector<Node> all{{0, "ctl", false, true}, {1, "brk", true, false}, {2, "dual", true, true}};
  for (const auto& broker : {all[1], all[2]}) {
    const std::string config = server_config(spec, "events", "data", broker, all);
    for (const char* line : {"broker.rack=${strimzidir:/opt/kafka/init:rack.id}\n", "config.providers=strimzidir\n",
                             "config.providers.strimzidir.class=org.apache.kafka.common.config.provider.DirectoryConfigProvider\n",
                             "config.providers.strimzidir.param.allowed.paths=/opt/kafka\n",
                             "replica.selector.class=org.apache.kafka.common.replica.RackAwareReplicaSelector\n"})
      EXPECT_NE(config.find(line), std::string::npos) << line << " not in\n" << config;
  }
  const std::string controller = server_config(spec, "events", "data", all[0], all);
  EXPECT_EQ(controller.find("broker.rack"), std::string::npos) << "a controller has no rack\n" << controller;
  EXPECT_EQ(controller.find("strimzidir"), std::string::npos) << controller;

  auto without = spec;
  without.rack.reset();
  EXPECT_EQ(server_config(without, "events", "data", all[1], all).find("broker.rack"), std::string::npos);
}

TEST(KafkaRack, TheUsersConfigProvidersAreKeptBeforeStrimziDir) {
  const auto spec = spec_of(kafka_object("    rack: {topologyKey: zone}\n"
                                         "    config: {config.providers: env, config.providers.env.class: "
                                         "org.apache.kafka.common.config.provider.EnvVarConfigProvider}\n"));
  std::vector<Node> all{{0, "dual", true, true}};
  const std::string config = server_config(spec, "events", "data", all[0], all);
  EXPECT_NE(config.find("config.providers=env,strimzidir\n"), std::string::npos) << config;
  EXPECT_EQ(config.find("config.providers=env\n"), std::string::npos) << "one config.providers line only\n" << config;
  EXPECT_NE(config.find("config.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider\n"), std::string::npos);
}

TEST(KafkaRack, BrokerPodsGetTheInitContainerAndEveryNodeTheAffinity) {
  const auto kafka = kafka_object("    rack: {topologyKey: topology.kubernetes.io/zone}\n");
  const auto spec = spec_of(kafka);
  v1::KafkaNodePoolSpec pool;
  const Node broker{3, "brk", true, false}, controller{0, "ctl", false, true};

  const auto pod = node_pod(kafka, spec, pool, broker, "config");
  const auto& ps = pod.at("spec");
  EXPECT_EQ(ps.at("serviceAccountName").as_string(), "events-kafka");
  ASSERT_EQ(ps.at("initContainers").as_array().size(), 1u);
  const auto& init = ps.at("initContainers").at(0);
  EXPECT_EQ(init.at("name").as_string(), "kafka-init");
  EXPECT_EQ(init.at("image").as_string(), "quay.io/strimzi/operator:" + std::string(v1::kStrimziVersion));
  EXPECT_EQ(init.at("command").at(0).as_string(), "/opt/strimzi/bin/kafka_init_run.sh");
  const auto* node_name = named(init.at("env"), "NODE_NAME");
  ASSERT_TRUE(node_name);
  EXPECT_EQ(json::get_string(*node_name, {"valueFrom", "fieldRef", "fieldPath"}), "spec.nodeName");
  const auto* key = named(init.at("env"), "RACK_TOPOLOGY_KEY");
  ASSERT_TRUE(key);
  EXPECT_EQ(json::get_string(*key, {"value"}), "topology.kubernetes.io/zone");
  ASSERT_TRUE(named(init.at("volumeMounts"), "rack-volume"));
  EXPECT_EQ(json::get_string(*named(init.at("volumeMounts"), "rack-volume"), {"mountPath"}), "/opt/kafka/init");
  const auto* mount = named(ps.at("containers").at(0).at("volumeMounts"), "rack-volume");
  ASSERT_TRUE(mount) << "the broker reads rack.id from the same volume";
  EXPECT_EQ(json::get_string(*mount, {"mountPath"}), "/opt/kafka/init");
  const auto* volume = named(ps.at("volumes"), "rack-volume");
  ASSERT_TRUE(volume);
  EXPECT_TRUE(volume->at("emptyDir").as_object().empty());

  const auto& affinity = ps.at("affinity");
  const auto& required = affinity.at("nodeAffinity").at("requiredDuringSchedulingIgnoredDuringExecution").at("nodeSelectorTerms");
  ASSERT_EQ(required.as_array().size(), 1u);
  EXPECT_EQ(required.at(0).at("matchExpressions").at(0),
            (json::Value(json::Object{{"key", "topology.kubernetes.io/zone"}, {"operator", "Exists"}})));
  const auto& preferred = affinity.at("podAntiAffinity").at("preferredDuringSchedulingIgnoredDuringExecution");
  ASSERT_EQ(preferred.as_array().size(), 1u);
  EXPECT_EQ(preferred.at(0).at("weight").as_int64(), 100);
  EXPECT_EQ(preferred.at(0).at("podAffinityTerm").at("topologyKey").as_string(), "topology.kubernetes.io/zone");
  EXPECT_EQ(preferred.at(0).at("podAffinityTerm").at("labelSelector").at("matchLabels"),
            (json::Value(json::Object{{"kafka.capstan.dev/cluster", "events"}, {"kafka.capstan.dev/name", "events-kafka"}})));

  // A controller-only node: spread and placed the same way, but no rack to read.
  const auto ctl = node_pod(kafka, spec, pool, controller, "config");
  EXPECT_EQ(ctl.at("spec").at("affinity"), affinity);
  EXPECT_EQ(ctl.at("spec").at("serviceAccountName").as_string(), "events-kafka");
  EXPECT_FALSE(ctl.at("spec").as_object().contains("initContainers"));
  EXPECT_FALSE(named(ctl.at("spec").at("volumes"), "rack-volume"));
}

TEST(KafkaRack, ChangingTheRackRollsTheNodes) {
  v1::KafkaNodePoolSpec pool;
  const Node broker{3, "brk", true, false};
  auto revision = [&](const std::string& more) {
    const auto kafka = kafka_object(more);
    return node_pod(kafka, spec_of(kafka), pool, broker, "config").at("metadata").at("annotations").at("kafka.capstan.dev/revision");
  };
  const auto none = revision("");
  const auto zone = revision("    rack: {topologyKey: topology.kubernetes.io/zone}\n");
  const auto host = revision("    rack: {topologyKey: kubernetes.io/hostname}\n");
  EXPECT_NE(none, zone);
  EXPECT_NE(zone, host);
  const auto kafka = kafka_object();
  const auto plain = node_pod(kafka, spec_of(kafka), pool, broker, "config");
  EXPECT_FALSE(plain.at("spec").as_object().contains("affinity")) << "without rack the pod is as it always was";
  EXPECT_FALSE(plain.at("spec").as_object().contains("serviceAccountName"));
}

TEST(KafkaRack, TheServiceAccountIsOwnedAndTheBindingNamesItsKafka) {
  const auto kafka = kafka_object("    rack: {topologyKey: zone}\n");
  const auto sa = kafka_service_account(kafka);
  EXPECT_EQ(sa.at("kind").as_string(), "ServiceAccount");
  EXPECT_EQ(sa.at("metadata").at("name").as_string(), "events-kafka");
  EXPECT_EQ(sa.at("metadata").at("namespace").as_string(), "data");
  EXPECT_EQ(sa.at("metadata").at("ownerReferences").at(0).at("uid").as_string(), "6c1c8a7e-0000-4000-8000-000000000001");

  const auto crb = rack_binding(kafka, "capstan-kafka-broker");
  EXPECT_EQ(crb.at("kind").as_string(), "ClusterRoleBinding");
  EXPECT_EQ(crb.at("metadata").at("name").as_string(), "capstan-data-events-kafka-init");
  EXPECT_FALSE(crb.at("metadata").as_object().contains("ownerReferences")) << "cluster-scoped: no namespaced owner";
  EXPECT_FALSE(crb.at("metadata").as_object().contains("namespace"));
  EXPECT_EQ(crb.at("metadata").at("labels").at("kafka.capstan.dev/kind").as_string(), "Kafka") << "the controller's narrowed cache sees it";
  EXPECT_EQ(crb.at("roleRef"), (json::Value(json::Object{{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"},
                                                          {"name", "capstan-kafka-broker"}})));
  EXPECT_EQ(crb.at("subjects").at(0), (json::Value(json::Object{{"kind", "ServiceAccount"}, {"name", "events-kafka"}, {"namespace", "data"}})));

  EXPECT_EQ(rack_binding_owner(crb), (std::optional<std::pair<std::string, std::string>>{{"data", "events"}}));
  auto renamed = crb;
  renamed.as_object()["metadata"].as_object()["name"] = "capstan-data-other-kafka-init";
  EXPECT_EQ(rack_binding_owner(renamed), std::nullopt) << "a binding whose labels do not give its name is not the controller's";
  auto unlabelled = crb;
  unlabelled.as_object()["metadata"].as_object()["labels"].as_object().erase("kafka.capstan.dev/namespace");
  EXPECT_EQ(rack_binding_owner(unlabelled), std::nullopt);
}

}  // namespace
}  // namespace capstan::kafka
