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

// The monitors of `objects` that decode; one that does not is left out with a warning on it
// (it was written around the CRD schema), and costs no other monitor its place.
template <class Monitor>
std::vector<Monitor> decoded(Env& env, const std::vector<json::Value>& objects, std::string_view kind, controller::Context& ctx) {
  std::vector<Monitor> out;
  out.reserve(objects.size());
  for (const auto& o : objects) {
    try {
      out.push_back(Monitor::from_json(o));
    } catch (const apis::codec::DecodeError& e) {
      const std::string key = std::string(meta::namespace_of(o)) + "/" + std::string(meta::name_of(o));
      ctx.log.warn("monitor left out", {{"kind", std::string(kind)}, {"object", key}, {"error", e.what()}});
      env.event(o, events::kWarning, v1::reason::kReconcileError, std::string(kind) + " " + key + " is left out: " + e.what());
    }
  }
  return out;
}

class Reconciler {
 public:
  Reconciler(Env& env, const controller::Request& request, controller::Context& ctx) : env_(env), request_(request), ctx_(ctx) {}

  controller::Result run() {
    auto cached = env_.prometheuses.get(request_.ns, request_.name);
    if (!cached || cached->deleting()) return controller::Result::done();  // owned objects go with it (GC)
    before_ = cached->value();
    generation_ = meta::generation_of(before_);
    try {
      prometheus_ = v1::Prometheus::from_json(before_);
    } catch (const apis::codec::DecodeError& e) {  // written around the CRD schema: said on this object only
      json::Value obj = before_;
      controller::set_condition(obj, v1::condition::kReconciled, "False", v1::reason::kReconcileError, e.what());
      controller::write_status(env_.client, kPrometheusType.gvr, before_, obj);
      ctx_.log.warn("unreadable Prometheus", {{"error", e.what()}});
      return controller::Result::done();
    }
    const auto& spec = prometheus_.spec;
    auto& status = prometheus_.status;
    status.paused = spec.paused;
    status.shards = 1;
    status.selector = selector_string(request_.name);
    if (spec.paused) {
      condition(v1::condition::kReconciled, "Unknown", v1::reason::kPaused, "reconciliation is paused");
      write();
      return controller::Result::done();
    }
    try {
      configure();
    } catch (const std::exception& e) {
      std::string message = std::string("reconciling Prometheus ") + request_.key() + ": " + e.what();
      condition(v1::condition::kReconciled, "False", v1::reason::kReconcileError, message);
      set_availability();
      if (write()) env_.event(before_, events::kWarning, v1::reason::kReconcileError, message);
      throw;
    }
    set_availability();
    write();
    return controller::Result::after(env_.options.resync);
  }

