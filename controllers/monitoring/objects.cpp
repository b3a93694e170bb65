#include "controllers/monitoring/objects.h"

#include "controllers/monitoring/assets.h"
#include "controllers/monitoring/builders.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"

#include <algorithm>
#include <stdexcept>

namespace capstan::monitoring {
namespace {

using apis::monitoring::v1::PrometheusSpec;
using build::compressed_secret;
using build::merge_by_name;
using build::metadata;
using build::string_map;
using build::typed;
using build::volume_mount;

std::map<std::string, std::string> common_labels(std::string_view prometheus, std::int32_t shard = 0, const Flavor& f = kServer) {
  auto labels = selector_labels(prometheus, shard, f);
  labels[std::string(kManagedByLabel)] = std::string(kManagedBy);
  labels["operator.prometheus.io/mode"] = std::string(f.mode);
  return labels;
}

json::Object reloader(std::string_view name, const std::vector<std::string>& rule_configmaps, bool init, std::int32_t shard) {
  json::Array watched, mounts;
  for (const auto& cm : rule_configmaps) {
    watched.emplace_back("--watched-dir=/etc/prometheus/rules/" + cm);
    mounts.push_back(volume_mount(cm, "/etc/prometheus/rules/" + cm));
  }
  return build::config_reloader(name, init, "prometheus", kWebPort, std::move(watched), std::move(mounts),
                                json::Array{json::Object{{"name", "SHARD"}, {"value", std::to_string(shard)}}});
}

}  // namespace

std::string statefulset_name(std::string_view prometheus, std::int32_t shard, const Flavor& f) {
  return std::string(f.prefix) + "-" + std::string(prometheus) + (shard > 0 ? "-shard-" + std::to_string(shard) : "");
}
std::string config_secret_name(std::string_view prometheus, const Flavor& f) { return std::string(f.prefix) + "-" + std::string(prometheus); }
std::string rule_configmap_name(std::string_view prometheus, std::size_t i) {
  return "prometheus-" + std::string(prometheus) + "-rulefiles-" + std::to_string(i);
}

std::map<std::string, std::string> selector_labels(std::string_view prometheus, std::int32_t shard, const Flavor& f) {
  std::map<std::string, std::string> labels{{"app.kubernetes.io/instance", std::string(prometheus)},
                                            {"app.kubernetes.io/name", std::string(f.app)},
                                            {"operator.prometheus.io/name", std::string(prometheus)},
                                            {std::string(kShardLabel), std::to_string(shard)}};
  if (!f.agent) labels["prometheus"] = std::string(prometheus);
  return labels;
}

std::string selector_string(std::string_view prometheus, const Flavor& f) {
  std::string out;
  for (const auto& [k, v] : selector_labels(prometheus, 0, f))
    if (k != kShardLabel) out += (out.empty() ? "" : ",") + k + "=" + v;
  return out;
}

json::Value config_secret(const json::Value& prometheus, const std::string& config_yaml, const Flavor& f) {
  auto name = meta::name_of(prometheus);
  return compressed_secret(prometheus, config_secret_name(name, f), common_labels(name, 0, f), kConfigKey, config_yaml,
                           "the generated Prometheus configuration", "select fewer monitors");
}

std::string assets_secret_name(std::string_view prometheus, const Flavor& f) {
  return std::string(f.prefix) + "-" + std::string(prometheus) + "-tls-assets-0";
}

json::Value assets_secret(const json::Value& prometheus, const std::map<std::string, std::string>& files, const Flavor& f) {
  auto name = meta::name_of(prometheus);
  auto o = typed("v1", "Secret", metadata(prometheus, assets_secret_name(name, f), common_labels(name, 0, f)));
  o["type"] = "Opaque";
  json::Object data;
  std::size_t size = 0;
  for (const auto& [file, value] : files) {
    size += file.size() + value.size();
    data[file] = meta::base64_encode(value);
  }
  if (size > kMaxConfigSecretBytes)
    throw std::length_error("the Secret and ConfigMap values the scrape jobs reference come to " + std::to_string(size) +
                            " bytes, more than the assets Secret holds (" + std::to_string(kMaxConfigSecretBytes) + ")");
  o["data"] = std::move(data);
  return o;
}

json::Value rule_configmap(const json::Value& prometheus, std::size_t i, const std::map<std::string, std::string>& files) {
  auto name = meta::name_of(prometheus);
  auto labels = common_labels(name);
  labels["prometheus-name"] = std::string(name);
  auto o = typed("v1", "ConfigMap", metadata(prometheus, rule_configmap_name(name, i), labels));
  o["data"] = string_map(files);
  return o;
}

json::Value governing_service(const json::Value& prometheus, const Flavor& f) {
  auto o = typed("v1", "Service",
                 metadata(prometheus, std::string(f.governing_service),
                          {{f.agent ? "operated-prometheus-agent" : "operated-prometheus", "true"},
                           {std::string(kManagedByLabel), std::string(kManagedBy)}},
                          false));
  o["spec"] = json::Object{{"clusterIP", "None"},
                           {"selector", json::Object{{"app.kubernetes.io/name", f.app}}},
                           {"ports", json::Array{json::Object{{"name", "web"}, {"port", kWebPort}, {"protocol", "TCP"},
                                                              {"targetPort", "web"}}}}};
  return o;
}

json::Value statefulset(const json::Value& prometheus, const PrometheusSpec& spec, const std::vector<std::string>& rule_configmaps,
                        std::int32_t shard, const Flavor& f) {
  const std::string name(meta::name_of(prometheus));
  auto o = typed("apps/v1", "StatefulSet", metadata(prometheus, statefulset_name(name, shard, f), common_labels(name, shard, f)));

  json::Array args{"--config.file=/etc/prometheus/config_out/prometheus.env.yaml", "--web.enable-lifecycle",
                   "--web.route-prefix=" + (spec.route_prefix.empty() ? std::string("/") : spec.route_prefix)};
  if (f.agent) {
    // Prometheus 3 has --agent; 2.x the agent feature flag.
    args.emplace_back(spec.effective_version().starts_with("v2.") ? "--enable-feature=agent" : "--agent");
    args.emplace_back("--storage.agent.path=/prometheus");
  } else {
    args.emplace_back("--storage.tsdb.path=/prometheus");
    args.emplace_back("--web.console.templates=/etc/prometheus/consoles");
    args.emplace_back("--web.console.libraries=/etc/prometheus/console_libraries");
    if (auto r = spec.effective_retention(); !r.empty()) args.emplace_back("--storage.tsdb.retention.time=" + r);
    if (!spec.retention_size.empty()) args.emplace_back("--storage.tsdb.retention.size=" + spec.retention_size);
  }
  if (!spec.external_url.empty()) args.emplace_back("--web.external-url=" + spec.external_url);
  if (!spec.log_level.empty()) args.emplace_back("--log.level=" + spec.log_level);
  if (!spec.log_format.empty()) args.emplace_back("--log.format=" + spec.log_format);
  for (const auto& f : spec.enable_features) args.emplace_back("--enable-feature=" + f);

  json::Array volumes{json::Object{{"name", "config"}, {"secret", json::Object{{"secretName", config_secret_name(name, f)}}}},
                      json::Object{{"name", "tls-assets"}, {"secret", json::Object{{"secretName", assets_secret_name(name, f)}}}},
                      json::Object{{"name", "config-out"}, {"emptyDir", json::Object{{"medium", "Memory"}}}}};
  // The TSDB (an agent's WAL): mounted through the prometheus-db subPath when storage is set.
  json::Object claims;  // the StatefulSet's volumeClaimTemplates and their retention, if any
  json::Array mounts{volume_mount("config-out", "/etc/prometheus/config_out", true), volume_mount("tls-assets", kAssetsDir, true),
                     build::data_volume(spec.storage, spec.persistent_volume_claim_retention_policy,
                                        std::string(f.prefix) + "-" + name + "-db", "/prometheus", "prometheus-db", {volumes, claims})};
  for (const auto& cm : rule_configmaps) {
    mounts.push_back(volume_mount(cm, "/etc/prometheus/rules/" + cm));
    volumes.push_back(json::Object{{"name", cm}, {"configMap", json::Object{{"name", cm}}}});
  }
  for (const auto& m : spec.volume_mounts) mounts.push_back(m);
  json::Object prom{{"name", "prometheus"},
                    {"image", spec.effective_image()},
                    {"args", std::move(args)},
                    {"ports", json::Array{json::Object{{"name", spec.port_name}, {"containerPort", kWebPort}, {"protocol", "TCP"}}}},
                    {"readinessProbe", json::Object{{"httpGet", json::Object{{"path", "/-/ready"}, {"port", spec.port_name}}},
                                                    {"periodSeconds", 5},
                                                    {"failureThreshold", 3}}},
                    {"volumeMounts", std::move(mounts)}};
  if (spec.resources) prom["resources"] = *spec.resources;

  auto pod_labels = selector_labels(name, shard, f);
  json::Object pod_annotations{{"kubectl.kubernetes.io/default-container", "prometheus"}};
  if (spec.pod_metadata) {
    for (const auto& [key, value] : spec.pod_metadata->labels) pod_labels.try_emplace(key, value);  // the selector's stay
    for (const auto& [key, value] : spec.pod_metadata->annotations) pod_annotations[key] = value;
  }
  json::Array containers{std::move(prom), reloader("config-reloader", rule_configmaps, false, shard)};
  json::Array init_containers{reloader("init-config-reloader", rule_configmaps, true, shard)};
  merge_by_name(containers, spec.containers);
  merge_by_name(init_containers, spec.init_containers);
  merge_by_name(volumes, spec.volumes);
  json::Object pod_spec{{"containers", std::move(containers)},
                        {"initContainers", std::move(init_containers)},
                        {"terminationGracePeriodSeconds", 600},
                        {"volumes", std::move(volumes)}};
  build::pod_settings(pod_spec, spec);
  o["spec"] = json::Object{
      {"replicas", spec.replicas},
      {"serviceName", f.governing_service},
      {"podManagementPolicy", "Parallel"},
      {"updateStrategy", json::Object{{"type", "RollingUpdate"}}},
      {"selector", json::Object{{"matchLabels", string_map(selector_labels(name, shard, f))}}},
      {"template", json::Object{{"metadata", json::Object{{"labels", string_map(pod_labels)}, {"annotations", std::move(pod_annotations)}}},
                                {"spec", std::move(pod_spec)}}}};
  for (auto& kv : claims) o["spec"].as_object()[kv.key()] = std::move(kv.value());
  return o;
}

}  // namespace capstan::monitoring
