// Rolling real Kafka nodes: the cluster CA renewed by the certificates controller rolls the three
// nodes of a TLS + SCRAM cluster one at a time while a client keeps producing, with the roll of
// each broker held until the partitions it keeps in sync are fully replicated again. The pods
// follow their node processes (KafkaPodAgent: a pod is Ready when its node answers, its node
// stops when it is deleted and starts again on what its successor says), so the controller sees
// what a kubelet with Strimzi's readiness probe would report. Then a node that does not come
// back makes the cluster NotReady, and Ready again once it is back.
#include "controllers/kafka/cluster_admin.h"
#include "testing/kafka_nodes_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <future>
#include <iostream>
#include <regex>
#include <thread>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const std::string kPods[] = {"events-dual-0", "events-dual-1", "events-dual-2"};

class KafkaRollE2E : public KafkaNodesFixture {
 protected:
  KafkaRollE2E() : KafkaNodesFixture(setup()) {
    address_map_ = replication_address_map();
  }
  // The pods are Ready when the agent says so: the simulator's own delay is longer than the test.
  static Setup setup() {
    Setup s;
    s.name = "kafka-roll";
    s.simulate_workloads = true;
    s.dump = "kafka,pods,certificates";
    s.pod_ready_delay = std::chrono::hours(1);
    return s;
  }
  std::vector<std::string> manager_flags() override {
    return {"--controllers=kafka,certificates", "--kafka-address-map=" + address_map_, "--kafka-full-reconciliation-interval=3s",
            "--kafka-operation-timeout=20s"};
  }

  // Pod name -> its kafka.capstan.dev/revision.
  std::map<std::string, std::string> revisions() {
    std::map<std::string, std::string> out;
    for (const auto& pod : kPods) out[pod] = jsonpath("pod", pod, R"(.metadata.annotations.kafka\.capstan\.dev/revision)");
    return out;
  }

  std::string address_map_;
};

