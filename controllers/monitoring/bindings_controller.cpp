#include "controllers/monitoring/bindings_controller.h"

#include "apis/monitoring/v1/group.h"
#include "controllers/monitoring/acceptance.h"
#include "controllers/monitoring/env.h"
#include "controllers/monitoring/selection.h"
#include "runtime/cache/informer.h"
#include "runtime/controller/status.h"

#include <algorithm>
#include <chrono>

namespace capstan::monitoring {
namespace {

namespace v1 = apis::monitoring::v1;

// The schema's bound on status.bindings.
constexpr std::size_t kMaxBindings = 1024;

const v1::WorkloadBinding* find_binding(const std::vector<v1::WorkloadBinding>& bindings, std::string_view resource, std::string_view ns,
                                       std::string_view name) {
  for (const auto& b : bindings)
    if (b.group == v1::kGroup && b.resource == resource && b.namespace_ == ns && b.name == name) return &b;
  return nullptr;
}

// How often an object whose referenced value is missing is judged again.
constexpr std::chrono::minutes kMissingValueRetry{1};

// What Prometheus would refuse in the object, else the value it references that cannot be read
// (`missing_value` set).
std::string object_problems(Env& env, const BoundKind& kind, const json::Value& obj, bool& missing_value) {
  std::string why = kind.problems(obj);
  if (!why.empty() || !kind.refs) return why;
  AssetReader reader(env.client);
  std::string why_missing;
  try {
    Assets ignored;
    read_assets(reader, kind.refs(obj), ignored);
  } catch (const std::runtime_error& e) {
    missing_value = true;
    why_missing = e.what();
  }
  // A missing Secret that appears, or a value that changes, judges the object again at once.
  env.record_reads(kind.type.gvr.resource + "-bindings",
                   controller::Request{std::string(meta::namespace_of(obj)), std::string(meta::name_of(obj))}, reader.read_ids());
  return why_missing;
}

}  // namespace

const BoundKind& service_monitor_bindings() {
  static const BoundKind kind{kServiceMonitorType, [](Env& e) -> cache::Informer& { return e.service_monitors; },
                              &v1::PrometheusSpec::service_monitor_selector, &v1::PrometheusSpec::service_monitor_namespace_selector,
                              "serviceMonitorNamespaceSelector", service_monitor_problems,
                              [](const json::Value& o) { return asset_refs(v1::ServiceMonitor::from_json(o)); }};
  return kind;
}

const BoundKind& pod_monitor_bindings() {
  static const BoundKind kind{kPodMonitorType, [](Env& e) -> cache::Informer& { return e.pod_monitors; },
                              &v1::PrometheusSpec::pod_monitor_selector, &v1::PrometheusSpec::pod_monitor_namespace_selector,
                              "podMonitorNamespaceSelector", pod_monitor_problems,
                              [](const json::Value& o) { return asset_refs(v1::PodMonitor::from_json(o)); }};
  return kind;
}

const BoundKind& probe_bindings() {
  static const BoundKind kind{kProbeType, [](Env& e) -> cache::Informer& { return e.probes; }, &v1::PrometheusSpec::probe_selector,
                              &v1::PrometheusSpec::probe_namespace_selector, "probeNamespaceSelector", probe_problems,
                              [](const json::Value& o) { return asset_refs(v1::Probe::from_json(o)); }};
  return kind;
}

const BoundKind& scrape_config_bindings() {
  static const BoundKind kind{kScrapeConfigType, [](Env& e) -> cache::Informer& { return e.scrape_configs; },
                              &v1::PrometheusSpec::scrape_config_selector, &v1::PrometheusSpec::scrape_config_namespace_selector,
                              "scrapeConfigNamespaceSelector", scrape_config_problems,
                              [](const json::Value& o) { return asset_refs(v1::ScrapeConfig::from_json(o)); }};
  return kind;
}

const BoundKind& alertmanager_config_bindings() {
  static const BoundKind kind{kAlertmanagerConfigType,
                              [](Env& e) -> cache::Informer& { return e.alertmanager_configs; },
                              nullptr,
                              nullptr,
                              "alertmanagerConfigNamespaceSelector",
                              alertmanager_config_problems,
                              [](const json::Value& o) { return asset_refs(v1::AlertmanagerConfig::from_json(o)); },
                              /*alertmanagers=*/true};
  return kind;
}

const BoundKind& prometheus_rule_bindings() {
  static const BoundKind kind{kPrometheusRuleType, [](Env& e) -> cache::Informer& { return e.rules; }, &v1::PrometheusSpec::rule_selector,
                              &v1::PrometheusSpec::rule_namespace_selector, "ruleNamespaceSelector", prometheus_rule_problems};
  return kind;
}

namespace {

// How one workload judges an object: whether it selects it, whether it names a namespace
// selector, and (when selected) what it alone refuses (a Prometheus's missing scrape class).
struct Judgement {
  Choice choice = Choice::NotSelected;
  bool namespace_selector_set = false;
  std::string refusal;
};

// The workloads that may select objects of `kind`, each sorted by key: Alertmanagers for
// AlertmanagerConfigs; else the Prometheuses, then the PrometheusAgents (which select no rules).
struct Workload {
  cache::ObjectPtr object;
  const meta::ResourceType* type;
};
std::vector<Workload> workloads(Env& env, const BoundKind& kind) {
  std::vector<Workload> out;
  auto add = [&](cache::Informer& informer, const meta::ResourceType& type) {
    auto list = informer.list();
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a->key() < b->key(); });
    for (auto& o : list) out.push_back({std::move(o), &type});
  };
  if (kind.alertmanagers) {
    add(env.alertmanagers, kAlertmanagerType);
    return out;
  }
  add(env.prometheuses, kPrometheusType);
  if (&kind != &prometheus_rule_bindings()) add(env.prometheus_agents, kPrometheusAgentType);
  return out;
}

