#include "controllers/monitoring/prometheus_controller.h"

#include "apis/monitoring/v1/group.h"
#include "apis/monitoring/v1/types.h"
#include "controllers/monitoring/env.h"
#include "controllers/monitoring/objects.h"
#include "controllers/monitoring/promcfg.h"
#include "controllers/monitoring/rules.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/controller/status.h"
#include "runtime/events/event.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/object.h"
#include "runtime/meta/selector.h"

#include <algorithm>

namespace capstan::monitoring {
namespace {

namespace v1 = apis::monitoring::v1;
using controller::set_condition;

meta::Labels labels_of(const cache::CachedObject& o) {
  meta::Labels out;
  for (std::size_t i = 0; i < o.label_count(); ++i) {
    auto [k, v] = o.label(i);
    out.emplace(std::string(k), std::string(v));
  }
  return out;
}

class Selection {
 public:
  Selection(Env& env, std::string own_ns) : env_(env), own_ns_(std::move(own_ns)) {}

  // The objects of `inf` chosen by `selector` (absent: none) in the namespaces chosen by
  // `ns_selector` (absent: the Prometheus's own), sorted by namespace and name.
  std::vector<json::Value> pick(cache::Informer& inf, const std::optional<json::Value>& selector,
                                const std::optional<json::Value>& ns_selector) {
    std::vector<json::Value> out;
    if (!selector) return out;
    auto objects = meta::LabelSelector::from_json(&*selector);
    std::optional<meta::LabelSelector> namespaces;
    if (ns_selector) namespaces = meta::LabelSelector::from_json(&*ns_selector);
    auto all = inf.list();
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a->key() < b->key(); });
    for (const auto& o : all) {
      if (!namespace_chosen(o->ns(), namespaces)) continue;
      if (!objects.matches(labels_of(*o))) continue;
      out.push_back(o->value());
    }
    return out;
  }

 private:
  bool namespace_chosen(std::string_view ns, const std::optional<meta::LabelSelector>& selector) {
    if (!selector) return ns == own_ns_;
    if (selector->empty()) return true;
    auto n = env_.namespaces.get("", ns);
    return n && selector->matches(labels_of(*n));
  }

  Env& env_;
  std::string own_ns_;
};

void set_availability(json::Value& obj, const cache::ObjectPtr& sts, std::int32_t desired) {
  auto& status = controller::status_of(obj);
  if (!sts) {
    set_condition(obj, v1::condition::kAvailable, "False", v1::reason::kStatefulSetNotFound, "the StatefulSet is not there yet");
    status["replicas"] = 0;
    status["availableReplicas"] = 0;
    status["updatedReplicas"] = 0;
    status["unavailableReplicas"] = desired;
    return;
  }
  auto v = sts->value();
  auto num = [&](std::string_view key) {
    const auto* n = json::find(v, {"status", key});
    return n && n->is_int64() ? n->as_int64() : 0;
  };
  std::int64_t replicas = num("replicas"), ready = num("readyReplicas"), updated = num("updatedReplicas");
  std::int64_t available = json::find(v, {"status", "availableReplicas"}) ? num("availableReplicas") : ready;
  status["replicas"] = replicas;
  status["availableReplicas"] = available;
  status["updatedReplicas"] = updated;
  status["unavailableReplicas"] = std::max<std::int64_t>(0, replicas - available);
  if (available >= desired && desired > 0)
    set_condition(obj, v1::condition::kAvailable, "True", "", "");
  else if (available == 0)
    set_condition(obj, v1::condition::kAvailable, "False", v1::reason::kNoPodReady,
                  "shard 0: pod(s) not ready: " + std::to_string(desired) + " of " + std::to_string(desired));
  else
    set_condition(obj, v1::condition::kAvailable, "Degraded", v1::reason::kSomePodsNotReady,
                  "shard 0: pod(s) not ready: " + std::to_string(desired - available) + " of " + std::to_string(desired));
}

}  // namespace

