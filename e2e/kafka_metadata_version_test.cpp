// The KRaft metadata version on real brokers (scripts/kafka.sh's pinned release), as Strimzi
// manages it: a three-node cluster is formatted with an older metadata version (3.9-IV0, the
// last of Kafka 3), and status.kafkaMetadataVersion says what the brokers finalized, read from
// them. A cluster upgraded behind the operator's back above the spec keeps its version (KRaft
// metadata cannot be downgraded) with a Warning naming the field and both versions, and stays
// Ready. Raising the spec to the release's latest production version (4.1-IV1) upgrades the
// brokers' finalized metadata.version, seen through Kafka's own Admin.describeFeatures
// (KafkaProbe), not the operator's reading of it; lowering it again is refused by the webhook.
//
// The manager runs outside the nodes' "pod network": it is told where the bootstrap Service's
// replication port leads (--kafka-address-map), as KafkaTopicE2E's is.
#include "controllers/kafka/cluster_admin.h"
#include "testing/kafka_nodes_fixture.h"
#include "webhooks/kafka/webhooks.h"

#include <gtest/gtest.h>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

class KafkaMetadataVersionE2E : public KafkaNodesFixture {
 protected:
  KafkaMetadataVersionE2E() : KafkaNodesFixture({"kafka-metadata", /*simulate_workloads=*/true, "kafka,kafkanodepools,pods"}) {
    operator_bootstrap_ = network_.address("events-dual-0.events-kafka-brokers.data.svc", 9091);
  }
  std::vector<std::string> manager_flags() override {
    return {"--controllers=kafka", "--kafka-address-map=events-kafka-bootstrap.data.svc:9091=" + operator_bootstrap_,
            "--kafka-full-reconciliation-interval=3s"};
  }

  // The Kafka admission webhooks of the manager, registered with the backend.
  void SetUp() override {
    KafkaNodesFixture::SetUp();
    if (HasFatalFailure()) return;
    register_webhooks({&webhooks::kafka::configurations});
  }

  // The brokers' finalized metadata.version as Kafka's own Admin client and MetadataVersion
  // table name it, or the probe's error.
  static std::string finalized(KafkaBrokers& brokers) {
    const RunResult r = brokers.java_client({{"bootstrap.servers", brokers.bootstrap_servers(9092)}}, {"features"});
    if (r.code != 0) return "probe failed: " + r.err;
    const std::string prefix = "metadata.version=";
    return r.out.starts_with(prefix) ? r.out.substr(prefix.size(), r.out.find('\n') - prefix.size()) : "unexpected: " + r.out;
  }
  std::string status_version() { return jsonpath("kafka", "events", ".status.kafkaMetadataVersion"); }
  std::string warning(const std::string& reason, const std::string& field = "message") {
    return jsonpath("kafka", "events", R"(.status.conditions[?(@.reason==")" + reason + R"(")].)" + field);
  }
  void set_metadata_version(const std::string& version) {
    kubectl_->ok({"patch", "kafka", "events", "-n", "data", "--type=merge", "-p",
                  R"({"spec":{"kafka":{"metadataVersion":")" + version + R"("}}})"});
  }

  std::string operator_bootstrap_;
};

TEST_P(KafkaMetadataVersionE2E, TheClusterIsUpgradedToTheSpecsVersionNeverDowngradedAndTheStatusSaysWhatItRuns) {
  std::string cluster = kKafkaNodesCluster;
  const std::string kafka_spec = "spec:\n  kafka:\n";
  cluster.replace(cluster.find(kafka_spec), kafka_spec.size(), kafka_spec + "    metadataVersion: 3.9-IV0\n");
  std::vector<KafkaNodeSpec> nodes = make_cluster("", {"events-dual-0", "events-dual-1", "events-dual-2"}, cluster);
  ASSERT_EQ(nodes.size(), 3u) << "the Kafka did not become Ready";
  for (const auto& n : nodes) EXPECT_EQ(n.metadata_version, "3.9-IV0") << n.pod << ": storage is formatted with the spec's version";
  EXPECT_EQ(status_version(), "") << "no broker runs yet: the status does not make a version up";

  KafkaBrokers brokers(*dir_, nodes, std::move(network_));
  ASSERT_EQ(finalized(brokers), "3.9-IV0") << brokers.logs();
  EXPECT_TRUE(eventually([&] { return status_version() == "3.9-IV0"; }, 60s)) << "the status never read the cluster: " << status_version();

  // Upgraded behind the operator's back (as kafka-features.sh would), above the spec: the
  // cluster keeps its version, the status says so, and a Warning names the field and both versions.
  kafka::ClusterAdmin own_admin(brokers.bootstrap_servers(9092), 30s);  // the test's own hand on Kafka
  ASSERT_NO_THROW(own_admin.upgrade_metadata_version(25));              // 4.0-IV3
  ASSERT_TRUE(eventually([&] { return finalized(brokers) == "4.0-IV3"; }, 30s));
  EXPECT_TRUE(eventually([&] { return status_version() == "4.0-IV3"; }, 60s)) << status_version();
  EXPECT_TRUE(eventually([&] { return !warning("KafkaMetadataVersion").empty(); }, 30s));
  EXPECT_EQ(warning("KafkaMetadataVersion"),
            "spec.kafka.metadataVersion 3.9-IV0 is lower than the metadata version 4.0-IV3 the cluster runs: KRaft metadata cannot be "
            "downgraded, the cluster keeps 4.0-IV3");
  EXPECT_EQ(warning("KafkaMetadataVersion", "type"), "Warning");
  EXPECT_EQ(condition("kafka", "events", "data", "Ready"), "True") << "the cluster runs on";
  EXPECT_EQ(finalized(brokers), "4.0-IV3") << "the operator downgraded the cluster";

  // The spec raised to the release's latest production version: the brokers finalize it, the
  // status follows, the Warning goes.
  set_metadata_version("4.1-IV1");
  EXPECT_TRUE(eventually([&] { return finalized(brokers) == "4.1-IV1"; }, 90s)) << finalized(brokers) << "\n" << brokers.logs();
  EXPECT_TRUE(eventually([&] { return status_version() == "4.1-IV1"; }, 60s)) << status_version();
  EXPECT_TRUE(eventually([&] { return warning("KafkaMetadataVersion").empty(); }, 30s)) << warning("KafkaMetadataVersion");
  EXPECT_EQ(warning("MetadataUpdateFailed"), "");
  EXPECT_EQ(condition("kafka", "events", "data", "Ready"), "True");

  // Lowering it again is refused at the API, naming the field.
  auto lower = (*kubectl_)({"patch", "kafka", "events", "-n", "data", "--type=merge", "-p", R"({"spec":{"kafka":{"metadataVersion":"4.0-IV3"}}})"});
  EXPECT_NE(lower.code, 0);
  EXPECT_NE(lower.err.find("spec.kafka.metadataVersion: Forbidden: the metadata version cannot be downgraded (from 4.1-IV1 to 4.0-IV3)"),
            std::string::npos)
      << lower.err;
  EXPECT_EQ(jsonpath("kafka", "events", ".spec.kafka.metadataVersion"), "4.1-IV1");
  EXPECT_EQ(finalized(brokers), "4.1-IV1");
}

CAPSTAN_E2E_BACKENDS(KafkaMetadataVersionE2E);

}  // namespace
}  // namespace capstan::e2e
