// Settings of the workload simulation (`capstan simulate-workloads`, and
// `capstan apiserver --simulate-workloads` which runs the same simulator in-process).
#pragma once

#include <chrono>
#include <string>

namespace capstan::simulator {

struct WorkloadOptions {
  // How long a started container takes to become ready (0: ready as soon as it runs).
  std::chrono::milliseconds pod_ready_delay{500};
  // The one fake node every pod is scheduled to (registered as a Node), and its address.
  std::string node_name = "capstan-node";
  std::string host_ip = "172.18.0.2";
  // Add each container's readinessProbe.initialDelaySeconds to the delay (off by default:
  // operators' probes often wait tens of seconds, which only slows tests down).
  bool honor_probe_delays = false;
  // How long start() waits for the first list of every watched resource.
  std::chrono::milliseconds sync_timeout{60000};
  // Client-side rate limit of the simulator's requests (<= 0: unlimited). The controllers
  // read through GET/LIST, not caches, so they need more than a cached controller would.
  double qps = 0;
  int burst = 100;
};

}  // namespace capstan::simulator
