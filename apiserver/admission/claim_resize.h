// kube-apiserver's PersistentVolumeClaimResize admission plugin: a claim's storage request may
// only grow when the claim's StorageClass (spec.storageClassName, else the beta annotation)
// exists and allows volume expansion. Refusals are kube's: 403 `persistentvolumeclaims "c" is
// forbidden: only dynamically provisioned pvc can be resized and the storageclass that
// provisions the pvc must support resize`.
#pragma once

#include "apiserver/rest/hooks.h"
#include "apiserver/storage/store.h"

namespace capstan::apiserver::admission {

class ClaimResizeAdmission : public rest::WriteGuard {
 public:
  explicit ClaimResizeAdmission(const storage::Store& store) : store_(store) {}
  void check(const rest::AdmissionAttributes& a, const json::Value& obj) override;
  bool after_validation() const override { return true; }

 private:
  const storage::Store& store_;
};

}  // namespace capstan::apiserver::admission
