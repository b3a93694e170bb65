// --simulate-workloads: the stand-in for what kube-controller-manager, the scheduler, the
// kubelet and the volume binder do for workloads, so operators' readiness and
// rolling-update logic can run against the embedded API server:
//   Deployments -> ReplicaSets -> Pods, StatefulSets -> Pods + ControllerRevisions + PVCs,
//   Pods -> Running/Ready, PVCs -> Bound, Services -> Endpoints + EndpointSlices.
// Every piece is a watch-driven control loop on its own thread writing through
// rest::Service. start() once; stop() joins the loops (a stopped simulator is not
// restarted).
#pragma once

#include "apiserver/rest/service.h"
#include "apiserver/system/workloads/workload_options.h"

#include <memory>

namespace capstan::apiserver::system {

class WorkloadSimulator {
 public:
  WorkloadSimulator(rest::Service& service, WorkloadOptions options = {});
  ~WorkloadSimulator();
  WorkloadSimulator(const WorkloadSimulator&) = delete;
  WorkloadSimulator& operator=(const WorkloadSimulator&) = delete;

  void start();
  void stop();
  const WorkloadOptions& options() const { return options_; }

 private:
  struct Loops;
  rest::Service& service_;
  WorkloadOptions options_;
  std::unique_ptr<Loops> loops_;
  bool started_ = false;
};

}  // namespace capstan::apiserver::system
