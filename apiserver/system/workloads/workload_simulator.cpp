#include "apiserver/system/workloads/workload_simulator.h"

#include "apiserver/system/workloads/deployment_controller.h"
#include "apiserver/system/workloads/endpoints_controller.h"
#include "apiserver/system/workloads/endpointslice_controller.h"
#include "apiserver/system/workloads/kubelet.h"
#include "apiserver/system/workloads/replicaset_controller.h"
#include "apiserver/system/workloads/statefulset_controller.h"
#include "apiserver/system/workloads/volume_binder.h"
#include "runtime/log/log.h"

namespace capstan::apiserver::system {

struct WorkloadSimulator::Loops {
  Loops(rest::Service& s, const WorkloadOptions& o)
      : kubelet(s, o), binder(s), replicasets(s), deployments(s), statefulsets(s), endpoints(s), slices(s) {}
  workloads::Kubelet kubelet;
  workloads::VolumeBinder binder;
  workloads::ReplicaSetController replicasets;
  workloads::DeploymentController deployments;
  workloads::StatefulSetController statefulsets;
  workloads::EndpointsController endpoints;
  workloads::EndpointSliceController slices;
};

WorkloadSimulator::WorkloadSimulator(rest::Service& service, WorkloadOptions options)
    : service_(service), options_(std::move(options)), loops_(std::make_unique<Loops>(service_, options_)) {}

WorkloadSimulator::~WorkloadSimulator() { stop(); }

void WorkloadSimulator::start() {
  if (started_) return;
  started_ = true;
  loops_->kubelet.start();
  loops_->binder.start();
  loops_->replicasets.start();
  loops_->deployments.start();
  loops_->statefulsets.start();
  loops_->endpoints.start();
  loops_->slices.start();
  log::info("workload simulation started", {{"node", options_.node_name},
                                            {"podReadyDelayMs", static_cast<long long>(options_.pod_ready_delay.count())}});
}

void WorkloadSimulator::stop() {
  if (!loops_) return;
  // Controllers first, the kubelet last (nothing new to run once they are gone).
  loops_->slices.stop();
  loops_->endpoints.stop();
  loops_->statefulsets.stop();
  loops_->deployments.stop();
  loops_->replicasets.stop();
  loops_->binder.stop();
  loops_->kubelet.stop();
}

}  // namespace capstan::apiserver::system
