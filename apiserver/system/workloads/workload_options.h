// Settings of the workload simulation (--simulate-workloads).
#pragma once

#include <chrono>
#include <string>

namespace capstan::apiserver::system {

struct WorkloadOptions {
  // How long a started container takes to become ready (0: ready as soon as it runs).
  std::chrono::milliseconds pod_ready_delay{500};
  // The one fake node every pod is scheduled to, and its address.
  std::string node_name = "capstan-node";
  std::string host_ip = "172.18.0.2";
  // Add each container's readinessProbe.initialDelaySeconds to the delay (off by default:
  // operators' probes often wait tens of seconds, which only slows tests down).
  bool honor_probe_delays = false;
};

}  // namespace capstan::apiserver::system
