#include "controllers/monitoring/prometheus_controller.h"

#include "apis/monitoring/v1/group.h"
#include "apis/monitoring/v1/types.h"
#include "controllers/monitoring/acceptance.h"
#include "controllers/monitoring/assets.h"
#include "controllers/monitoring/env.h"
#include "controllers/monitoring/objects.h"
#include "controllers/monitoring/promcfg.h"
#include "controllers/monitoring/rules.h"
#include "controllers/monitoring/selection.h"
#include "controllers/monitoring/workload_reconciler.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/controller/apply.h"
#include "runtime/controller/status.h"
#include "runtime/events/event.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/object.h"
#include "runtime/meta/selector.h"

#include <algorithm>

namespace capstan::monitoring {
namespace {

namespace v1 = apis::monitoring::v1;

// The monitors of `objects` that Prometheus would take (acceptance.h) and whose referenced Secret
// and ConfigMap values can be read (added to `assets`); one it would refuse, or whose values are
// missing, is left out with a warning on it, and costs no other monitor its place. Its
// status.bindings say the same (bindings_controller.h).
template <class Monitor>
std::vector<Monitor> accepted(Env& env, const std::vector<json::Value>& objects, std::string_view kind,
                              std::string (*problems)(const json::Value&), const v1::PrometheusSpec& spec, const std::string& workload,
                              AssetReader& reader, Assets& assets, controller::Context& ctx) {
  std::vector<Monitor> out;
  out.reserve(objects.size());
  for (const auto& o : objects) {
    std::string why = problems(o);
    if (why.empty()) why = scrape_class_problem(spec, o, workload);
    std::optional<Monitor> monitor;
    Assets read;
    if (why.empty()) {
      monitor = Monitor::from_json(o);
      try {
        read_assets(reader, asset_refs(*monitor), read);
      } catch (const std::runtime_error& e) {
        why = e.what();
      }
    }
    if (!why.empty()) {
      const std::string key = std::string(meta::namespace_of(o)) + "/" + std::string(meta::name_of(o));
      ctx.log.warn("monitor left out", {{"kind", std::string(kind)}, {"object", key}, {"error", why}});
      env.event(o, events::kWarning, v1::reason::kInvalidConfiguration,
                std::string(kind) + " " + key + " is not loaded by " + workload + ": " + why);
      continue;
    }
    assets.merge(read);
    out.push_back(std::move(*monitor));
  }
  return out;
}

// A Prometheus, or a PrometheusAgent (`flavor` kAgent), read as a Prometheus: an agent's fields
// are a subset of a Prometheus's, and the ones it has not (rules, alerting, retention) keep their
// defaults, which select and configure nothing.
class Reconciler : public WorkloadReconciler<Reconciler, v1::Prometheus> {
 public:
  Reconciler(Env& env, const controller::Request& request, controller::Context& ctx, const Flavor& flavor)
      : WorkloadReconciler(env, flavor.agent ? env.prometheus_agents : env.prometheuses, flavor.agent ? kPrometheusAgentType : kPrometheusType,
                           request, ctx),
        flavor_(flavor) {}
  // What this reconcile read is what the next change of those Secrets and ConfigMaps wakes.
  ~Reconciler() { env_.record_reads(flavor_.agent ? "prometheus-agent" : "prometheus", request_, reader_.read_ids()); }

 private:
  friend class WorkloadReconciler<Reconciler, v1::Prometheus>;

  void prepare_status() {
    obj_.status.shards = obj_.spec.shards;
    obj_.status.selector = selector_string(request_.name, flavor_);
  }

