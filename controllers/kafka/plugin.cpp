#include "controllers/kafka/plugin.h"

#include "apis/kafka/v1/crds.h"
#include "apis/kafka/v1/group.h"
#include "controllers/kafka/kafka_controller.h"
#include "runtime/cache/factory.h"
#include "runtime/cache/informer.h"
#include "runtime/controller/manager.h"
#include "runtime/meta/object.h"
#include "webhooks/kafka/webhooks.h"

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

plugin::Plugin plugin() {
  return plugin::Plugin("kafka")
      .alias("strimzi")
      .describe("Kafka clusters (Strimzi's Kafka and KafkaNodePool under kafka.capstan.dev, KRaft): node IDs, per-node "
                "configuration, pods rolled one at a time, Services, a PodDisruptionBudget and status")
      .crds(apis::kafka::v1::crds)
      .permits({"kafka.capstan.dev"}, {"kafkas/status", "kafkanodepools/status"}, {"get", "update", "patch"})
      .permits({""}, {"pods"}, {"create", "update", "patch", "delete"})
      .permits({""}, {"services", "configmaps", "persistentvolumeclaims"}, {"get", "create", "update", "patch", "delete"})
      .permits({"policy"}, {"poddisruptionbudgets"}, {"get", "create", "update", "patch", "delete"})
      .webhooks({webhooks::kafka::configurations, [](plugin::Wiring& w) { webhooks::kafka::register_webhooks(w.webhooks); },
                 {{kKafkaType.gvr.resource + "." + kKafkaType.gvr.group, webhooks::kafka::conversion_path()}}})
      .setup([](plugin::Wiring& w) { wire_kafka(w.manager, KafkaOptions{}); });
}

}  // namespace capstan::kafka
