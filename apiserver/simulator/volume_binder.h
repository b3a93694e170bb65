// The persistent-volume controller stand-in, with the dynamic provisioner and the
// pvc/pv-protection controllers a real cluster runs beside it:
//  * every PersistentVolumeClaim that is Pending gets a PersistentVolume "pvc-<claim uid>"
//    (hostPath, the requested capacity, access modes, volume mode and class, claimRef to the
//    claim, reclaim policy Delete) and is bound at once, as with a default StorageClass that
//    provisions immediately: spec.volumeName, the bind annotations, status Bound with the
//    capacity and access modes; the volume's status turns Bound too;
//  * a volume we provisioned whose claim is gone is deleted (reclaim policy Delete);
//  * the kubernetes.io/pvc-protection finalizer (added by kube-apiserver's admission) is
//    removed from a claim being deleted once no running pod mounts it, and
//    kubernetes.io/pv-protection from a volume being deleted once its claim is gone.
#pragma once

#include "apiserver/simulator/api.h"
#include "apiserver/simulator/loop.h"

namespace capstan::simulator {

inline constexpr std::string_view kProvisionedByAnnotation = "pv.kubernetes.io/provisioned-by";
inline constexpr std::string_view kSimulatedProvisioner = "workloads.capstan.dev/simulated";

// The PersistentVolume provisioned for `claim` (before it is written).
json::Value volume_for_claim(const json::Value& claim);

class VolumeBinder {
 public:
  VolumeBinder(client::Client& client, Watches& watches);
  void start();
  void stop() { loop_.stop(); }

 private:
  std::chrono::milliseconds reconcile(const Key& k);
  void sync_claim(const Key& k);
  void sync_volume(const Key& k);
  // The protection finalizer goes once no pod that is not finished mounts the claim.
  void release_claim(const json::Value& claim);
  void provision(const json::Value& claim, const std::string& volume);

  Api api_;
  Loop loop_;
};

}  // namespace capstan::simulator