 private:
  // The configuration, the rule ConfigMaps, the Service and the StatefulSet.
  void configure() {
    const auto& spec = prometheus_.spec;
    Selection select(env_, request_.ns);
    ConfigInputs in;
    in.ns = request_.ns;
    in.name = request_.name;
    in.spec = &spec;
    in.service_monitors = decoded<v1::ServiceMonitor>(
        env_, select.pick(env_.service_monitors, spec.service_monitor_selector, spec.service_monitor_namespace_selector), "ServiceMonitor", ctx_);
    in.pod_monitors = decoded<v1::PodMonitor>(
        env_, select.pick(env_.pod_monitors, spec.pod_monitor_selector, spec.pod_monitor_namespace_selector), "PodMonitor", ctx_);
    auto rules = select.pick(env_.rules, spec.rule_selector, spec.rule_namespace_selector);
    auto files = rule_files(rules);
    for (const auto& [index, why] : files.rejected) {
      const auto& rule = rules[index];
      std::string message = "PrometheusRule " + std::string(meta::namespace_of(rule)) + "/" + std::string(meta::name_of(rule)) +
                            " is not loaded by Prometheus " + request_.key() + ": " + why;
      ctx_.log.warn("rule rejected", {{"rule", std::string(meta::namespace_of(rule)) + "/" + std::string(meta::name_of(rule))},
                                      {"reason", why}});
      env_.event(rule, events::kWarning, v1::reason::kRuleRejected, message);
    }
    auto bins = pack_rule_files(files.files);
    std::vector<std::string> configmaps;
    for (std::size_t i = 0; i < bins.size(); ++i) {
      configmaps.push_back(rule_configmap_name(request_.name, i));
      in.rule_file_globs.push_back("/etc/prometheus/rules/" + configmaps.back() + "/*.yaml");
    }
    const std::string config = json::to_yaml(generate_config(in));

    // Rule ConfigMaps first, then the config, so the pods never mount a missing ConfigMap.
    const std::string_view manager = kManagedBy;
    for (std::size_t i = 0; i < bins.size(); ++i)
      env_.client.apply(kConfigMapType.gvr, request_.ns, rule_configmap(before_, i, bins[i]), manager, true);
    env_.client.apply(kSecretType.gvr, request_.ns, config_secret(before_, config), manager, true);
    env_.client.apply(kServiceType.gvr, request_.ns, governing_service(before_), manager, true);
    env_.client.apply(kStatefulSetType.gvr, request_.ns, statefulset(before_, spec, configmaps), manager, true);
    // Rule ConfigMaps beyond what the rules need now.
    client::DeleteOptions d;
    d.ignore_not_found = true;
    for (std::size_t i = bins.size(); env_.client.remove(kConfigMapType.gvr, request_.ns, rule_configmap_name(request_.name, i), d); ++i) {
    }

    condition(v1::condition::kReconciled, "True", "", "");
    ctx_.log.debug("reconciled", {{"serviceMonitors", std::to_string(in.service_monitors.size())},
                                  {"podMonitors", std::to_string(in.pod_monitors.size())},
                                  {"rules", std::to_string(rules.size() - files.rejected.size())}});
  }

  // The pods of the StatefulSet against spec.replicas: the replica counts and Available.
  void set_availability() {
    auto& status = prometheus_.status;
    const std::int32_t desired = prometheus_.spec.replicas;
    auto sts = env_.statefulsets.get(request_.ns, statefulset_name(request_.name));
    if (!sts) {
      condition(v1::condition::kAvailable, "False", v1::reason::kStatefulSetNotFound, "the StatefulSet is not there yet");
      status.replicas = status.available_replicas = status.updated_replicas = 0;
      status.unavailable_replicas = desired;
      return;
    }
    auto v = sts->value();
    auto num = [&](std::string_view key) -> std::int32_t {
      const auto* n = json::find(v, {"status", key});
      return n && n->is_int64() ? static_cast<std::int32_t>(n->as_int64()) : 0;
    };
    const std::int32_t ready = num("readyReplicas");
    status.replicas = num("replicas");
    status.updated_replicas = num("updatedReplicas");
    status.available_replicas = json::find(v, {"status", "availableReplicas"}) ? num("availableReplicas") : ready;
    status.unavailable_replicas = std::max(0, status.replicas - status.available_replicas);
    const std::int32_t available = status.available_replicas;
    if (available >= desired && desired > 0)
      condition(v1::condition::kAvailable, "True", "", "");
    else if (available == 0)
      condition(v1::condition::kAvailable, "False", v1::reason::kNoPodReady,
                "shard 0: pod(s) not ready: " + std::to_string(desired) + " of " + std::to_string(desired));
    else
      condition(v1::condition::kAvailable, "Degraded", v1::reason::kSomePodsNotReady,
                "shard 0: pod(s) not ready: " + std::to_string(desired - available) + " of " + std::to_string(desired));
  }

  void condition(std::string_view type, std::string_view status, std::string_view reason, const std::string& message) {
    set_condition(prometheus_.status.conditions, type, status, reason, message, generation_);
  }

  bool write() { return controller::write_status(env_.client, kPrometheusType.gvr, before_, prometheus_.status); }

  Env& env_;
  const controller::Request& request_;
  controller::Context& ctx_;
  json::Value before_;
  v1::Prometheus prometheus_;
  std::int64_t generation_ = 0;
};

}  // namespace

controller::Result reconcile_prometheus(Env& env, const controller::Request& request, controller::Context& ctx) {
  return Reconciler(env, request, ctx).run();
}

}  // namespace capstan::monitoring
