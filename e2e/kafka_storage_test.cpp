// Kafka node storage against `capstan apiserver --simulate-workloads` and kube-apiserver: JBOD
// volumes under Strimzi's names (claims data-<id>-<pod>, mounts /var/lib/kafka/data-<id>, a log
// directory on each, the KRaft metadata log on the marked volume), claims grown when their
// StorageClass allows it, a growth the API server refuses (a class without volume expansion, a
// shrink) made a Warning naming the pool's field while the rest of the reconcile goes on, and a
// node restarted when its volume waits for a file system resize.
#include "runtime/meta/time.h"
#include "testing/controller_fixture.h"

#include <gtest/gtest.h>

#include <thread>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const char* kCluster = R"(apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: kafka-e2e-expandable}
provisioner: example.com/disk
allowVolumeExpansion: true
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: kafka-e2e-fixed}
provisioner: example.com/disk
---
apiVersion: v1
kind: Namespace
metadata: {name: data}
---
apiVersion: kafka.capstan.dev/v1
kind: KafkaNodePool
metadata: {name: dual, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec:
  replicas: 2
  roles: [controller, broker]
  storage:
    type: jbod
    volumes:
    - {id: 0, type: persistent-claim, size: 10Gi, class: kafka-e2e-expandable, deleteClaim: true}
    - {id: 1, type: persistent-claim, size: 10Gi, class: kafka-e2e-fixed, deleteClaim: true}
    - {id: 2, type: ephemeral, sizeLimit: 1Gi, kraftMetadata: shared}
---
apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata: {name: events, namespace: data}
spec:
  kafka:
    listeners: [{name: plain, port: 9092, type: internal, tls: false}]
)";

class KafkaStorageE2E : public ControllerFixture {
 protected:
  KafkaStorageE2E() : ControllerFixture({"kafka-storage", /*simulate_workloads=*/true, "kafka,kafkanodepools,pods,pvc"}) {}
  std::vector<std::string> manager_flags() override { return {"--controllers=kafka"}; }

  std::string claim_size(const std::string& claim) {
    return get({"get", "pvc", claim, "-n", "data", "-o", "jsonpath={.spec.resources.requests.storage}"});
  }
  std::string pod_uid(const std::string& pod) { return get({"get", "pod", pod, "-n", "data", "-o", "jsonpath={.metadata.uid}"}); }
  std::string warning(const std::string& field) { return condition("kafka", "events", "data", "Warning", field); }
  // A reconcile now (the controller reconciles on any change of a node pool's metadata).
  void nudge(int n) {
    kubectl_->ok({"annotate", "knp", "dual", "-n", "data", "--overwrite", "e2e.capstan.dev/nudge=" + std::to_string(n)});
  }
};

