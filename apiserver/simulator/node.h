// The simulated kubelet's Node: registered (or refreshed) when the simulator starts, Ready,
// with the addresses, capacity and labels that `kubectl get nodes` and node-label readers
// (topology spread, zone-aware operators) look at. No heartbeats: nothing here evicts pods.
#pragma once

#include "apiserver/simulator/api.h"
#include "apiserver/simulator/workload_options.h"

namespace capstan::simulator {

// Creates the Node when missing and writes its status (Ready).
void register_node(Api& api, const WorkloadOptions& options);

}  // namespace capstan::simulator
