// `capstan simulate-workloads` beside a test's API server, on either backend: the stand-in
// for the kubelet, the scheduler, the volume binder and kube-controller-manager's workload
// loops (Deployments, ReplicaSets, StatefulSets, Endpoints, EndpointSlices).
#pragma once

#include "testing/process.h"

#include <chrono>
#include <memory>
#include <string>

namespace capstan::e2e {

// Starts it against `kubeconfig` (its log in DIR/simulator.log) and waits, bounded, until its
// informers synced; throws with its output when it does not get there.
std::unique_ptr<Process> start_workload_simulator(const std::string& dir, const std::string& kubeconfig,
                                                  std::chrono::milliseconds pod_ready_delay);

}  // namespace capstan::e2e
