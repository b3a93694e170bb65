// The kafka controller against `capstan apiserver --simulate-workloads` (a kubelet stand-in),
// `capstan manager --controllers=kafka` and kubectl: a KRaft cluster of two node pools comes
// up under Strimzi's names and status, scales up and down (node IDs as Strimzi assigns them,
// claims deleted with deleteClaim), rolls every node after a configuration change, and an
// invalid cluster (or a TLS listener without the certificates controller) is NotReady saying why.
#include "testing/controller_fixture.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const char* kCluster = R"(apiVersion: v1
kind: Namespace
metadata: {name: data}
---
apiVersion: kafka.capstan.dev/v1
kind: KafkaNodePool
metadata: {name: controllers, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {replicas: 3, roles: [controller], storage: {type: ephemeral}}
---
apiVersion: kafka.capstan.dev/v1
kind: KafkaNodePool
metadata: {name: brokers, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {replicas: 3, roles: [broker], storage: {type: persistent-claim, size: 10Gi, deleteClaim: true}}
---
apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata:
  name: events
  namespace: data
  # No broker runs here (the API server's simulated kubelet), so none can be asked whether it
  # holds partition replicas before a scale-down removes it.
  annotations: {kafka.capstan.dev/skip-broker-scaledown-check: "true"}
spec:
  kafka:
    version: 4.0.0
    metadataVersion: 4.0-IV3
    listeners: [{name: plain, port: 9092, type: internal, tls: false}]
    config: {offsets.topic.replication.factor: 3}
)";

class KafkaE2E : public ControllerFixture {
 protected:
  KafkaE2E() : ControllerFixture({"kafka", /*simulate_workloads=*/true, "kafka,kafkanodepools,pods,pvc"}) {}
  std::vector<std::string> manager_flags() override { return {"--controllers=kafka"}; }

  std::string ready() { return condition("kafka", "events", "data", "Ready"); }
  std::string pods() { return get({"get", "pods", "-n", "data", "-l", "kafka.capstan.dev/cluster=events", "-o", "jsonpath={.items[*].metadata.name}"}); }
  // Pod name -> its kafka.capstan.dev/revision.
  std::map<std::string, std::string> revisions() {
    std::istringstream in(get({"get", "pods", "-n", "data", "-l", "kafka.capstan.dev/cluster=events", "-o",
                               R"(jsonpath={range .items[*]}{.metadata.name}{" "}{.metadata.annotations.kafka\.capstan\.dev/revision}{"\n"}{end})"}));
    std::map<std::string, std::string> out;
    for (std::string pod, revision; in >> pod >> revision;) out[pod] = revision;
    return out;
  }
};

TEST_P(KafkaE2E, AKraftClusterComesUpScalesAndRollsUnderStrimzisNames) {
  kubectl_->ok({"apply", "-f", "-"}, kCluster);
  ASSERT_TRUE(eventually([&] { return ready() == "True"; }, 40s)) << pods();
  EXPECT_EQ(pods(), "events-brokers-0 events-brokers-1 events-brokers-2 events-controllers-3 events-controllers-4 events-controllers-5")
      << "node IDs in the order the API lists the pools (by name), as Strimzi's assignor takes them";
  EXPECT_EQ(get({"get", "knp", "brokers", "-n", "data", "-o", "jsonpath={.status.nodeIds}"}), "[0,1,2]");
  EXPECT_EQ(get({"get", "kafka", "events", "-n", "data", "-o", "jsonpath={.status.listeners[0].bootstrapServers}"}),
            "events-kafka-bootstrap.data.svc:9092");
  std::string cluster_id = get({"get", "kafka", "events", "-n", "data", "-o", "jsonpath={.status.clusterId}"});
  EXPECT_EQ(cluster_id.size(), 22u) << cluster_id;
  EXPECT_EQ(get({"get", "knp", "controllers", "-n", "data", "-o", "jsonpath={.status.clusterId}"}), cluster_id);
  EXPECT_EQ(get({"get", "service", "events-kafka-brokers", "-n", "data", "-o", "jsonpath={.spec.clusterIP}"}), "None");
  EXPECT_EQ(get({"get", "pdb", "events-kafka", "-n", "data", "-o", "jsonpath={.spec.minAvailable}"}), "5")
      << "six nodes, one may be evicted at a time";
  std::string config = get({"get", "configmap", "events-brokers-1", "-n", "data", "-o", R"(jsonpath={.data.server\.config})"});
  EXPECT_NE(config.find("node.id=1\n"), std::string::npos) << config;
  EXPECT_NE(config.find("offsets.topic.replication.factor=3\n"), std::string::npos) << config;
  EXPECT_TRUE(eventually([&] { return get({"get", "pvc", "data-events-brokers-0", "-n", "data", "-o", "jsonpath={.status.phase}"}) == "Bound"; }, 20s));
  std::string table = get({"get", "kafka", "-n", "data"});
  EXPECT_NE(table.find("4.0.0"), std::string::npos) << table;
  EXPECT_EQ(get({"get", "configmap", "events-brokers-1", "-n", "data", "-o", R"(jsonpath={.data.metadata\.version})"}), "4.0-IV3")
      << "new nodes are formatted with the spec's metadata version";
  EXPECT_EQ(get({"get", "kafka", "events", "-n", "data", "-o", "jsonpath={.status.kafkaMetadataVersion}"}), "")
      << "no broker runs here to say which metadata version it finalized: the status does not make one up";

  // Scale up: the next free node ID.
  kubectl_->ok({"scale", "knp", "brokers", "-n", "data", "--replicas=4"}, "");
  EXPECT_TRUE(eventually([&] { return pods().find("events-brokers-6") != std::string::npos; }, 20s)) << pods();
  EXPECT_TRUE(eventually([&] { return get({"get", "knp", "brokers", "-n", "data", "-o", "jsonpath={.status.nodeIds}"}) == "[0,1,2,6]"; }, 20s));

  // A configuration change rolls every node (each pod's revision changes), one at a time, the
  // broker-only nodes before those with the controller role.
  auto before = revisions();
  const std::size_t log_mark = manager_->logs().size();
  kubectl_->ok({"patch", "kafka", "events", "-n", "data", "--type=merge", "-p", R"({"spec":{"kafka":{"config":{"num.partitions":6}}}})"});
  ASSERT_TRUE(eventually([&] {
    auto now = revisions();
    if (now.size() != before.size()) return false;
    for (const auto& [pod, revision] : now)
      if (before.at(pod) == revision) return false;
    return true;
  }, 60s));
  EXPECT_TRUE(eventually([&] { return ready() == "True"; }, 20s));
  EXPECT_NE(get({"get", "configmap", "events-controllers-3", "-n", "data", "-o", R"(jsonpath={.data.server\.config})"}).find("num.partitions=6"),
            std::string::npos);
  std::vector<std::string> rolled;  // as the manager's log says it rolled them
  const std::string log = manager_->logs().substr(log_mark);
  for (std::size_t at = log.find("\"rolling a node\""); at != std::string::npos; at = log.find("\"rolling a node\"", at + 1)) {
    const std::size_t pod = log.find("pod=", at);
    rolled.push_back(log.substr(pod + 4, log.find_first_of(" \n", pod) - pod - 4));
  }
  EXPECT_EQ(rolled, (std::vector<std::string>{"events-brokers-0", "events-brokers-1", "events-brokers-2", "events-brokers-6",
                                              "events-controllers-3", "events-controllers-4", "events-controllers-5"}))
      << log;

  // Scale down: the highest ID goes, with its claim (deleteClaim).
  kubectl_->ok({"scale", "knp", "brokers", "-n", "data", "--replicas=3"}, "");
  EXPECT_TRUE(eventually([&] { return pods().find("events-brokers-6") == std::string::npos; }, 20s)) << pods();
  EXPECT_TRUE(eventually([&] { return get({"get", "pvc", "-n", "data", "-o", "name"}).find("data-events-brokers-6") == std::string::npos; }, 20s));

  // A manual rolling update (`kubectl annotate`): of one pod, then of every pod of a pool; the
  // annotation goes with the replaced pods and from the pool.
  auto uids = [&] {
    std::istringstream in(get({"get", "pods", "-n", "data", "-l", "kafka.capstan.dev/cluster=events", "-o",
                               R"(jsonpath={range .items[*]}{.metadata.name}{" "}{.metadata.uid}{"\n"}{end})"}));
    std::map<std::string, std::string> out;
    for (std::string pod, uid; in >> pod >> uid;) out[pod] = uid;
    return out;
  };
  auto first = uids();
  kubectl_->ok({"annotate", "pod", "events-brokers-1", "-n", "data", "kafka.capstan.dev/manual-rolling-update=true"});
  EXPECT_TRUE(eventually([&] {
    auto now = uids();
    return now.count("events-brokers-1") && now["events-brokers-1"] != first["events-brokers-1"];
  }, 30s)) << "the annotated pod was not rolled";
  EXPECT_TRUE(eventually([&] { return ready() == "True"; }, 20s));
  auto second = uids();
  EXPECT_EQ(second["events-brokers-0"], first["events-brokers-0"]) << "only the annotated pod rolls";
  EXPECT_EQ(get({"get", "pod", "events-brokers-1", "-n", "data", "-o", R"(jsonpath={.metadata.annotations.kafka\.capstan\.dev/manual-rolling-update})"}), "");
  kubectl_->ok({"annotate", "knp", "controllers", "-n", "data", "kafka.capstan.dev/manual-rolling-update=true"});
  EXPECT_TRUE(eventually([&] {
    auto now = uids();
    for (const char* pod : {"events-controllers-3", "events-controllers-4", "events-controllers-5"})
      if (!now.count(pod) || now[pod] == second[pod]) return false;
    return true;
  }, 60s)) << "the pool's pods were not all rolled";
  EXPECT_EQ(get({"get", "knp", "controllers", "-n", "data", "-o", R"(jsonpath={.metadata.annotations.kafka\.capstan\.dev/manual-rolling-update})"}), "");
  EXPECT_EQ(uids()["events-brokers-2"], second["events-brokers-2"]) << "the other pool's pods stay";
}

TEST_P(KafkaE2E, AnInvalidClusterIsNotReadyNamingTheField) {
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata: {name: events, namespace: default}
spec:
  kafka:
    listeners: [{name: plain, port: 9092, type: internal, tls: false}]
    config: {node.id: 7}
)");
  auto reason = [&] { return condition("kafka", "events", "default", "NotReady", "reason"); };
  ASSERT_TRUE(eventually([&] { return reason() == "InvalidResourceException"; }, 20s)) << reason();
  std::string message = condition("kafka", "events", "default", "NotReady", "message");
  EXPECT_NE(message.find("spec.kafka.config[node.id]: Forbidden"), std::string::npos) << message;
  EXPECT_NE(message.find("No KafkaNodePools found for Kafka cluster events"), std::string::npos) << message;

  // A TLS listener needs the certificates controller, which this manager does not run: said so,
  // and no pod is started without its certificate.
  kubectl_->ok({"apply", "-f", "-"}, std::string(kCluster).replace(std::string(kCluster).find("tls: false"), 10, "tls: true"));
  auto tls_reason = [&] { return condition("kafka", "events", "data", "NotReady", "reason"); };
  ASSERT_TRUE(eventually([&] { return tls_reason() == "CertificatesUnavailable"; }, 20s)) << tls_reason();
  EXPECT_NE(condition("kafka", "events", "data", "NotReady", "message").find("--controllers=...,certificates"), std::string::npos);
  EXPECT_EQ(pods(), "");
}