  // The configuration, the rule ConfigMaps, the Service and the StatefulSet.
  void configure() {
    const auto& spec = obj_.spec;
    ConfigInputs in;
    in.ns = request_.ns;
    in.name = request_.name;
    in.spec = &spec;
    in.agent = flavor_.agent;
    const std::string key = type_.kind + " " + request_.key();
    AssetReader& reader = reader_;
    in.service_monitors = accepted<v1::ServiceMonitor>(
        env_, Selection(env_.namespaces, request_.ns, spec.service_monitor_selector, spec.service_monitor_namespace_selector).pick(env_.service_monitors),
        v1::kServiceMonitorKind, service_monitor_problems, spec, key, reader, in.assets, ctx_);
    in.pod_monitors = accepted<v1::PodMonitor>(
        env_, Selection(env_.namespaces, request_.ns, spec.pod_monitor_selector, spec.pod_monitor_namespace_selector).pick(env_.pod_monitors),
        v1::kPodMonitorKind, pod_monitor_problems, spec, key, reader, in.assets, ctx_);
    in.probes = accepted<v1::Probe>(env_, Selection(env_.namespaces, request_.ns, spec.probe_selector, spec.probe_namespace_selector).pick(env_.probes),
                                    v1::kProbeKind, probe_problems, spec, key, reader, in.assets, ctx_);
    in.scrape_configs = accepted<v1::ScrapeConfig>(
        env_, Selection(env_.namespaces, request_.ns, spec.scrape_config_selector, spec.scrape_config_namespace_selector).pick(env_.scrape_configs),
        v1::kScrapeConfigKind, scrape_config_problems, spec, key, reader, in.assets, ctx_);
    auto rules = flavor_.agent ? std::vector<json::Value>{}
                               : Selection(env_.namespaces, request_.ns, spec.rule_selector, spec.rule_namespace_selector).pick(env_.rules);
    auto files = rule_files(rules);
    for (const auto& [index, why] : files.rejected) {
      const auto& rule = rules[index];
      std::string message = "PrometheusRule " + std::string(meta::namespace_of(rule)) + "/" + std::string(meta::name_of(rule)) +
                            " is not loaded by " + key + ": " + why;
      ctx_.log.warn("rule rejected", {{"rule", std::string(meta::namespace_of(rule)) + "/" + std::string(meta::name_of(rule))},
                                      {"reason", why}});
      env_.event(rule, events::kWarning, v1::reason::kRuleRejected, message);
    }
    std::size_t current = 0;  // the rule ConfigMaps there are now (none for an agent)
    while (!flavor_.agent && env_.configmaps.get(request_.ns, rule_configmap_name(request_.name, current))) ++current;
    auto bins = shard_rule_files(files.files, current);
    std::vector<std::string> configmaps;
    for (std::size_t i = 0; i < bins.size(); ++i) {
      configmaps.push_back(rule_configmap_name(request_.name, i));
      in.rule_file_globs.push_back("/etc/prometheus/rules/" + configmaps.back() + "/*.yaml");
    }
    if (spec.additional_scrape_configs) in.additional_scrape_configs = additional_jobs(reader, *spec.additional_scrape_configs);
    const std::string config = json::to_yaml(generate_config(in));

    // Rule ConfigMaps first, then the config, so the pods never mount a missing ConfigMap. Only
    // what changed is sent: one rule changed rewrites the one small ConfigMap that holds its file.
    const std::string_view manager = kManagedBy;
    for (std::size_t i = 0; i < bins.size(); ++i)
      controller::apply_if_changed(env_.client, env_.configmaps, kConfigMapType.gvr, rule_configmap(before_, i, bins[i]), manager);
    controller::apply_if_changed(env_.client, env_.secrets, kSecretType.gvr, assets_secret(before_, in.assets, flavor_), manager);
    controller::apply_if_changed(env_.client, env_.secrets, kSecretType.gvr, config_secret(before_, config, flavor_), manager);
    controller::apply_if_changed(env_.client, env_.services, kServiceType.gvr, governing_service(before_, flavor_), manager);
    for (std::int32_t shard = 0; shard < spec.shards; ++shard)
      controller::apply_if_changed(env_.client, env_.statefulsets, kStatefulSetType.gvr, statefulset(before_, spec, configmaps, shard, flavor_),
                                   manager);
    client::DeleteOptions d;
    d.ignore_not_found = true;
    // The StatefulSets of shards scaled away.
    for (std::int32_t shard = spec.shards; env_.statefulsets.get(request_.ns, statefulset_name(request_.name, shard, flavor_)); ++shard)
      env_.client.remove(kStatefulSetType.gvr, request_.ns, statefulset_name(request_.name, shard, flavor_), d);
    // Rule ConfigMaps beyond what the rules need now (an agent has none, and must not touch a
    // Prometheus's of the same name).
    for (std::size_t i = bins.size(); i < current; ++i)
      env_.client.remove(kConfigMapType.gvr, request_.ns, rule_configmap_name(request_.name, i), d);

    condition(v1::condition::kReconciled, "True", "", "");
    ctx_.log.debug("reconciled", {{"serviceMonitors", std::to_string(in.service_monitors.size())},
                                  {"podMonitors", std::to_string(in.pod_monitors.size())},
                                  {"probes", std::to_string(in.probes.size())},
                                  {"scrapeConfigs", std::to_string(in.scrape_configs.size())},
                                  {"rules", std::to_string(rules.size() - files.rejected.size())}});
  }

  // spec.additionalScrapeConfigs from its Secret (read when the Prometheus reconciles: a change
  // to the Secret is picked up at the next reconcile or resync). A missing Secret or key that is
  // not optional, or a value that is not a list of jobs, fails the reconcile: the configuration
  // last applied stays, and Reconciled says why.
  json::Array additional_jobs(AssetReader& reader, const v1::SecretKeySelector& ref) {
    const std::string where = "spec.additionalScrapeConfigs: ";
    const AssetRef secret = asset(request_.ns, ref);
    std::optional<std::string> yaml;
    try {
      yaml = reader.read(secret);
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(where + e.what());
    }
    if (!yaml) return {};
    try {
      return additional_scrape_configs(*yaml);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(where + secret.describe() + ": " + e.what());
    }
  }

  // The pods of every shard's StatefulSet against spec.replicas, naming each shard that is short.
  void set_availability() {
    std::vector<std::string> statefulsets;
    for (std::int32_t shard = 0; shard < obj_.spec.shards; ++shard) statefulsets.push_back(statefulset_name(request_.name, shard, flavor_));
    availability_from(statefulsets, obj_.spec.replicas, true);
  }

  const Flavor& flavor_;
  AssetReader reader_{env_.client};  // each Secret and ConfigMap read once per reconcile
};

}  // namespace

controller::Result reconcile_prometheus(Env& env, const controller::Request& request, controller::Context& ctx) {
  return Reconciler(env, request, ctx, kServer).run();
}

controller::Result reconcile_prometheus_agent(Env& env, const controller::Request& request, controller::Context& ctx) {
  return Reconciler(env, request, ctx, kAgent).run();
}

}  // namespace capstan::monitoring
