#include "controllers/monitoring/plugin.h"

#include "apis/monitoring/v1/crds.h"
#include "apis/monitoring/v1/group.h"
#include "controllers/monitoring/alertmanager_controller.h"
#include "controllers/monitoring/bindings_controller.h"
#include "controllers/monitoring/objects.h"
#include "controllers/monitoring/prometheus_controller.h"
#include "controllers/monitoring/references.h"
#include "runtime/cache/factory.h"
#include "runtime/cache/informer.h"
#include "runtime/controller/manager.h"
#include "runtime/events/recorder.h"
#include "runtime/meta/selector.h"
#include "runtime/plugin/kept_objects.h"
#include "webhooks/monitoring/webhooks.h"

namespace capstan::monitoring {

std::shared_ptr<Env> wire_monitoring(controller::Manager& mgr, MonitoringOptions options) {
  auto env = std::make_shared<Env>(mgr.client(), mgr.informer(kPrometheusType), mgr.informer(kPrometheusAgentType),
                                   mgr.informer(kServiceMonitorType), mgr.informer(kPodMonitorType),
                                   mgr.informer(kPrometheusRuleType), mgr.informer(kNamespaceType),
                                   Env::Scrapes{mgr.informer(kProbeType), mgr.informer(kScrapeConfigType)},
                                   Env::Owned{mgr.informer(kStatefulSetType, kOwnedSelector), mgr.informer(kConfigMapType, kOwnedSelector),
                                              mgr.informer(kSecretType, kOwnedSelector), mgr.informer(kServiceType, kOwnedSelector)},
                                   Env::Alerting{mgr.informer(kAlertmanagerType), mgr.informer(kAlertmanagerConfigType)}, options);
  if (env->options.record_events)
    env->recorder = std::make_unique<events::Recorder>(mgr.event_client(), events::Source{std::string(kEventComponent), ""});

  // A changed Secret or ConfigMap wakes the objects that read it (references.h); the watches run
  // on the leader only, as the controllers they wake.
  env->references = std::make_unique<ReferencedObjects>(mgr.client());
  ReferencedObjects* refs = env->references.get();
  mgr.add_leader_runnable("monitoring-references", [refs] { refs->start(); }, [refs] { refs->stop(); });
  // A deleted reader reads nothing any more.
  auto forget_on_delete = [refs](cache::Informer& informer, std::string name) {
    informer.add_handlers(cache::Handlers{nullptr, nullptr, [refs, name](const cache::ObjectPtr& o) {
      refs->record(name, controller::Request{std::string(o->ns()), std::string(o->name())}, {});
    }});
  };

  // A change to any monitor, rule or namespace may change what a Prometheus (or agent) selects:
  // every one regenerates (as prometheus-operator's enqueueForNamespace), which costs a config
  // build; children whose content did not change are not sent (controller::apply_if_changed).
  Env* e = env.get();
  // What a monitor or rule contributes is its spec and whether its labels select it; its status
  // (the bindings written below) changes nothing.
  const auto spec_or_labels = controller::any_of({controller::generation_changed(), controller::labels_changed()});
  cache::InformerOptions owned;
  owned.label_selector = std::string(kOwnedSelector);
  struct Server {
    std::string name;
    const meta::ResourceType& type;
    cache::Informer& informer;
    controller::Result (*reconcile)(Env&, const controller::Request&, controller::Context&);
  };
  for (const Server& s : {Server{"prometheus", kPrometheusType, e->prometheuses, reconcile_prometheus},
                          Server{"prometheus-agent", kPrometheusAgentType, e->prometheus_agents, reconcile_prometheus_agent}}) {
    cache::Informer* informer = &s.informer;
    auto every = [informer](const cache::ObjectPtr&) {
      std::vector<controller::Request> out;
      for (const auto& p : informer->list()) out.push_back({std::string(p->ns()), std::string(p->name())});
      return out;
    };
    controller::Builder builder = mgr.controller(s.name);
    builder.for_(s.type, {controller::generation_changed()})
        .owns(kStatefulSetType, {}, owned)
        .owns(kSecretType, {controller::resource_version_changed()}, owned)
        .watches(kServiceMonitorType, every, {spec_or_labels})
        .watches(kPodMonitorType, every, {spec_or_labels})
        .watches(kProbeType, every, {spec_or_labels})
        .watches(kScrapeConfigType, every, {spec_or_labels})
        .watches(kNamespaceType, every, {controller::labels_changed()});
    if (&s.type == &kPrometheusType)  // an agent has no rules
      builder.owns(kConfigMapType, {controller::resource_version_changed()}, owned).watches(kPrometheusRuleType, every, {spec_or_labels});
    controller::Controller& c =
        builder.with_max_concurrent(env->options.max_concurrent_reconciles)
            .records_faults(std::string(apis::monitoring::v1::condition::kReconciled), env->recorder.get())
            .complete([env, reconcile = s.reconcile](const controller::Request& r, controller::Context& c) { return reconcile(*env, r, c); });
    refs->attach(s.name, c);
    forget_on_delete(s.informer, s.name);
  }

  // Alertmanagers: a change to an AlertmanagerConfig or a namespace's labels may change what each
  // selects; the configuration is assembled again and sent only when it changed.
  auto every_alertmanager = [e](const cache::ObjectPtr&) {
    std::vector<controller::Request> out;
    for (const auto& a : e->alertmanagers.list()) out.push_back({std::string(a->ns()), std::string(a->name())});
    return out;
  };
  controller::Controller& alertmanagers = mgr.controller("alertmanager")
      .for_(kAlertmanagerType, {controller::generation_changed()})
      .owns(kStatefulSetType, {}, owned)
      .owns(kSecretType, {controller::resource_version_changed()}, owned)
      .watches(kAlertmanagerConfigType, every_alertmanager, {spec_or_labels})
      .watches(kNamespaceType, every_alertmanager, {controller::labels_changed()})
      .with_max_concurrent(env->options.max_concurrent_reconciles)
      .records_faults(std::string(apis::monitoring::v1::condition::kReconciled), env->recorder.get())
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_alertmanager(*env, r, c); });
  refs->attach("alertmanager", alertmanagers);
  forget_on_delete(e->alertmanagers, "alertmanager");

  // The status.bindings of every monitor and rule (bindings_controller.h).
  for (const auto* kind : {&service_monitor_bindings(), &pod_monitor_bindings(), &probe_bindings(), &scrape_config_bindings(),
                            &prometheus_rule_bindings(), &alertmanager_config_bindings()}) {
    auto every_object = [e, kind](const cache::ObjectPtr&) {
      std::vector<controller::Request> out;
      for (const auto& o : kind->informer(*e).list()) out.push_back({std::string(o->ns()), std::string(o->name())});
      return out;
    };
    controller::Builder builder = mgr.controller(kind->type.gvr.resource + "-bindings");
    builder.for_(kind->type, {spec_or_labels}).watches(kNamespaceType, every_object, {controller::labels_changed()});
    // The workloads that may select it.
    for (const auto* workload : kind->alertmanagers ? std::vector<const meta::ResourceType*>{&kAlertmanagerType}
                                                    : std::vector<const meta::ResourceType*>{&kPrometheusType, &kPrometheusAgentType})
      builder.watches(*workload, every_object, {controller::generation_changed()});
    const std::string name = kind->type.gvr.resource + "-bindings";
    refs->attach(name, builder.complete([env, kind](const controller::Request& r, controller::Context& c) {
      return reconcile_bindings(*env, *kind, r, c);
    }));
    forget_on_delete(kind->informer(*e), name);
  }

  if (env->recorder) mgr.add_server("monitoring-events", [] {}, [env] { env->recorder->stop(); });
  return env;
}

