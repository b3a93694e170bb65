// `capstan simulate-workloads`: the workload simulator (Deployments, StatefulSets, a kubelet
// and volume provisioner stand-in, Endpoints) as a client of any API server, until
// SIGTERM/SIGINT.
#pragma once

#include <string>
#include <vector>

namespace capstan::manager {

int simulate_workloads_command(const std::vector<std::string>& args);

}  // namespace capstan::manager
