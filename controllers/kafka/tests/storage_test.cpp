#include "controllers/kafka/nodes.h"
#include "controllers/kafka/objects.h"
#include "controllers/kafka/storage.h"

#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::kafka {
namespace {

namespace v1 = apis::kafka::v1;

v1::Storage storage(const std::string& yaml) { return v1::Storage::from_json(json::from_yaml(yaml), "spec.storage"); }

json::Value kafka_object() {
  return json::from_yaml(R"(apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata: {name: events, namespace: data, uid: 6c1c8a7e-0000-4000-8000-000000000001}
spec: {kafka: {listeners: [{name: plain, port: 9092, type: internal, tls: false}]}}
)");
}

std::vector<std::string> names(const json::Value& list, std::string_view key) {
  std::vector<std::string> out;
  for (const auto& v : list.as_array()) out.emplace_back(json::get_string(v, {key}));
  return out;
}

TEST(KafkaStorage, ASingleVolumeIsDataWithTheMetadataLogBesideTheLogs) {
  const auto volumes = data_volumes(storage("{type: persistent-claim, size: 10Gi, class: fast}"));
  ASSERT_EQ(volumes.size(), 1u);
  EXPECT_EQ(volumes[0].name(), "data");
  EXPECT_EQ(volumes[0].mount_path(), "/var/lib/kafka/data");
  EXPECT_EQ(volumes[0].claim_name("events-pool-3"), "data-events-pool-3");
  EXPECT_EQ(volumes[0].field, "spec.storage");
  EXPECT_EQ(log_dirs_config(volumes, 3), "log.dirs=/var/lib/kafka/data/kafka-log3\nmetadata.log.dir=/var/lib/kafka/data/kafka-log3\n");
}

TEST(KafkaStorage, JbodVolumesAreMountedByIdWithTheMetadataLogOnTheMarkedOrLowestVolume) {
  auto volumes = data_volumes(storage(
      "{type: jbod, volumes: [{id: 2, type: persistent-claim, size: 5Gi}, {id: 0, type: ephemeral}, "
      "{id: 1, type: persistent-claim, size: 1Gi, kraftMetadata: shared}]}"));
  ASSERT_EQ(volumes.size(), 3u);
  EXPECT_EQ(volumes[0].name(), "data-0");
  EXPECT_EQ(volumes[2].claim_name("events-pool-3"), "data-2-events-pool-3");
  EXPECT_EQ(volumes[2].field, "spec.storage.volumes[0]");
  EXPECT_EQ(log_dirs_config(volumes, 3),
            "log.dirs=/var/lib/kafka/data-0/kafka-log3,/var/lib/kafka/data-1/kafka-log3,/var/lib/kafka/data-2/kafka-log3\n"
            "metadata.log.dir=/var/lib/kafka/data-1/kafka-log3\n");
  volumes = data_volumes(storage("{type: jbod, volumes: [{id: 7, type: ephemeral}, {id: 4, type: ephemeral}]}"));
  EXPECT_EQ(log_dirs_config(volumes, 0), "log.dirs=/var/lib/kafka/data-4/kafka-log0,/var/lib/kafka/data-7/kafka-log0\n"
                                         "metadata.log.dir=/var/lib/kafka/data-4/kafka-log0\n");
}

TEST(KafkaStorage, ANodeOfJbodStorageMountsEachVolumeAndItsClaims) {
  const auto kafka = kafka_object();
  const auto spec = v1::Kafka::from_json(kafka).spec.kafka;
  v1::KafkaNodePoolSpec pool;
  pool.roles = {"broker", "controller"};
  pool.storage = storage("{type: jbod, volumes: [{id: 0, type: persistent-claim, size: 10Gi, deleteClaim: true}, {id: 1, type: ephemeral, sizeLimit: 2Gi}]}");
  const Node node{3, "pool", true, true, data_volumes(pool.storage)};
  const auto pod = node_pod(kafka, spec, pool, node, "");
  const auto& volumes = pod.at("spec").at("volumes");
  EXPECT_EQ(names(volumes, "name"), (std::vector<std::string>{"data-0", "data-1", "kafka-metrics-and-logging"}));
  EXPECT_EQ(json::get_string(volumes.as_array()[0], {"persistentVolumeClaim", "claimName"}), "data-0-events-pool-3");
  EXPECT_EQ(json::get_string(volumes.as_array()[1], {"emptyDir", "sizeLimit"}), "2Gi");
  const auto& mounts = pod.at("spec").at("containers").as_array()[0].at("volumeMounts");
  EXPECT_EQ(names(mounts, "mountPath"), (std::vector<std::string>{"/var/lib/kafka/data-0", "/var/lib/kafka/data-1", "/opt/kafka/custom-config/"}));

  const auto claim = node_claim(kafka, node, node.volumes[0]);
  EXPECT_EQ(json::get_string(claim, {"metadata", "name"}), "data-0-events-pool-3");
  EXPECT_EQ(json::get_string(claim, {"spec", "resources", "requests", "storage"}), "10Gi");
  EXPECT_NE(json::find(claim, {"metadata", "ownerReferences"}), nullptr) << "deleteClaim: the claim goes with the cluster";

  const std::string config = server_config(spec, "events", "data", node, {node});
  EXPECT_NE(config.find("log.dirs=/var/lib/kafka/data-0/kafka-log3,/var/lib/kafka/data-1/kafka-log3\n"), std::string::npos) << config;
}

}  // namespace
}  // namespace capstan::kafka
