// The volume binder with the provisioner and the protection controllers it stands in for:
// PersistentVolumes per claim, cleaned up with the claim; protection finalizers released.
#include "apiserver/simulator/volume_binder.h"
#include "apiserver/simulator/workload_test_env.h"

#include <gtest/gtest.h>

namespace capstan::simulator::testing {
namespace {

std::string first_access_mode(const json::Value& obj, const char* where) {
  const auto* modes = json::get_array(obj, {where, "accessModes"});
  return modes && !modes->empty() && modes->front().is_string() ? std::string(modes->front().get_string()) : "";
}

const char* kClaim = R"(
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteMany]
  storageClassName: fast
  resources: {requests: {storage: 3Gi}}
)";

TEST(WorkloadVolumes, AClaimGetsItsOwnVolumeWhichGoesWithIt) {
  Env env(0ms);
  auto pvc = env.create_yaml("persistentvolumeclaims", kClaim);
  std::string volume = "pvc-" + std::string(meta::uid_of(pvc));
  ASSERT_TRUE(eventually([&] { return str(env.get("persistentvolumeclaims", "default", "data"), {"status", "phase"}) == "Bound"; }));
  auto claim = env.get("persistentvolumeclaims", "default", "data");
  EXPECT_EQ(str(claim, {"spec", "volumeName"}), volume);
  EXPECT_EQ(str(claim, {"status", "capacity", "storage"}), "3Gi");
  EXPECT_EQ(first_access_mode(claim, "status"), "ReadWriteMany");
  auto pv = env.get("persistentvolumes", "", volume);
  ASSERT_TRUE(pv.is_object()) << "a volume is provisioned for the claim";
  EXPECT_EQ(str(pv, {"spec", "capacity", "storage"}), "3Gi");
  EXPECT_EQ(first_access_mode(pv, "spec"), "ReadWriteMany");
  EXPECT_EQ(str(pv, {"spec", "storageClassName"}), "fast");
  EXPECT_EQ(str(pv, {"spec", "persistentVolumeReclaimPolicy"}), "Delete");
  EXPECT_EQ(str(pv, {"spec", "claimRef", "name"}), "data");
  EXPECT_EQ(str(pv, {"spec", "claimRef", "namespace"}), "default");
  EXPECT_EQ(str(pv, {"spec", "claimRef", "uid"}), meta::uid_of(pvc));
  EXPECT_FALSE(str(pv, {"spec", "hostPath", "path"}).empty());
  EXPECT_EQ(meta::annotation(pv, kProvisionedByAnnotation), kSimulatedProvisioner);
  ASSERT_TRUE(eventually([&] { return str(env.get("persistentvolumes", "", volume), {"status", "phase"}) == "Bound"; }));

  env.remove("persistentvolumeclaims", "default", "data");
  EXPECT_TRUE(eventually([&] { return !env.exists("persistentvolumes", "", volume); })) << "reclaim policy Delete";
}

TEST(WorkloadVolumes, ProtectionFinalizersAreReleasedOnceNothingUsesTheClaim) {
  Env env(0ms);
  // As kube-apiserver's StorageObjectInUseProtection admission leaves them.
  auto pvc = json::from_yaml(kClaim);
  json::ensure_object(pvc, {"metadata"})["finalizers"] = json::Array{"kubernetes.io/pvc-protection"};
  env.create("persistentvolumeclaims", "default", pvc);
  env.create_yaml("pods", R"(
apiVersion: v1
kind: Pod
metadata: {name: user}
spec:
  containers: [{name: c, image: busybox}]
  volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]
)");
  ASSERT_TRUE(eventually([&] { return meta::pod_ready(env.get("pods", "default", "user")); }));
  std::string volume(str(env.get("persistentvolumeclaims", "default", "data"), {"spec", "volumeName"}));
  env.modify("persistentvolumes", "", volume, [](json::Value& pv) {
    json::ensure_object(pv, {"metadata"})["finalizers"] = json::Array{"kubernetes.io/pv-protection"};
  });

  env.remove("persistentvolumeclaims", "default", "data");
  EXPECT_TRUE(stays([&] { return env.exists("persistentvolumeclaims", "default", "data"); }, 300ms))
      << "a running pod still mounts it";
  env.remove("pods", "default", "user");
  EXPECT_TRUE(eventually([&] { return !env.exists("persistentvolumeclaims", "default", "data"); }));
  EXPECT_TRUE(eventually([&] { return !env.exists("persistentvolumes", "", volume); }));
}

TEST(WorkloadVolumes, AVolumeIsShapedAsKubeApiserverValidatesIt) {
  auto claim = json::from_yaml(R"(
metadata: {name: data, namespace: ns, uid: 0b7d5d6e-0000-4000-8000-000000000001}
spec: {resources: {requests: {storage: 1Gi}}, volumeMode: Block}
)");
  auto pv = volume_for_claim(claim);
  EXPECT_EQ(str(pv, {"metadata", "name"}), "pvc-0b7d5d6e-0000-4000-8000-000000000001");
  EXPECT_EQ(first_access_mode(pv, "spec"), "ReadWriteOnce") << "required: the claim's or RWO";
  EXPECT_EQ(str(pv, {"spec", "volumeMode"}), "Block");
  EXPECT_FALSE(json::find(pv, {"spec", "storageClassName"})) << "no class asked, none set";
  EXPECT_TRUE(json::find(pv, {"spec", "hostPath"})) << "exactly one volume source";
}

}  // namespace
}  // namespace capstan::simulator::testing