TEST_P(KafkaRollE2E, ACaRenewalRollsTheNodesOneAtATimeWithoutFailingAProducerAndANodeThatDoesNotComeBackIsReported) {
  const std::string cluster = kafka_cluster_with("      - {name: scram, port: 9093, type: internal, tls: true, authentication: {type: scram-sha-512}}\n");
  kubectl_->ok({"apply", "-f", "-"}, cluster + kLedgerTopic + R"(---
apiVersion: kafka.capstan.dev/v1
kind: KafkaUser
metadata: {name: writer, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {authentication: {type: scram-sha-512}}
)");
  // The pods start (their certificates issued) but nothing makes them Ready before their nodes answer.
  ASSERT_TRUE(eventually([&] {
    for (const auto& pod : kPods)
      if (jsonpath("pod", pod, ".status.phase") != "Running") return false;
    return true;
  }, 90s)) << "the nodes' pods did not start";
  EXPECT_NE(condition("kafka", "events", "data", "Ready"), "True") << "Ready before any node answered";
  std::vector<KafkaNodeSpec> nodes;
  for (const auto& pod : kPods) nodes.push_back(node(pod));
  KafkaBrokers brokers(*dir_, nodes, std::move(network_));
  std::cout << "[ kafka ] three TLS + SCRAM nodes listening " << brokers.start_seconds() << " s after their start\n";

  // The test's own look at the partitions, on the plain listener: those not fully in sync.
  kafka::ClusterAdmin look(brokers.bootstrap_servers(9092), 10s);
  auto under_replicated = [&]() -> std::string {
    try {
      std::string out;
      for (const auto& p : look.partitions())
        if (p.in_sync.size() < p.replicas.size()) out += (out.empty() ? "" : ", ") + p.topic + "-" + std::to_string(p.partition);
      return out.empty() ? "" : "under-replicated: " + out;
    } catch (const kafka::AdminError& e) {
      return std::string("not asked: ") + e.what();
    }
  };
  KafkaPodAgent agent(*kubectl_, brokers, "data", "events", under_replicated);
  ASSERT_TRUE(eventually([&] { return condition("kafka", "events", "data", "Ready") == "True"; }, 90s))
      << jsonpath("kafka", "events", ".status") << agent.journal() << brokers.logs();
  for (const auto& [kind, name] : {std::pair{"kafkatopic", "ledger"}, std::pair{"kafkauser", "writer"}})
    ASSERT_TRUE(eventually([&] { return condition(kind, name, "data", "Ready") == "True"; }, 90s))
        << kind << " " << name << ": " << jsonpath(kind, name, ".status") << brokers.logs();

  const std::string ca_file = dir_->write("cluster-ca.crt", secret_data("events-cluster-ca-cert")["ca.crt"]);
  const std::string password = secret_data("writer")["password"];
  ASSERT_FALSE(password.empty());
  const std::map<std::string, std::string> writer{
      {"bootstrap.servers", brokers.bootstrap_servers(9093, /*by_name=*/true)},
      {"security.protocol", "SASL_SSL"},
      {"sasl.mechanism", "SCRAM-SHA-512"},
      {"sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"writer\" password=\"" + password + "\";"},
      {"ssl.truststore.type", "PEM"},
      {"ssl.truststore.location", ca_file},
      // Kafka's Java client knows the nodes by the hosts file's first name for 127.0.0.1, not by
      // the names their certificates carry: its name check is off (KafkaTlsE2E checks the names).
      {"ssl.endpoint.identification.algorithm", ""}};

  // A producer of acks=all runs through the whole roll (min.insync.replicas 2 of 3 replicas).
  const std::string stop_file = dir_->file("stop-producing");
  auto producer = std::async(std::launch::async, [&] { return brokers.java_client(writer, {"produce-until", "ledger", stop_file}, 600s); });
  std::this_thread::sleep_for(5s);

  // The cluster CA renewed (its key kept, as a renewal does): every node rolls onto the new CA.
  const std::string ca_serial = jsonpath("certificate", "events-cluster-ca", ".status.revision");
  const auto before = revisions();
  const auto renewed_at = std::chrono::steady_clock::now();
  const RunResult renew = run({capstan_bin(), "certs", "renew", "events-cluster-ca", "-n", "data", "--kubeconfig", server_->kubeconfig()});
  ASSERT_EQ(renew.code, 0) << renew.out << renew.err;
  const bool rolled = eventually([&] {
    const auto now = revisions();
    for (const auto& pod : kPods)
      if (now.at(pod).empty() || now.at(pod) == before.at(pod)) return false;
    for (const auto& pod : kPods)
      if (jsonpath("pod", pod, R"(.status.conditions[?(@.type=="Ready")].status)") != "True") return false;
    return condition("kafka", "events", "data", "Ready") == "True";
  }, 300s, 500ms);
  const double roll_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - renewed_at).count();
  std::filesystem::create_directories(stop_file);  // the producer stops
  const RunResult produced = producer.get();
  ASSERT_TRUE(rolled) << "the nodes did not all roll onto the renewed CA\n" << agent.journal() << brokers.logs();
  EXPECT_NE(jsonpath("certificate", "events-cluster-ca", ".status.revision"), ca_serial);
  std::cout << "[ kafka ] the CA renewal rolled three nodes in " << roll_seconds << " s; producer: " << produced.out;
  EXPECT_EQ(produced.code, 0) << "a produce request failed beyond the producer's retries:\n" << produced.out << produced.err << agent.journal();

  // One node at a time, each stopped only with every partition in sync, after the one before
  // it answered again.
  std::vector<std::string> stopped;
  std::string last_ready_after_stop;
  for (const auto& step : agent.steps()) {
    if (step.what == "stopped") {
      EXPECT_EQ(step.note, "") << step.pod << " was stopped while partitions were not in sync\n" << agent.journal();
      if (!stopped.empty()) EXPECT_EQ(last_ready_after_stop, stopped.back()) << "a node stopped before the one before it was back\n" << agent.journal();
      stopped.push_back(step.pod);
      last_ready_after_stop.clear();
    } else if (step.what == "ready") {
      last_ready_after_stop = step.pod;
    }
  }
  std::vector<std::string> sorted = stopped;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, std::vector<std::string>(std::begin(kPods), std::end(kPods))) << "each node rolls exactly once\n" << agent.journal();

  // Nothing acknowledged was lost: every message is read back.
  std::smatch acked;
  ASSERT_TRUE(std::regex_search(produced.out, acked, std::regex("acked=([0-9]+)"))) << produced.out;
  ASSERT_GT(std::stoi(acked[1]), 0);
  const RunResult consumed = brokers.java_client(writer, {"consume", "ledger", acked[1]});
  EXPECT_EQ(consumed.code, 0) << consumed.err;
  EXPECT_EQ(static_cast<long>(std::count(consumed.out.begin(), consumed.out.end(), '\n')), std::stol(acked[1]));

  // A node that does not come back after its pod went: the cluster is NotReady once the
  // operation timeout (20 s here) passed, naming the pod, and Ready again when it is back.
  agent.hold(kPods[1], true);
  kubectl_->ok({"delete", "pod", kPods[1], "-n", "data", "--wait=false"});
  EXPECT_TRUE(eventually([&] { return condition("kafka", "events", "data", "NotReady") == "True"; }, 60s))
      << jsonpath("kafka", "events", ".status");
  const std::string message = jsonpath("kafka", "events", R"(.status.conditions[?(@.type=="NotReady")].message)");
  EXPECT_EQ(jsonpath("kafka", "events", R"(.status.conditions[?(@.type=="NotReady")].reason)"), "TimeoutException");
  EXPECT_NE(message.find("Pods events-dual-1 in namespace data to be ready"), std::string::npos) << message;
  agent.hold(kPods[1], false);
  EXPECT_TRUE(eventually([&] { return condition("kafka", "events", "data", "Ready") == "True"; }, 90s))
      << jsonpath("kafka", "events", ".status") << agent.journal();
}

CAPSTAN_E2E_BACKENDS(KafkaRollE2E);

}  // namespace
}  // namespace capstan::e2e
