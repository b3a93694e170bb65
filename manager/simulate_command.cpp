#include "manager/simulate_command.h"

#include "apiserver/simulator/workload_simulator.h"
#include "manager/flags.h"
#include "manager/signals.h"
#include "runtime/client/config.h"
#include "runtime/log/log.h"

#include <iostream>

namespace capstan::manager {

int simulate_workloads_command(const std::vector<std::string>& args) {
  simulator::WorkloadOptions o;
  o.pod_ready_delay = std::chrono::seconds(1);
  std::string kubeconfig, log_format = "text";
  long long verbosity = 0;
  FlagSet fs("capstan simulate-workloads");
  fs.add_string("kubeconfig", &kubeconfig, "path to a kubeconfig; default $KUBECONFIG, then in-cluster, then ~/.kube/config");
  fs.add_duration("pod-ready-delay", &o.pod_ready_delay, "how long a Pod takes to become Ready", "1s");
  fs.add_string("node-name", &o.node_name, "the simulated Node every Pod is scheduled to");
  fs.add_string("log-format", &log_format, "log format: text or json");
  fs.add_int("v", &verbosity, "log verbosity (0 info, 1-3 debug, 4+ trace)");
  auto positional = fs.parse(args);
  if (fs.help_requested()) {
    std::cout << "Simulates what kube-controller-manager, the scheduler, the kubelet and a volume provisioner do for\n"
                 "workloads (Deployments, ReplicaSets, StatefulSets, Pods turning Ready, PersistentVolumeClaims,\n"
                 "Endpoints and EndpointSlices) against any Kubernetes API server.\n\n"
                 "Usage:\n  capstan simulate-workloads [flags]\n\n"
              << fs.usage();
    return 0;
  }
  if (!positional.empty()) throw UsageError("unexpected argument \"" + positional[0] + "\"");
  if (o.node_name.empty()) throw UsageError("--node-name must not be empty");
  check_log_format(log_format);
  log::init(log::parse_format(log_format), static_cast<int>(verbosity));
  simulator::WorkloadSimulator sim(client::load_config(kubeconfig), o);
  sim.start();
  int sig = wait_for_termination();
  log::info("shutting down", {{"signal", sig}});
  sim.stop();
  return 0;
}

}  // namespace capstan::manager
