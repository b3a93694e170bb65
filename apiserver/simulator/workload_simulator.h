// The stand-in for what kube-controller-manager, the scheduler, the kubelet and the volume
// provisioner do for workloads, as a client of any Kubernetes API server (the embedded one
// or kube-apiserver), so operators' readiness and rolling-update logic can run against it:
//   Deployments -> ReplicaSets -> Pods, StatefulSets -> Pods + ControllerRevisions + PVCs,
//   Pods -> bound to the simulated Node, Running/Ready; PVCs -> PersistentVolumes, Bound;
//   Services -> Endpoints + EndpointSlices.
// Every piece is a control loop on its own thread, triggered by shared informers (Watches)
// and reading and writing through the client. start() once; stop() ends the watches and
// joins the loops (a stopped simulator is not restarted).
#pragma once

#include "apiserver/simulator/workload_options.h"
#include "runtime/client/config.h"

#include <memory>

namespace capstan::simulator {

class WorkloadSimulator {
 public:
  // Connects with `config` (its own client; identity whatever the config holds).
  explicit WorkloadSimulator(client::Config config, WorkloadOptions options = {});
  ~WorkloadSimulator();
  WorkloadSimulator(const WorkloadSimulator&) = delete;
  WorkloadSimulator& operator=(const WorkloadSimulator&) = delete;

  // Registers the Node, starts the watches, waits (at most options.sync_timeout) until they
  // have listed, starts the loops and logs "workload simulation started". Throws when the
  // server cannot be reached or the watches do not sync in time.
  void start();
  void stop();
  const WorkloadOptions& options() const { return options_; }

 private:
  struct Parts;
  WorkloadOptions options_;
  std::unique_ptr<Parts> parts_;
  bool started_ = false;
};

}  // namespace capstan::simulator
