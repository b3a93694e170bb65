// Real Apache Kafka brokers (scripts/kafka.sh's pinned release) on the configuration the Kafka
// controller generated: a three-node KRaft cluster of one dual-role node pool is made by
// `capstan manager --controllers=kafka` on the test's backend (pods by the workload
// simulator), then each node runs as one process on loopback from exactly its ConfigMap
// (server.config, cluster.id, metadata.version; testing/kafka_broker.h says how the pod
// network and data volume are stood in for). The quorum forms, the brokers report the cluster
// id the controller chose, and a producer/consumer round trip works through each listener with
// every message replicated to all three brokers.
#include "testing/controller_fixture.h"
#include "testing/kafka_broker.h"
#include "testing/kafka_client.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const char* kCluster = R"(apiVersion: v1
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

class KafkaBrokerE2E : public ControllerFixture {
 protected:
  KafkaBrokerE2E() : ControllerFixture({"kafka-broker", /*simulate_workloads=*/true, "kafka,kafkanodepools,pods,configmaps"}) {}
  std::vector<std::string> manager_flags() override { return {"--controllers=kafka"}; }

  std::string jsonpath(const std::string& kind, const std::string& name, const std::string& path) {
    return get({"get", kind, name, "-n", "data", "-o", "jsonpath={" + path + "}"});
  }

  // Node `pod` as the controller made it: its ConfigMap and what its pod says of its address
  // (hostname.subdomain.namespace.svc) and data volume.
  KafkaNodeSpec node(const std::string& pod) {
    KafkaNodeSpec n;
    n.pod = pod;
    n.host = jsonpath("pod", pod, ".spec.hostname") + "." + jsonpath("pod", pod, ".spec.subdomain") + ".data.svc";
    n.data_mount_path = jsonpath("pod", pod, R"(.spec.containers[0].volumeMounts[?(@.name=="data")].mountPath)");
    n.server_config = jsonpath("configmap", pod, R"(.data.server\.config)");
    n.cluster_id = jsonpath("configmap", pod, R"(.data.cluster\.id)");
    n.metadata_version = jsonpath("configmap", pod, R"(.data.metadata\.version)");
    return n;
  }
};

TEST_P(KafkaBrokerE2E, ThreeRealNodesFormAQuorumOnTheGeneratedConfigurationAndServeEveryListener) {
  kubectl_->ok({"apply", "-f", "-"}, kCluster);
  ASSERT_TRUE(eventually([&] { return condition("kafka", "events", "data", "Ready") == "True"; }, 60s));
  const std::string cluster_id = jsonpath("kafka", "events", ".status.clusterId");
  const std::string metadata_version = jsonpath("kafka", "events", ".status.kafkaMetadataVersion");

  std::vector<KafkaNodeSpec> nodes;
  for (const char* pod : {"events-dual-0", "events-dual-1", "events-dual-2"}) {
    nodes.push_back(node(pod));
    EXPECT_EQ(nodes.back().cluster_id, cluster_id) << pod << ": the ConfigMap carries the cluster id of the status";
    EXPECT_EQ(nodes.back().metadata_version, metadata_version) << pod;
    ASSERT_FALSE(nodes.back().server_config.empty()) << pod;
  }
  EXPECT_EQ(nodes[0].host, "events-dual-0.events-kafka-brokers.data.svc");

  KafkaBrokers brokers(*dir_, nodes);
  std::cout << "[ kafka ] three nodes listening " << brokers.start_seconds() << " s after their start\n";
  EXPECT_NE(read_file(brokers.data_dir("events-dual-1") + "/kafka-log1/meta.properties").find("cluster.id=" + cluster_id),
            std::string::npos)
      << "the storage was formatted with the controller's cluster id";

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
}

CAPSTAN_E2E_BACKENDS(KafkaBrokerE2E);

}  // namespace
}  // namespace capstan::e2e
