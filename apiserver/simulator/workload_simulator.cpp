#include "apiserver/simulator/workload_simulator.h"

#include "apiserver/simulator/deployment_controller.h"
#include "apiserver/simulator/endpoints_controller.h"
#include "apiserver/simulator/endpointslice_controller.h"
#include "apiserver/simulator/kubelet.h"
#include "apiserver/simulator/node.h"
#include "apiserver/simulator/replicaset_controller.h"
#include "apiserver/simulator/statefulset_controller.h"
#include "apiserver/simulator/volume_binder.h"
#include "runtime/client/client.h"
#include "runtime/log/log.h"
#include "runtime/metrics/registry.h"

namespace capstan::simulator {
namespace {

client::Config paced(client::Config c, const WorkloadOptions& o) {
  c.qps = o.qps;
  c.burst = o.burst;
  return c;
}

client::ClientOptions client_options(metrics::Registry& registry) {
  client::ClientOptions o;
  o.registry = &registry;  // in-process (capstan dev), its requests are not the manager's
  o.deduplicate_warnings = true;  // every Endpoints request is "deprecated" on kube-apiserver 1.33+
  return o;
}

}  // namespace

struct WorkloadSimulator::Parts {
  Parts(client::Config config, const WorkloadOptions& o)
      : client(paced(std::move(config), o), client_options(metrics)),
        watches(client),
        kubelet(client, watches, o),
        binder(client, watches),
        replicasets(client, watches),
        deployments(client, watches),
        statefulsets(client, watches),
        endpoints(client, watches),
        slices(client, watches) {}
  metrics::Registry metrics;
  client::Client client;
  Watches watches;
  Kubelet kubelet;
  VolumeBinder binder;
  ReplicaSetController replicasets;
  DeploymentController deployments;
  StatefulSetController statefulsets;
  EndpointsController endpoints;
  EndpointSliceController slices;
};

WorkloadSimulator::WorkloadSimulator(client::Config config, WorkloadOptions options)
    : options_(std::move(options)), parts_(std::make_unique<Parts>(std::move(config), options_)) {}

WorkloadSimulator::~WorkloadSimulator() { stop(); }

void WorkloadSimulator::start() {
  if (started_) return;
  started_ = true;
  auto& p = *parts_;
  Api kubelet(p.client, "kubelet");
  register_node(kubelet, options_);
  p.kubelet.start();
  p.binder.start();
  p.replicasets.start();
  p.deployments.start();
  p.statefulsets.start();
  p.endpoints.start();
  p.slices.start();
  p.watches.start();
  if (!p.watches.wait_for_sync(options_.sync_timeout)) {
    stop();
    throw std::runtime_error("workload simulator: watches of " + p.client.config().server + " did not sync within " +
                             std::to_string(options_.sync_timeout.count()) + " ms");
  }
  log::info("workload simulation started", {{"server", p.client.config().server},
                                            {"node", options_.node_name},
                                            {"podReadyDelayMs", static_cast<long long>(options_.pod_ready_delay.count())}});
}

void WorkloadSimulator::stop() {
  if (!parts_) return;
  auto& p = *parts_;
  // No more events first, then the controllers, the kubelet last.
  p.watches.stop();
  p.slices.stop();
  p.endpoints.stop();
  p.statefulsets.stop();
  p.deployments.stop();
  p.replicasets.stop();
  p.binder.stop();
  p.kubelet.stop();
}

}  // namespace capstan::simulator
