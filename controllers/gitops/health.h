// Whether an applied object is ready, with kstatus's rules (sigs.k8s.io/cli-utils, what Flux's
// health checks use):
//   - any object whose status.observedGeneration is behind metadata.generation is in progress;
//   - Deployments: updated, available and no old replicas left; ReplicaSets and DaemonSets:
//     ready and available; StatefulSets: ready, current and on the update revision (OnDelete:
//     observed); Jobs: Complete (Failed fails); Pods: Running and Ready or Succeeded (Failed
//     fails); PersistentVolumeClaims: Bound; LoadBalancer Services: an ingress address;
//     CustomResourceDefinitions: Established; Namespaces: not Terminating;
//   - every other kind, Capstan's own (Certificates, Prometheuses, Kafkas, ...) included, by its
//     conditions: Stalled=True fails, Reconciling=True or Ready!=True is in progress, no Ready
//     condition at all is current — except for Capstan's kinds, which always report one, so
//     without it their controller has not seen them yet.
#pragma once

#include "runtime/json/json.h"

#include <string>
#include <string_view>

namespace capstan::gitops {

enum class HealthStatus { kCurrent, kInProgress, kFailed };

struct Health {
  HealthStatus status = HealthStatus::kCurrent;
  std::string message;  // what it waits for, or why it failed
};

Health assess_health(const json::Value& obj);

// "Current", "InProgress", "Failed" (kstatus's names, as Flux's messages print them).
std::string_view to_string(HealthStatus s);

}  // namespace capstan::gitops