// Throws for an unreadable workload or selector (its own status says so; it selects nothing).
Judgement judge(Env& env, const BoundKind& kind, const Workload& w, const cache::CachedObject& obj, const json::Value& obj_json,
                const std::string& workload_name) {
  const std::string ns(w.object->ns());
  Judgement j;
  if (kind.alertmanagers) {
    const auto am = v1::Alertmanager::from_json(w.object->value());
    j.choice = Selection(env.namespaces, ns, am.spec.alertmanager_config_selector, am.spec.alertmanager_config_namespace_selector).judge(obj);
    j.namespace_selector_set = am.spec.alertmanager_config_namespace_selector.has_value();
    return j;
  }
  const auto prometheus = v1::Prometheus::from_json(w.object->value());  // an agent's fields are a subset of a Prometheus's
  j.choice = Selection(env.namespaces, ns, prometheus.spec.*kind.selector, prometheus.spec.*kind.namespace_selector).judge(obj);
  j.namespace_selector_set = (prometheus.spec.*kind.namespace_selector).has_value();
  if (j.choice == Choice::Selected) j.refusal = scrape_class_problem(prometheus.spec, obj_json, workload_name);
  return j;
}

}  // namespace

controller::Result reconcile_bindings(Env& env, const BoundKind& kind, const controller::Request& request, controller::Context& ctx) {
  auto cached = kind.informer(env).get(request.ns, request.name);
  if (!cached || cached->deleting()) return controller::Result::done();
  const json::Value before = cached->value();
  const std::int64_t generation = cached->generation();
  v1::ConfigResourceStatus previous;
  if (const auto* st = json::find(before, {"status"})) {
    try {
      previous = v1::ConfigResourceStatus::from_json(*st, "status");
    } catch (const apis::codec::DecodeError&) {
      // a status written around the schema is replaced whole
    }
  }

  std::optional<std::string> problems;  // judged once, when a workload selects the object
  bool missing_value = false;
  v1::ConfigResourceStatus status;
  for (const auto& w : workloads(env, kind)) {
    const auto& p = w.object;
    if (p->deleting()) continue;
    const std::string workload = w.type->kind + " " + std::string(p->ns()) + "/" + std::string(p->name());
    Judgement j;
    try {
      j = judge(env, kind, w, *cached, before, workload);
    } catch (const std::exception&) {
      continue;  // an unreadable workload or selector: its own status says so, and it selects nothing
    }
    if (j.choice == Choice::NotSelected) continue;
    if (status.bindings.size() == kMaxBindings) {
      ctx.log.warn("more workloads select this object than its status can name", {{"max", std::to_string(kMaxBindings)}});
      break;
    }
    v1::WorkloadBinding binding;
    binding.group = v1::kGroup;
    binding.resource = w.type->gvr.resource;
    binding.namespace_ = p->ns();
    binding.name = p->name();
    if (const auto* old = find_binding(previous.bindings, binding.resource, p->ns(), p->name())) binding.conditions = old->conditions;
    if (j.choice == Choice::NamespaceNotSelected) {
      std::string message = !j.namespace_selector_set ? workload + " looks only in its own namespace " + std::string(p->ns()) + " (spec." +
                                                            std::string(kind.namespace_selector_field) + " is not set)"
                                                      : "namespace " + request.ns + " is not chosen by spec." +
                                                            std::string(kind.namespace_selector_field) + " of " + workload;
      controller::set_condition(binding.conditions, v1::condition::kAccepted, "False", v1::reason::kNamespaceNotSelected, message, generation);
    } else {
      if (!problems) problems = object_problems(env, kind, before, missing_value);
      const std::string why = problems->empty() ? j.refusal : *problems;
      if (why.empty())
        controller::set_condition(binding.conditions, v1::condition::kAccepted, "True", v1::reason::kAcceptedReason, "loaded by " + workload,
                                  generation);
      else
        controller::set_condition(binding.conditions, v1::condition::kAccepted, "False", v1::reason::kInvalidConfiguration, why, generation);
    }
    status.bindings.push_back(std::move(binding));
  }
  controller::write_status(env.client, kind.type.gvr, before, status);
  // Secrets are not watched: a missing value is looked for again.
  return missing_value ? controller::Result::after(kMissingValueRetry) : controller::Result::done();
}

}  // namespace capstan::monitoring
