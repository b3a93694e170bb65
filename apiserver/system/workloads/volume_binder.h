// The persistent-volume controller stand-in: every PersistentVolumeClaim that is Pending
// is bound at once (as with a default StorageClass that provisions immediately):
// spec.volumeName "pvc-<uid>", the bind annotations, and status phase Bound with the
// requested capacity and access modes. No PersistentVolume objects exist here (the
// resource is not served).
#pragma once

#include "apiserver/rest/service.h"
#include "apiserver/system/loop.h"
#include "apiserver/system/workloads/writer.h"

namespace capstan::apiserver::system::workloads {

class VolumeBinder {
 public:
  explicit VolumeBinder(rest::Service& service);
  void start();
  void stop() { loop_.stop(); }

 private:
  std::chrono::milliseconds reconcile(const Key& k);
  rest::Service& service_;
  Writer writer_;
  Loop loop_;
};

}  // namespace capstan::apiserver::system::workloads