TEST_P(KafkaStorageE2E, JbodVolumesGrowWhereTheirClassAllowsAndARefusedChangeIsAWarning) {
  kubectl_->ok({"apply", "-f", "-"}, kCluster);
  ASSERT_TRUE(eventually([&] { return condition("kafka", "events", "data", "Ready") == "True"; }, 40s));
  EXPECT_EQ(get({"get", "pvc", "-n", "data", "-o", "jsonpath={.items[*].metadata.name}"}),
            "data-0-events-dual-0 data-0-events-dual-1 data-1-events-dual-0 data-1-events-dual-1")
      << "a claim for each persistent volume of each node, none for the ephemeral one";
  // (kube-apiserver's ServiceAccount admission adds the token's mount after them)
  EXPECT_EQ(get({"get", "pod", "events-dual-0", "-n", "data", "-o", "jsonpath={.spec.containers[0].volumeMounts[*].mountPath}"})
                .rfind("/var/lib/kafka/data-0 /var/lib/kafka/data-1 /var/lib/kafka/data-2 /opt/kafka/custom-config/", 0),
            0u);
  EXPECT_EQ(get({"get", "pod", "events-dual-0", "-n", "data", "-o", "jsonpath={.spec.volumes[1].persistentVolumeClaim.claimName}"}),
            "data-1-events-dual-0");
  const std::string config = get({"get", "configmap", "events-dual-1", "-n", "data", "-o", R"(jsonpath={.data.server\.config})"});
  EXPECT_NE(config.find("log.dirs=/var/lib/kafka/data-0/kafka-log1,/var/lib/kafka/data-1/kafka-log1,/var/lib/kafka/data-2/kafka-log1\n"),
            std::string::npos)
      << config;
  EXPECT_NE(config.find("metadata.log.dir=/var/lib/kafka/data-2/kafka-log1\n"), std::string::npos) << config;
  ASSERT_TRUE(eventually([&] { return get({"get", "pvc", "data-1-events-dual-1", "-n", "data", "-o", "jsonpath={.status.phase}"}) == "Bound"; }, 20s));

  // Both persistent volumes grow: the expandable class's claims follow, the fixed class's are
  // refused by the API server (its PersistentVolumeClaimResize admission), which the Kafka says.
  kubectl_->ok({"patch", "knp", "dual", "-n", "data", "--type=json", "-p",
                R"([{"op":"replace","path":"/spec/storage/volumes/0/size","value":"20Gi"},{"op":"replace","path":"/spec/storage/volumes/1/size","value":"20Gi"}])"});
  EXPECT_TRUE(eventually([&] { return claim_size("data-0-events-dual-0") == "20Gi" && claim_size("data-0-events-dual-1") == "20Gi"; }, 20s));
  ASSERT_TRUE(eventually([&] { return warning("reason") == "PvcResizingWarning"; }, 20s)) << warning("message");
  const std::string message = warning("message");
  EXPECT_NE(message.find("KafkaNodePool dual spec.storage.volumes[1] (claim data-1-events-dual-0)"), std::string::npos) << message;
  EXPECT_NE(message.find("the storageclass that provisions the pvc must support resize"), std::string::npos) << message;
  EXPECT_EQ(claim_size("data-1-events-dual-0"), "10Gi");
  EXPECT_EQ(condition("kafka", "events", "data", "Ready"), "True") << "a refused claim holds nothing else back";

  // The class allows expansion now: the claims grow and the Warning goes.
  kubectl_->ok({"patch", "storageclass", "kafka-e2e-fixed", "--type=merge", "-p", R"({"allowVolumeExpansion":true})"});
  nudge(1);
  EXPECT_TRUE(eventually([&] { return claim_size("data-1-events-dual-0") == "20Gi" && claim_size("data-1-events-dual-1") == "20Gi"; }, 20s));
  EXPECT_TRUE(eventually([&] { return warning("reason").empty(); }, 20s)) << warning("message");

  // A shrink (the node pool webhook refuses it; this manager runs without webhooks) is refused
  // by the API server's claim validation: a Warning naming the field, the claims keep their size.
  kubectl_->ok({"patch", "knp", "dual", "-n", "data", "--type=json", "-p", R"([{"op":"replace","path":"/spec/storage/volumes/0/size","value":"5Gi"}])"});
  ASSERT_TRUE(eventually([&] { return warning("reason") == "PvcResizingWarning"; }, 20s));
  EXPECT_NE(warning("message").find("KafkaNodePool dual spec.storage.volumes[0] (claim data-0-events-dual-0)"), std::string::npos) << warning("message");
  EXPECT_EQ(claim_size("data-0-events-dual-0"), "20Gi");

  // A volume waiting for its file system to grow (as the external resizer leaves it) restarts
  // its node's pod, once; the other node stays.
  const std::string uid0 = pod_uid("events-dual-0"), uid1 = pod_uid("events-dual-1");
  const std::string now = meta::format_rfc3339(meta::Clock::now());
  kubectl_->ok({"patch", "pvc", "data-1-events-dual-1", "-n", "data", "--subresource=status", "--type=merge", "-p",
                R"({"status":{"conditions":[{"type":"FileSystemResizePending","status":"True","lastTransitionTime":")" + now + R"("}]}})"});
  EXPECT_TRUE(eventually([&] { return !pod_uid("events-dual-1").empty() && pod_uid("events-dual-1") != uid1; }, 30s)) << "not restarted";
  EXPECT_TRUE(eventually([&] { return condition("kafka", "events", "data", "Ready") == "True"; }, 30s));
  const std::string restarted = pod_uid("events-dual-1");
  nudge(2);
  std::this_thread::sleep_for(3s);
  EXPECT_EQ(pod_uid("events-dual-1"), restarted) << "restarted once, not at every reconcile";
  EXPECT_EQ(pod_uid("events-dual-0"), uid0);
}

CAPSTAN_E2E_BACKENDS(KafkaStorageE2E);

}  // namespace
}  // namespace capstan::e2e