controller::Result reconcile_prometheus(Env& env, const controller::Request& request, controller::Context& ctx) {
  auto cached = env.prometheuses.get(request.ns, request.name);
  if (!cached || cached->deleting()) return controller::Result::done();  // owned objects go with it (GC)
  const json::Value before = cached->value();
  json::Value obj = before;
  const auto spec = v1::parse_prometheus_spec(obj);
  auto& status = controller::status_of(obj);
  status["paused"] = spec.paused;
  status["shards"] = 1;
  status["selector"] = selector_string(request.name);
  if (spec.paused) {
    set_condition(obj, v1::condition::kReconciled, "Unknown", v1::reason::kPaused, "reconciliation is paused");
    controller::write_status(env.client, kPrometheusType.gvr, before, obj);
    return controller::Result::done();
  }

  try {
    Selection select(env, request.ns);
    ConfigInputs in;
    in.ns = request.ns;
    in.name = request.name;
    in.spec = &spec;
    in.service_monitors = select.pick(env.service_monitors, spec.service_monitor_selector, spec.service_monitor_namespace_selector);
    in.pod_monitors = select.pick(env.pod_monitors, spec.pod_monitor_selector, spec.pod_monitor_namespace_selector);
    auto rules = select.pick(env.rules, spec.rule_selector, spec.rule_namespace_selector);
    auto files = rule_files(rules);
    for (const auto& [index, why] : files.rejected) {
      const auto& rule = rules[index];
      std::string message = "PrometheusRule " + std::string(meta::namespace_of(rule)) + "/" + std::string(meta::name_of(rule)) +
                            " is not loaded by Prometheus " + request.key() + ": " + why;
      ctx.log.warn("rule rejected", {{"rule", std::string(meta::namespace_of(rule)) + "/" + std::string(meta::name_of(rule))},
                                     {"reason", why}});
      env.event(rule, events::kWarning, v1::reason::kRuleRejected, message);
    }
    auto bins = pack_rule_files(files.files);
    std::vector<std::string> configmaps;
    for (std::size_t i = 0; i < bins.size(); ++i) {
      configmaps.push_back(rule_configmap_name(request.name, i));
      in.rule_file_globs.push_back("/etc/prometheus/rules/" + configmaps.back() + "/*.yaml");
    }
    const std::string config = json::to_yaml(generate_config(in));

    // Rule ConfigMaps first, then the config, so the pods never mount a missing ConfigMap.
    const std::string_view manager = kManagedBy;
    for (std::size_t i = 0; i < bins.size(); ++i)
      env.client.apply(kConfigMapType.gvr, request.ns, rule_configmap(before, i, bins[i]), manager, true);
    env.client.apply(kSecretType.gvr, request.ns, config_secret(before, config), manager, true);
    env.client.apply(kServiceType.gvr, request.ns, governing_service(before), manager, true);
    env.client.apply(kStatefulSetType.gvr, request.ns, statefulset(before, spec, configmaps), manager, true);
    // Rule ConfigMaps beyond what the rules need now.
    client::DeleteOptions d;
    d.ignore_not_found = true;
    for (std::size_t i = bins.size(); env.client.remove(kConfigMapType.gvr, request.ns, rule_configmap_name(request.name, i), d); ++i) {
    }

    set_condition(obj, v1::condition::kReconciled, "True", "", "");
    ctx.log.debug("reconciled", {{"serviceMonitors", std::to_string(in.service_monitors.size())},
                                 {"podMonitors", std::to_string(in.pod_monitors.size())},
                                 {"rules", std::to_string(rules.size() - files.rejected.size())}});
  } catch (const std::exception& e) {
    std::string message = std::string("reconciling Prometheus ") + request.key() + ": " + e.what();
    set_condition(obj, v1::condition::kReconciled, "False", v1::reason::kReconcileError, message);
    set_availability(obj, env.statefulsets.get(request.ns, statefulset_name(request.name)), spec.replicas);
    if (controller::write_status(env.client, kPrometheusType.gvr, before, obj))
      env.event(obj, events::kWarning, v1::reason::kReconcileError, message);
    throw;
  }
  set_availability(obj, env.statefulsets.get(request.ns, statefulset_name(request.name)), spec.replicas);
  controller::write_status(env.client, kPrometheusType.gvr, before, obj);
  return controller::Result::after(env.options.resync);
}

}  // namespace capstan::monitoring