// Listeners of types cluster-ip, loadbalancer and nodeport: their Services under Strimzi's names,
// the broker advertising its load balancer address (set here as a cloud controller would) and its
// Node's address (the workload simulator's Node, given an ExternalIP here) with its Service's
// nodePort, the Kafka NotReady while the load balancer address is missing, and a removed
// listener's Services deleted. The nodePorts are set in the spec: the embedded API server does
// not allocate them as kube-apiserver does.
TEST_P(KafkaE2E, ListenerTypesGetTheirServicesAndAdvertiseTheirAddresses) {
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: v1
kind: Namespace
metadata: {name: data}
---
apiVersion: kafka.capstan.dev/v1
kind: KafkaNodePool
metadata: {name: dual, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {replicas: 1, roles: [controller, broker], storage: {type: ephemeral}}
---
apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata: {name: events, namespace: data}
spec:
  kafka:
    listeners:
      - {name: cip, port: 9093, type: cluster-ip, tls: false}
      - {name: lb, port: 9094, type: loadbalancer, tls: false, configuration: {externalTrafficPolicy: Local}}
      - name: np
        port: 9095
        type: nodeport
        tls: false
        configuration: {preferredNodePortAddressType: ExternalIP, bootstrap: {nodePort: 31090}, brokers: [{broker: 0, nodePort: 31091}]}
)");
  auto type_of = [&](const std::string& service) {
    return get({"get", "service", service, "-n", "data", "-o", "jsonpath={.spec.type}", "--ignore-not-found"});
  };
  const std::map<std::string, std::string> want{{"events-kafka-cip-bootstrap", "ClusterIP"}, {"events-dual-cip-0", "ClusterIP"},
                                                {"events-kafka-lb-bootstrap", "LoadBalancer"}, {"events-dual-lb-0", "LoadBalancer"},
                                                {"events-kafka-np-bootstrap", "NodePort"},     {"events-dual-np-0", "NodePort"}};
  ASSERT_TRUE(eventually([&] {
    for (const auto& [service, type] : want)
      if (type_of(service) != type) return false;
    return true;
  }, 30s)) << get({"get", "services", "-n", "data"});
  EXPECT_EQ(get({"get", "service", "events-dual-lb-0", "-n", "data", "-o", "jsonpath={.spec.selector.kafka\\.capstan\\.dev/pod-name}"}),
            "events-dual-0");
  EXPECT_EQ(get({"get", "service", "events-dual-lb-0", "-n", "data", "-o", "jsonpath={.spec.externalTrafficPolicy}"}), "Local");
  EXPECT_EQ(get({"get", "service", "events-dual-np-0", "-n", "data", "-o", "jsonpath={.spec.ports[0].nodePort}"}), "31091");

  // No load balancer address yet: not Ready, naming the Services.
  auto not_ready = [&](const std::string& field) { return condition("kafka", "events", "data", "NotReady", field); };
  ASSERT_TRUE(eventually([&] { return not_ready("reason") == "ListenerAddressPending"; }, 30s)) << not_ready("reason");
  EXPECT_NE(not_ready("message").find("Service data/events-dual-lb-0 (listener lb) has no load balancer address yet"), std::string::npos)
      << not_ready("message");
  auto config = [&] { return get({"get", "configmap", "events-dual-0", "-n", "data", "-o", R"(jsonpath={.data.server\.config})"}); };
  EXPECT_EQ(config().find("LB-9094://1"), std::string::npos) << "advertised before its address was known\n" << config();

  // The load balancers get their addresses (as a cloud's controller writes them), the pod's Node an ExternalIP.
  for (const auto& [service, ip] : {std::pair{"events-kafka-lb-bootstrap", "192.0.2.9"}, std::pair{"events-dual-lb-0", "192.0.2.10"}})
    kubectl_->ok({"patch", "service", service, "-n", "data", "--subresource=status", "--type=merge", "-p",
                  std::string(R"({"status":{"loadBalancer":{"ingress":[{"ip":")") + ip + R"("}]}}})"});
  std::string node;
  ASSERT_TRUE(eventually([&] {
    node = get({"get", "pod", "events-dual-0", "-n", "data", "-o", "jsonpath={.spec.nodeName}"});
    return !node.empty();
  }, 30s));
  kubectl_->ok({"patch", "node", node, "--subresource=status", "--type=merge", "-p",
                R"({"status":{"addresses":[{"type":"InternalIP","address":"10.0.0.5"},{"type":"ExternalIP","address":"192.0.2.20"},)"
                R"({"type":"Hostname","address":")" + node + R"("}]}})"});

  ASSERT_TRUE(eventually([&] {
    const std::string c = config();
    return c.find("LB-9094://192.0.2.10:9094") != std::string::npos && c.find("NP-9095://192.0.2.20:31091") != std::string::npos;
  }, 30s)) << config();
  EXPECT_NE(config().find("CIP-9093://events-dual-cip-0.data.svc:9093"), std::string::npos) << config();
  auto bootstrap = [&](const std::string& listener) {
    return get({"get", "kafka", "events", "-n", "data", "-o",
                "jsonpath={.status.listeners[?(@.name==\"" + listener + "\")].bootstrapServers}"});
  };
  EXPECT_TRUE(eventually([&] { return bootstrap("np") == "192.0.2.20:31090"; }, 20s)) << bootstrap("np");
  EXPECT_EQ(bootstrap("lb"), "192.0.2.9:9094");
  EXPECT_EQ(bootstrap("cip"), "events-kafka-cip-bootstrap.data.svc:9093");
  EXPECT_TRUE(eventually([&] { return ready() == "True"; }, 40s)) << not_ready("message");

  // The loadbalancer listener removed: its Services go.
  kubectl_->ok({"patch", "kafka", "events", "-n", "data", "--type=json", "-p", R"([{"op":"remove","path":"/spec/kafka/listeners/1"}])"});
  EXPECT_TRUE(eventually([&] { return type_of("events-dual-lb-0").empty() && type_of("events-kafka-lb-bootstrap").empty(); }, 30s))
      << get({"get", "services", "-n", "data"});
  EXPECT_EQ(type_of("events-dual-np-0"), "NodePort");

  // An OpenShift Route listener is not served (the webhook refuses it; here, without the
  // webhook, the controller says so).
  kubectl_->ok({"patch", "kafka", "events", "-n", "data", "--type=json", "-p",
                R"([{"op":"add","path":"/spec/kafka/listeners/-","value":{"name":"ext","port":9096,"type":"route","tls":true}}])"});
  ASSERT_TRUE(eventually([&] { return not_ready("reason") == "InvalidResourceException"; }, 30s)) << not_ready("reason");
  EXPECT_NE(not_ready("message").find("spec.kafka.listeners[2].type: Forbidden: listener type route is not served"), std::string::npos)
      << not_ready("message");
}

const char* kRackCluster = R"(apiVersion: v1
kind: Namespace
metadata: {name: data}
---
apiVersion: kafka.capstan.dev/v1
kind: KafkaNodePool
metadata: {name: controllers, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {replicas: 1, roles: [controller], storage: {type: ephemeral}}
---
apiVersion: kafka.capstan.dev/v1
kind: KafkaNodePool
metadata: {name: brokers, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {replicas: 2, roles: [broker], storage: {type: ephemeral}}
---
apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata:
  name: events
  namespace: data
  annotations: {kafka.capstan.dev/skip-broker-scaledown-check: "true"}
spec:
  kafka:
    listeners: [{name: plain, port: 9092, type: internal, tls: false}]
    rack: {topologyKey: topology.kubernetes.io/zone}
    config: {replica.selector.class: org.apache.kafka.common.replica.RackAwareReplicaSelector}
)";

// Rack awareness: the brokers' init container, rack volume and affinity, broker.rack in their
// configuration, the nodes' ServiceAccount and its ClusterRoleBinding to the chart's broker
// ClusterRole (which the manager, running with the chart's RBAC, may only make because it holds
// get on nodes); both go when rack is dropped, and the binding goes with its Kafka.
TEST_P(KafkaE2E, RackAwarenessGivesBrokersTheirNodesLabelAndTheRightToReadIt) {
  kubectl_->ok({"apply", "-f", "-"}, kRackCluster);
  ASSERT_TRUE(eventually([&] { return ready() == "True"; }, 40s)) << pods() << condition("kafka", "events", "data", "NotReady", "message");
  auto pod_field = [&](const std::string& pod, const std::string& path) {
    return get({"get", "pod", pod, "-n", "data", "-o", "jsonpath={" + path + "}"});
  };
  EXPECT_EQ(pod_field("events-brokers-0", ".spec.initContainers[0].name"), "kafka-init");
  EXPECT_EQ(pod_field("events-brokers-0", ".spec.initContainers[0].command[0]"), "/opt/strimzi/bin/kafka_init_run.sh");
  EXPECT_EQ(pod_field("events-brokers-0", ".spec.initContainers[0].env[?(@.name==\"RACK_TOPOLOGY_KEY\")].value"), "topology.kubernetes.io/zone");
  EXPECT_EQ(pod_field("events-brokers-0", ".spec.initContainers[0].env[?(@.name==\"NODE_NAME\")].valueFrom.fieldRef.fieldPath"), "spec.nodeName");
  EXPECT_EQ(pod_field("events-brokers-1", ".spec.containers[0].volumeMounts[?(@.name==\"rack-volume\")].mountPath"), "/opt/kafka/init");
  EXPECT_EQ(pod_field("events-brokers-1", ".spec.serviceAccountName"), "events-kafka");
  EXPECT_EQ(pod_field("events-brokers-1", ".spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
                                          ".matchExpressions[0].key"),
            "topology.kubernetes.io/zone");
  EXPECT_EQ(pod_field("events-brokers-1", ".spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight"), "100");
  EXPECT_EQ(pod_field("events-controllers-2", ".spec.initContainers"), "") << "a controller has no rack to read";
  EXPECT_EQ(pod_field("events-controllers-2", ".spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]"
                                              ".podAffinityTerm.topologyKey"),
            "topology.kubernetes.io/zone")
      << "controllers are spread over the racks too";
  const std::string config = get({"get", "configmap", "events-brokers-0", "-n", "data", "-o", "jsonpath={.data.server\\.config}"});
  EXPECT_NE(config.find("broker.rack=${strimzidir:/opt/kafka/init:rack.id}\n"), std::string::npos) << config;
  EXPECT_NE(config.find("config.providers.strimzidir.class=org.apache.kafka.common.config.provider.DirectoryConfigProvider\n"), std::string::npos);
  EXPECT_NE(config.find("replica.selector.class=org.apache.kafka.common.replica.RackAwareReplicaSelector\n"), std::string::npos);

  EXPECT_EQ(get({"get", "serviceaccount", "events-kafka", "-n", "data", "-o", "jsonpath={.metadata.ownerReferences[0].kind}"}), "Kafka");
  const std::string binding = "capstan-data-events-kafka-init";
  EXPECT_EQ(get({"get", "clusterrolebinding", binding, "-o", "jsonpath={.roleRef.kind}/{.roleRef.name}"}), "ClusterRole/capstan-kafka-broker");
  EXPECT_EQ(get({"get", "clusterrolebinding", binding, "-o", "jsonpath={.subjects[0].kind}/{.subjects[0].namespace}/{.subjects[0].name}"}),
            "ServiceAccount/data/events-kafka");
  EXPECT_EQ(get({"get", "clusterrole", "capstan-kafka-broker", "-o", "jsonpath={.rules[0].resources[0]}/{.rules[0].verbs[0]}"}), "nodes/get")
      << "the chart's broker ClusterRole";

  // Dropping rack: the binding and the ServiceAccount go, and the nodes roll without the init container.
  auto binding_exists = [&] { return !get({"get", "clusterrolebinding", "-l", "kafka.capstan.dev/cluster=events", "-o", "name"}).empty(); };
  const auto before = revisions();
  kubectl_->ok({"patch", "kafka", "events", "-n", "data", "--type=json", "-p", R"([{"op":"remove","path":"/spec/kafka/rack"}])"});
  EXPECT_TRUE(eventually([&] { return !binding_exists(); }, 30s)) << "the rack ClusterRoleBinding outlived rack";
  EXPECT_TRUE(eventually([&] { return get({"get", "serviceaccount", "-n", "data", "-o", "name"}).find("events-kafka") == std::string::npos; }, 30s));
  EXPECT_TRUE(eventually([&] {
    const auto now = revisions();
    if (now.size() != before.size()) return false;
    for (const auto& [pod, revision] : now)
      if (before.at(pod) == revision) return false;
    return pod_field("events-brokers-0", ".spec.initContainers").empty();
  }, 60s)) << "the nodes did not roll without rack";

  // Rack again, then the Kafka goes: its cluster-scoped binding goes with it (no owner reference can).
  kubectl_->ok({"patch", "kafka", "events", "-n", "data", "--type=merge", "-p", R"({"spec":{"kafka":{"rack":{"topologyKey":"kubernetes.io/hostname"}}}})"});
  ASSERT_TRUE(eventually(binding_exists, 30s));
  kubectl_->ok({"delete", "kafka", "events", "-n", "data"});
  EXPECT_TRUE(eventually([&] { return !binding_exists(); }, 30s)) << "the rack ClusterRoleBinding outlived its Kafka";
}

CAPSTAN_E2E_BACKENDS(KafkaE2E);

}  // namespace
}  // namespace capstan::e2e
