// The fixture of the tests that run real Kafka nodes (testing/kafka_broker.h) on what the Kafka
// controller made: a three-node KRaft cluster of one dual-role node pool in namespace "data",
// made by the manager on the test's backend, its nodes read back through kubectl.
#pragma once

#include "testing/controller_fixture.h"
#include "testing/eventually.h"
#include "testing/kafka_broker.h"
#include "testing/kafka_pods.h"

#include <chrono>
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

// A cluster of real nodes: the manager makes the Kafka of kKafkaNodesCluster, then its nodes run here.
class KafkaNodesFixture : public ControllerFixture {
 protected:
  using ControllerFixture::ControllerFixture;

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
                                          const std::vector<std::string>& pods = {"events-dual-0", "events-dual-1", "events-dual-2"},
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
