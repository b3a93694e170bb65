// The fixture of the tests that run real Kafka nodes (testing/kafka_broker.h) on what the Kafka
// controller made: a three-node KRaft cluster of one dual-role node pool in namespace "data",
// made by the manager on the test's backend, its nodes read back through kubectl.
#pragma once

#include "controllers/kafka/cluster_admin.h"
#include "testing/controller_fixture.h"
#include "testing/eventually.h"
#include "testing/kafka_broker.h"
#include "testing/kafka_pods.h"

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace capstan::e2e {

inline const std::string kKafkaNodesCluster = R"(apiVersion: v1
kind: Namespace
metadata: {name: data}
---
apiVersion: kafka.capstan.dev/v1
kind: KafkaNodePool
metadata: {name: dual, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {replicas: 3, roles: [controller, broker], storage: {type: persistent-claim, size: 1Gi, deleteClaim: true}}
---
apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata: {name: events, namespace: data}
spec:
  kafka:
    listeners:
      - {name: plain, port: 9092, type: internal, tls: false}
      - {name: other, port: 9094, type: cluster-ip, tls: false}
    config:
      offsets.topic.replication.factor: 3
      transaction.state.log.replication.factor: 3
      transaction.state.log.min.isr: 2
      default.replication.factor: 3
      min.insync.replicas: 2
)";

// A topic of three partitions, each on all three nodes, for the tests' clients.
inline const std::string kLedgerTopic = R"(---
apiVersion: kafka.capstan.dev/v1
kind: KafkaTopic
metadata: {name: ledger, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {partitions: 3, replicas: 3}
)";

// kKafkaNodesCluster with its second listener ("other") replaced by `lines` (listeners, and what
// follows them).
inline std::string kafka_cluster_with(const std::string& lines) {
  std::string cluster = kKafkaNodesCluster;
  const std::string other = "      - {name: other, port: 9094, type: cluster-ip, tls: false}\n";
  return cluster.replace(cluster.find(other), other.size(), lines);
}

// The pods of kKafkaNodesCluster's nodes.
inline const std::vector<std::string> kKafkaNodesPods = {"events-dual-0", "events-dual-1", "events-dual-2"};

// A cluster of real nodes: the manager makes the Kafka of kKafkaNodesCluster, then its nodes run here.
class KafkaNodesFixture : public ControllerFixture {
 protected:
  using ControllerFixture::ControllerFixture;

  // The setup of a test whose nodes roll: its pods are Ready when a KafkaPodAgent says so (the
  // simulator's own delay is longer than the test).
  static Setup rolling_setup(std::string name, std::string dump) {
    Setup s;
    s.name = std::move(name);
    s.simulate_workloads = true;
    s.dump = std::move(dump);
    s.pod_ready_delay = std::chrono::hours(1);
    return s;
  }

  // The nodes of `pods` as the controller made them, once their pods run (scheduled, their
  // volumes there), for a cluster whose pods only a KafkaPodAgent makes Ready; empty when they
  // did not start within 90 s.
  std::vector<KafkaNodeSpec> running_nodes(const std::vector<std::string>& pods = kKafkaNodesPods) {
    using namespace std::chrono_literals;
    const bool running = eventually([&] {
      for (const auto& pod : pods)
        if (jsonpath("pod", pod, ".status.phase") != "Running") return false;
      return true;
    }, 90s);
    std::vector<KafkaNodeSpec> nodes;
    if (running)
      for (const auto& pod : pods) nodes.push_back(node(pod));
    return nodes;
  }

  // The test's own look at the partitions through `look` (on the plain listener), for a
  // KafkaPodAgent to note when a node stops: "" when every partition is fully in sync, else which
  // are not (or why they could not be asked).
  static std::function<std::string()> under_replicated(kafka::ClusterAdmin& look) {
    return [&look]() -> std::string {
      try {
        std::string out;
        for (const auto& p : look.partitions())
          if (p.in_sync.size() < p.replicas.size()) out += (out.empty() ? "" : ", ") + p.topic + "-" + std::to_string(p.partition);
        return out.empty() ? "" : "under-replicated: " + out;
      } catch (const kafka::AdminError& e) {
        return std::string("not asked: ") + e.what();
      }
    };
  }

  // Where the nodes' names lead on loopback; node() adds the per-broker Services of a pod.
  KafkaNetwork network_;

  std::string jsonpath(const std::string& kind, const std::string& name, const std::string& path) {
    return get({"get", kind, name, "-n", "data", "-o", "jsonpath={" + path + "}"});
  }

  // --kafka-address-map for a manager that reaches the three nodes' replication listener (9091)
  // through the bootstrap Service and each node's advertised address, taking their ports in
  // network_ (before the nodes start).
  std::string replication_address_map() {
    std::string map;
    for (int i = 0; i < 3; ++i) {
      const std::string host = "events-dual-" + std::to_string(i) + ".events-kafka-brokers.data.svc";
      const std::string address = network_.address(host, 9091);
      if (i == 0) map = "events-kafka-bootstrap.data.svc:9091=" + address;
      map += "," + host + address.substr(address.rfind(':')) + "=" + address;
    }
    return map;
  }

  // Node `pod` as the controller made it (read_kafka_node).
  KafkaNodeSpec node(const std::string& pod) { return read_kafka_node(*kubectl_, "data", pod, &network_); }

  // The Secret's data, decoded.
  std::map<std::string, std::string> secret_data(const std::string& name) { return read_secret_data(*kubectl_, "data", name); }

  // The Kafka of `cluster` (and `more` objects) made and Ready; the specs of its nodes `pods`.
  std::vector<KafkaNodeSpec> make_cluster(const std::string& more = "",
                                          const std::vector<std::string>& pods = kKafkaNodesPods,
                                          const std::string& cluster = kKafkaNodesCluster) {
    using namespace std::chrono_literals;
    kubectl_->ok({"apply", "-f", "-"}, cluster + more);
    if (!eventually([&] { return condition("kafka", "events", "data", "Ready") == "True"; }, 60s)) return {};
    std::vector<KafkaNodeSpec> nodes;
    for (const auto& pod : pods) nodes.push_back(node(pod));
    return nodes;
  }
};

}  // namespace capstan::e2e
