// A Kafka upgrade and the KRaft metadata version on real brokers, as Strimzi manages them. A
// three-node cluster of Kafka 4.0.0 (the older release scripts/kafka.sh fetches) is formatted with
// an older metadata version (3.9-IV0, the last of Kafka 3), and status.kafkaMetadataVersion says
// what the brokers finalized, read from them. A cluster upgraded behind the operator's back above
// the spec keeps its version (KRaft metadata cannot be downgraded) with a Warning naming the field
// and both versions, and stays Ready. Then spec.kafka.version goes to 4.1.0 (the pinned release)
// with no metadata version named: the nodes roll one at a time onto 4.1.0, and only once all three
// run it is the metadata version raised to 4.1.0's own (4.1-IV1), seen through Kafka's own
// Admin.describeFeatures (KafkaProbe), not the operator's reading of it. The active controller
// (the quorum's leader, as Admin.describeMetadataQuorum reports it) rolls last. Lowering it again, or
// going back to 4.0.0, is refused by the webhook.
//
// The pods follow their node processes (KafkaPodAgent, as in KafkaRollE2E): a rolled pod's node
// starts again on the jars of the release its image names. The manager runs outside the nodes'
// "pod network": it is told where the replication port of each node leads (--kafka-address-map).
#include "controllers/kafka/cluster_admin.h"
#include "testing/kafka_nodes_fixture.h"
#include "webhooks/kafka/webhooks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class KafkaMetadataVersionE2E : public KafkaNodesFixture {
 protected:
  KafkaMetadataVersionE2E() : KafkaNodesFixture(rolling_setup("kafka-metadata", "kafka,kafkanodepools,pods")) {
    address_map_ = replication_address_map();
  }
  std::vector<std::string> manager_flags() override {
    return {"--controllers=kafka", "--kafka-address-map=" + address_map_, "--kafka-full-reconciliation-interval=3s",
            "--kafka-operation-timeout=20s"};
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
  // The controller quorum's leader as Kafka's own Admin.describeMetadataQuorum reports it ("" when it cannot be asked).
  static std::string quorum_leader(KafkaBrokers& brokers) {
    const RunResult r = brokers.java_client({{"bootstrap.servers", brokers.bootstrap_servers(9092)}}, {"quorum"});
    const std::string prefix = "leader=";
    return r.code == 0 && r.out.starts_with(prefix) ? r.out.substr(prefix.size(), r.out.find('\n') - prefix.size()) : "";
  }
  std::string status_version() { return jsonpath("kafka", "events", ".status.kafkaMetadataVersion"); }
  std::string warning(const std::string& reason, const std::string& field = "message") {
    return jsonpath("kafka", "events", R"(.status.conditions[?(@.reason==")" + reason + R"(")].)" + field);
  }
  RunResult patch(const std::string& kafka_fields) {
    return (*kubectl_)({"patch", "kafka", "events", "-n", "data", "--type=merge", "-p", R"({"spec":{"kafka":{)" + kafka_fields + "}}}"});
  }

  std::string address_map_;
};

