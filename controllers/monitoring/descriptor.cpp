#include "controllers/monitoring/descriptor.h"

#include "apis/monitoring/v1/crds.h"
#include "apis/monitoring/v1/group.h"
#include "controllers/monitoring/prometheus_controller.h"
#include "runtime/cache/factory.h"
#include "runtime/cache/informer.h"
#include "runtime/controller/manager.h"
#include "runtime/events/recorder.h"

namespace capstan::monitoring {

std::shared_ptr<Env> wire_monitoring(controller::Manager& mgr, MonitoringOptions options) {
  auto env = std::make_shared<Env>(mgr.client(), mgr.informer(kPrometheusType), mgr.informer(kServiceMonitorType), mgr.informer(kPodMonitorType),
                                   mgr.informer(kPrometheusRuleType), mgr.informer(kNamespaceType),
                                   mgr.informer(kStatefulSetType, kOwnedSelector), options);
  if (env->options.record_events)
    env->recorder = std::make_unique<events::Recorder>(mgr.client(), events::Source{std::string(kEventComponent), ""});

  // A change to any monitor, rule or namespace may change what a Prometheus selects: every
  // Prometheus regenerates (as prometheus-operator's enqueueForNamespace), which costs a config
  // build and no-op applies when nothing changed.
  Env* e = env.get();
  auto every_prometheus = [e](const cache::ObjectPtr&) {
    std::vector<controller::Request> out;
    for (const auto& p : e->prometheuses.list()) out.push_back({std::string(p->ns()), std::string(p->name())});
    return out;
  };
  cache::InformerOptions owned;
  owned.label_selector = std::string(kOwnedSelector);
  mgr.controller("prometheus")
      .for_(kPrometheusType, {controller::generation_changed()})
      .owns(kStatefulSetType, {}, owned)
      .watches(kServiceMonitorType, every_prometheus, {controller::resource_version_changed()})
      .watches(kPodMonitorType, every_prometheus, {controller::resource_version_changed()})
      .watches(kPrometheusRuleType, every_prometheus, {controller::resource_version_changed()})
      .watches(kNamespaceType, every_prometheus, {controller::labels_changed()})
      .with_max_concurrent(env->options.max_concurrent_reconciles)
      .records_faults(std::string(apis::monitoring::v1::condition::kReconciled), env->recorder.get())
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_prometheus(*env, r, c); });

  if (env->recorder) mgr.add_server("monitoring-events", [] {}, [env] { env->recorder->stop(); });
  return env;
}

manager::ControllerDescriptor monitoring_descriptor() {
  manager::ControllerDescriptor d;
  d.name = "monitoring";
  d.aliases = {"prometheus-operator"};
  d.default_on = true;
  d.description =
      "The monitoring stack (prometheus-operator's Prometheus, ServiceMonitor, PodMonitor and PrometheusRule under "
      "monitoring.capstan.dev): generated scrape configuration and rule files, the Prometheus StatefulSet and its status";
  d.crds = [] { return apis::monitoring::v1::crds(); };
  d.informers = [] {
    return std::vector<manager::InformerNeed>{{kPrometheusType, ""},     {kServiceMonitorType, ""}, {kPodMonitorType, ""},
                                              {kPrometheusRuleType, ""}, {kNamespaceType, ""},
                                              {kStatefulSetType, std::string(kOwnedSelector)}};
  };
  d.rbac_rules = [] {
    return json::Array{
        manager::rbac_rule({"monitoring.capstan.dev"}, {"prometheuses", "servicemonitors", "podmonitors", "prometheusrules"},
             {"get", "list", "watch"}),
        manager::rbac_rule({"monitoring.capstan.dev"}, {"prometheuses/status"}, {"get", "update", "patch"}),
        manager::rbac_rule({"apps"}, {"statefulsets"}, {"get", "list", "watch", "create", "update", "patch", "delete"}),
        manager::rbac_rule({""}, {"secrets", "configmaps", "services"}, {"get", "create", "update", "patch", "delete"}),
        manager::rbac_rule({""}, {"namespaces"}, {"get", "list", "watch"}),
        manager::rbac_rule({""}, {"events"}, {"create", "patch"}),
    };
  };
  d.wire = [](controller::Manager& mgr, webhook::Server&, const manager::Settings&) { wire_monitoring(mgr, MonitoringOptions{}); };
  return d;
}

}  // namespace capstan::monitoring
