#include "controllers/kafka/descriptor.h"

#include "apis/kafka/v1/crds.h"
#include "apis/kafka/v1/group.h"
#include "controllers/kafka/kafka_controller.h"
#include "runtime/cache/factory.h"
#include "runtime/cache/informer.h"
#include "runtime/controller/manager.h"
#include "runtime/meta/object.h"

namespace capstan::kafka {
namespace {

// Spec changes and the pause annotation; not the controller's own status writes.
controller::Predicate spec_or_pause_changed() {
  controller::Predicate p;
  p.update = [](const cache::ObjectPtr& a, const cache::ObjectPtr& b) {
    if (a->generation() != b->generation()) return true;
    return meta::annotation(a->value(), apis::kafka::v1::kPauseAnnotation) != meta::annotation(b->value(), apis::kafka::v1::kPauseAnnotation);
  };
  return p;
}

}  // namespace

std::shared_ptr<Env> wire_kafka(controller::Manager& mgr, KafkaOptions options) {
  auto env = std::shared_ptr<Env>(
      new Env{mgr.client(), mgr.informer(kKafkaType), mgr.informer(kNodePoolType), mgr.informer(kPodType, kPodSelector), options});
  cache::InformerOptions pods;
  pods.label_selector = std::string(kPodSelector);
  mgr.controller("kafka")
      .for_(kKafkaType, {spec_or_pause_changed()})
      .owns(kPodType, {}, pods)
      // A pool belongs to the cluster its label names.
      .watches(kNodePoolType,
               [](const cache::ObjectPtr& o) {
                 std::string cluster(o->label(apis::kafka::v1::kClusterLabel));
                 if (cluster.empty()) return std::vector<controller::Request>{};
                 return std::vector<controller::Request>{{std::string(o->ns()), cluster}};
               },
               {controller::any_of({controller::generation_changed(), controller::labels_changed()})})
      .with_max_concurrent(options.max_concurrent_reconciles)
      .records_faults("Ready")
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_kafka(*env, r, c); });
  return env;
}

manager::ControllerDescriptor kafka_descriptor() {
  manager::ControllerDescriptor d;
  d.name = "kafka";
  d.aliases = {"strimzi"};
  d.default_on = true;
  d.description =
      "Kafka clusters (Strimzi's Kafka and KafkaNodePool under kafka.capstan.dev, KRaft): node IDs, per-node "
      "configuration, pods rolled one at a time, Services and status";
  d.crds = [] { return apis::kafka::v1::crds(); };
  d.informers = [] {
    return std::vector<manager::InformerNeed>{{kKafkaType, ""}, {kNodePoolType, ""}, {kPodType, std::string(kPodSelector)}};
  };
  d.rbac_rules = [] {
    return json::Array{
        manager::rbac_rule({"kafka.capstan.dev"}, {"kafkas", "kafkanodepools"}, {"get", "list", "watch"}),
        manager::rbac_rule({"kafka.capstan.dev"}, {"kafkas/status", "kafkanodepools/status"}, {"get", "update", "patch"}),
        manager::rbac_rule({""}, {"pods"}, {"get", "list", "watch", "create", "update", "patch", "delete"}),
        manager::rbac_rule({""}, {"services", "configmaps", "persistentvolumeclaims"}, {"get", "create", "update", "patch", "delete"}),
    };
  };
  d.wire = [](controller::Manager& mgr, webhook::Server&, const manager::Settings&) { wire_kafka(mgr, KafkaOptions{}); };
  return d;
}

}  // namespace capstan::kafka