TEST_P(KafkaMetadataVersionE2E, AKafkaUpgradeRollsEveryNodeBeforeTheMetadataVersionRisesWhichNeverGoesDown) {
  std::string cluster = kafka_cluster_with("");
  const std::string kafka_spec = "spec:\n  kafka:\n";
  cluster.replace(cluster.find(kafka_spec), kafka_spec.size(), kafka_spec + "    version: 4.0.0\n    metadataVersion: 3.9-IV0\n");
  kubectl_->ok({"apply", "-f", "-"}, cluster + kLedgerTopic);
  const std::vector<KafkaNodeSpec> nodes = running_nodes();
  ASSERT_EQ(nodes.size(), 3u) << "the nodes' pods did not start";
  for (const auto& n : nodes) {
    EXPECT_EQ(n.metadata_version, "3.9-IV0") << n.pod << ": storage is formatted with the spec's version";
    EXPECT_EQ(n.kafka_version, "4.0.0") << n.pod << ": the pod's image is Strimzi's of the spec's release";
  }
  EXPECT_EQ(status_version(), "") << "no broker runs yet: the status does not make a version up";

  KafkaBrokers brokers(*dir_, nodes, std::move(network_));
  kafka::ClusterAdmin look(brokers.bootstrap_servers(9092), 10s);
  const auto agent_start = Clock::now();
  KafkaPodAgent agent(*kubectl_, brokers, "data", "events", under_replicated(look));
  ASSERT_TRUE(eventually([&] { return condition("kafka", "events", "data", "Ready") == "True"; }, 90s))
      << jsonpath("kafka", "events", ".status") << agent.journal() << brokers.logs();
  for (const auto& pod : kKafkaNodesPods) EXPECT_EQ(brokers.kafka_version(pod), "4.0.0") << pod << " as Kafka logs it";
  ASSERT_EQ(finalized(brokers), "3.9-IV0") << brokers.logs();
  EXPECT_TRUE(eventually([&] { return status_version() == "3.9-IV0"; }, 60s)) << "the status never read the cluster: " << status_version();
  EXPECT_EQ(jsonpath("kafka", "events", ".status.kafkaVersion"), "4.0.0");
  ASSERT_TRUE(eventually([&] { return condition("kafkatopic", "ledger", "data", "Ready") == "True"; }, 90s))
      << jsonpath("kafkatopic", "ledger", ".status") << brokers.logs();

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

  // A metadata version the release does not run is refused at the API, naming the field.
  const RunResult beyond = patch(R"("metadataVersion":"4.1-IV1")");
  EXPECT_NE(beyond.code, 0);
  EXPECT_NE(beyond.err.find(R"(spec.kafka.metadataVersion: Invalid value: "4.1-IV1": is higher than the Kafka version 4.0.0)"), std::string::npos)
      << beyond.err;

  // The roll order says something only when the quorum's leader is not last in node order anyway:
  // a leader on the last node hands its leadership on first (its pod deleted and back).
  if (quorum_leader(brokers) == "2") {
    kubectl_->ok({"delete", "pod", "events-dual-2", "-n", "data", "--wait=false"});
    ASSERT_TRUE(eventually([&] {
      const std::string leader = quorum_leader(brokers);
      return !leader.empty() && leader != "2" && condition("kafka", "events", "data", "Ready") == "True" &&
             jsonpath("pod", "events-dual-2", ".status.conditions[?(@.type==\"Ready\")].status") == "True";
    }, 120s)) << agent.journal() << brokers.logs();
  }

  // The upgrade to 4.1.0, the metadata version left to the release (4.1-IV1). Kafka's own view of
  // the finalized version, and what the status says, are sampled while the nodes roll.
  struct Sample {
    double at;                 // seconds since the agent started
    std::string finalized;     // as Kafka reports it
    std::string kafka_version; // status.kafkaVersion
    std::string update_failed; // the MetadataUpdateFailed Warning's message
    std::string leader;        // the controller quorum's, as Kafka reports it
  };
  std::mutex mu;
  std::vector<Sample> samples;
  std::atomic<bool> sampling{true};
  std::thread sampler([&] {
    while (sampling) {
      Sample sample{0, finalized(brokers), jsonpath("kafka", "events", ".status.kafkaVersion"), warning("MetadataUpdateFailed"),
                    quorum_leader(brokers)};
      sample.at = std::chrono::duration<double>(Clock::now() - agent_start).count();
      std::lock_guard<std::mutex> lock(mu);
      samples.push_back(sample);
      if (sample.finalized == "4.1-IV1") return;
    }
  });
  const double upgrade_at = std::chrono::duration<double>(Clock::now() - agent_start).count();
  const RunResult upgrade = patch(R"("version":"4.1.0","metadataVersion":null)");
  const bool upgraded = eventually([&] {
    std::lock_guard<std::mutex> lock(mu);
    return !samples.empty() && samples.back().finalized == "4.1-IV1";
  }, 240s);
  sampling = false;
  sampler.join();
  ASSERT_EQ(upgrade.code, 0) << upgrade.err;
  ASSERT_TRUE(upgraded) << "the metadata version never reached 4.1-IV1\n" << jsonpath("kafka", "events", ".status") << agent.journal()
                        << brokers.logs();
  const double upgrade_seconds = samples.back().at - upgrade_at;

  // Each node rolled exactly once, one at a time, onto Kafka 4.1.0, and the metadata version rose
  // only after the last of them was back: no sample saw 4.1-IV1 before.
  double last_ready = 0;
  std::map<std::string, int> stops;
  std::vector<KafkaPodAgent::Step> stopped;
  for (const auto& step : agent.steps()) {
    if (step.at < upgrade_at) continue;
    if (step.what == "stopped") {
      ++stops[step.pod];
      stopped.push_back(step);
    }
    if (step.what == "ready") last_ready = std::max(last_ready, step.at);
  }
  // The quorum's leader (the active controller) rolled last, as Strimzi rolls it: the last node
  // stopped led the quorum in the last sample before it stopped.
  ASSERT_EQ(stopped.size(), 3u) << agent.journal();
  std::string leader_before_last;
  for (const auto& sample : samples)
    if (sample.at < stopped.back().at && !sample.leader.empty()) leader_before_last = sample.leader;
  EXPECT_EQ("events-dual-" + leader_before_last, stopped.back().pod) << "the active controller did not roll last\n" << agent.journal();
  std::cout << "[ kafka ] rolled " << stopped[0].pod << ", " << stopped[1].pod << ", " << stopped[2].pod << "; the quorum's leader before the last: "
            << leader_before_last << "\n";
  for (const auto& pod : kKafkaNodesPods) {
    EXPECT_EQ(stops[pod], 1) << pod << "\n" << agent.journal();
    EXPECT_EQ(brokers.kafka_version(pod), "4.1.0") << pod << " as Kafka logs it";
  }
  for (const auto& sample : samples) {
    if (sample.finalized == "4.1-IV1") {
      EXPECT_GE(sample.at, last_ready) << "the metadata version rose before every node ran 4.1.0\n" << agent.journal();
    }
    if (sample.at < last_ready) {
      EXPECT_EQ(sample.kafka_version, "4.0.0") << "status.kafkaVersion mid-roll, at " << sample.at << " s";
    }
    EXPECT_EQ(sample.update_failed, "") << "an upgrade was tried while a node still ran 4.0.0, at " << sample.at << " s";
  }
  std::cout << "[ kafka ] 4.0.0 -> 4.1.0 on three nodes, rolled and the metadata version raised, in " << upgrade_seconds << " s\n";

  EXPECT_TRUE(eventually([&] { return status_version() == "4.1-IV1"; }, 60s)) << status_version();
  EXPECT_EQ(jsonpath("kafka", "events", ".status.kafkaVersion"), "4.1.0");
  EXPECT_TRUE(eventually([&] { return warning("KafkaMetadataVersion").empty(); }, 30s)) << warning("KafkaMetadataVersion");
  EXPECT_EQ(warning("MetadataUpdateFailed"), "");
  EXPECT_TRUE(eventually([&] { return condition("kafka", "events", "data", "Ready") == "True"; }, 60s));

  // Lowering the metadata version, or the release below it, is refused at the API, naming the field.
  const RunResult lower = patch(R"("metadataVersion":"4.0-IV3")");
  EXPECT_NE(lower.code, 0);
  EXPECT_NE(lower.err.find("spec.kafka.metadataVersion: Forbidden: the metadata version cannot be downgraded (from 4.1-IV1 to 4.0-IV3)"),
            std::string::npos)
      << lower.err;
  const RunResult back = patch(R"("version":"4.0.0")");
  EXPECT_NE(back.code, 0);
  EXPECT_NE(back.err.find("spec.kafka.version: Forbidden: Kafka 4.0.0 runs metadata versions up to 4.0-IV3, and the cluster's is 4.1-IV1"),
            std::string::npos)
      << back.err;
  EXPECT_EQ(jsonpath("kafka", "events", ".spec.kafka.version"), "4.1.0");
  EXPECT_EQ(finalized(brokers), "4.1-IV1");
}

CAPSTAN_E2E_BACKENDS(KafkaMetadataVersionE2E);

}  // namespace
}  // namespace capstan::e2e
