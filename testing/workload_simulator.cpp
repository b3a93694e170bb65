#include "testing/workload_simulator.h"

#include "testing/cluster.h"

#include <stdexcept>

namespace capstan::e2e {

std::unique_ptr<Process> start_workload_simulator(const std::string& dir, const std::string& kubeconfig,
                                                  std::chrono::milliseconds pod_ready_delay) {
  Process::Options po;
  po.args = {capstan_bin(), "simulate-workloads", "--kubeconfig=" + kubeconfig,
             "--pod-ready-delay=" + std::to_string(pod_ready_delay.count()) + "ms"};
  po.stdout_path = dir + "/simulator.out";
  po.stderr_path = dir + "/simulator.log";
  auto p = std::make_unique<Process>(po);
  bool up = eventually([&] { return !p->running() || p->err().find("workload simulation started") != std::string::npos; },
                       std::chrono::seconds(30));
  if (!up || !p->running())
    throw std::runtime_error("capstan simulate-workloads did not start (" + std::string(up ? "exited" : "not synced in 30 s") +
                             "): " + p->err());
  return p;
}

}  // namespace capstan::e2e