namespace {

// The PodMonitor the monitoring controller keeps for the manager itself: its pods (`selector`) in
// its namespace, scraped on their metrics port; the certificates metrics keep their own
// `namespace` label (honorLabels), which the certificates' alert rules group by.
json::Value manager_pod_monitor(const std::string& ns, const meta::Labels& selector, const meta::Labels& labels) {
  json::Object l{{"app.kubernetes.io/managed-by", std::string(kManagedBy)}};
  for (const auto& [k, v] : labels) l[k] = v;
  json::Object match;
  for (const auto& [k, v] : selector) match[k] = v;
  return json::Object{{"apiVersion", apis::monitoring::v1::kApiVersion},
                      {"kind", apis::monitoring::v1::kPodMonitorKind},
                      {"metadata", json::Object{{"name", "capstan-manager"}, {"namespace", ns}, {"labels", std::move(l)}}},
                      {"spec", json::Object{{"selector", json::Object{{"matchLabels", std::move(match)}}},
                                            {"podMetricsEndpoints", json::Array{json::Object{{"port", "metrics"}, {"honorLabels", true}}}}}}};
}

}  // namespace

plugin::Plugin plugin() {
  struct Flags {
    meta::Labels self_selector, self_labels;
  };
  auto settings = std::make_shared<Flags>();
  return plugin::Plugin("monitoring")
      .alias("prometheus-operator")
      .describe("The monitoring stack (prometheus-operator's Prometheus, PrometheusAgent, ServiceMonitor, PodMonitor, Probe, ScrapeConfig, "
                "PrometheusRule, Alertmanager and AlertmanagerConfig under monitoring.capstan.dev): generated scrape configuration, rule files and Alertmanager "
                "configuration, the Prometheus and Alertmanager StatefulSets and their status")
      .crds(apis::monitoring::v1::crds)
      .permits({"monitoring.capstan.dev"},
               {"prometheuses/status", "prometheusagents/status", "servicemonitors/status", "podmonitors/status", "probes/status", "scrapeconfigs/status",
                "prometheusrules/status", "alertmanagers/status", "alertmanagerconfigs/status"},
               {"get", "update", "patch"})
      .permits({"apps"}, {"statefulsets"}, {"create", "update", "patch", "delete"})
      .permits({""}, {"secrets", "configmaps", "services"}, {"get", "list", "watch", "create", "update", "patch", "delete"})
      .permits({""}, {"events"}, {"create", "patch"})
      // The manager's own PodMonitor (server-side apply).
      .permits({"monitoring.capstan.dev"}, {"podmonitors"}, {"get", "create", "patch"})
      .flags([settings](flags::FlagSet& fs) {
        fs.add_custom(
            "monitoring-self-monitor-selector", [settings](const std::string& v) { settings->self_selector = meta::parse_labels(v); },
            "labels of the manager's own pods (k=v,...): keep the PodMonitor capstan-manager in the manager's namespace, which "
            "scrapes their metrics port (empty: none)",
            "");
        fs.add_custom(
            "monitoring-self-monitor-labels", [settings](const std::string& v) { settings->self_labels = meta::parse_labels(v); },
            "labels of that PodMonitor (k=v,...), for your Prometheus's podMonitorSelector", "");
      })
      .webhooks({webhooks::monitoring::configurations, [](plugin::Wiring& w) { webhooks::monitoring::register_webhooks(w.webhooks); }})
      .setup([settings](plugin::Wiring& w) {
        wire_monitoring(w.manager, MonitoringOptions{});
        if (!settings->self_selector.empty())
          plugin::add_kept_objects(w.manager, "monitoring-self-monitor",
                                   {manager_pod_monitor(w.env.pod_namespace, settings->self_selector, settings->self_labels)},
                                   std::string(kManagedBy));
      });
}

}  // namespace capstan::monitoring
