#include "controllers/monitoring/objects.h"

#include "controllers/monitoring/gzip.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"

#include <algorithm>
#include <stdexcept>

namespace capstan::monitoring {
namespace {

using apis::monitoring::v1::PrometheusSpec;

json::Object string_map(const std::map<std::string, std::string>& m) {
  json::Object o;
  for (const auto& [k, v] : m) o[k] = v;
  return o;
}

std::map<std::string, std::string> common_labels(std::string_view prometheus, std::int32_t shard = 0) {
  auto labels = selector_labels(prometheus, shard);
  labels[std::string(kManagedByLabel)] = std::string(kManagedBy);
  labels["operator.prometheus.io/mode"] = "server";
  return labels;
}

json::Object metadata(const json::Value& prometheus, std::string name, const std::map<std::string, std::string>& labels,
                      bool controller = true) {
  auto ref = meta::controller_reference(prometheus);
  ref.controller = controller;
  ref.block_owner_deletion = controller;
  return json::Object{{"name", std::move(name)},
                      {"namespace", meta::namespace_of(prometheus)},
                      {"labels", string_map(labels)},
                      {"ownerReferences", json::Array{ref.to_json()}}};
}

json::Object typed(std::string_view api_version, std::string_view kind, json::Object metadata) {
  return json::Object{{"apiVersion", api_version}, {"kind", kind}, {"metadata", std::move(metadata)}};
}

json::Object volume_mount(std::string_view name, std::string_view path, bool read_only = false) {
  json::Object m{{"name", name}, {"mountPath", path}};
  if (read_only) m["readOnly"] = true;
  return m;
}

json::Object reloader(std::string_view name, const std::vector<std::string>& rule_configmaps, bool init, std::int32_t shard) {
  json::Array args{"--listen-address=:8080", "--reload-url=http://127.0.0.1:9090/-/reload",
                   "--config-file=/etc/prometheus/config/prometheus.yaml.gz",
                   "--config-envsubst-file=/etc/prometheus/config_out/prometheus.env.yaml"};
  if (init) args = json::Array{"--watch-interval=0", "--listen-address=:8081", "--config-file=/etc/prometheus/config/prometheus.yaml.gz",
                               "--config-envsubst-file=/etc/prometheus/config_out/prometheus.env.yaml"};
  json::Array mounts{volume_mount("config", "/etc/prometheus/config"), volume_mount("config-out", "/etc/prometheus/config_out")};
  for (const auto& cm : rule_configmaps) {
    if (!init) args.emplace_back("--watched-dir=/etc/prometheus/rules/" + cm);
    mounts.push_back(volume_mount(cm, "/etc/prometheus/rules/" + cm));
  }
  json::Object c{{"name", name},
                 {"image", kConfigReloaderImage},
                 {"command", json::Array{"/bin/prometheus-config-reloader"}},
                 {"args", std::move(args)},
                 {"env", json::Array{json::Object{{"name", "POD_NAME"},
                                                  {"valueFrom", json::Object{{"fieldRef", json::Object{{"apiVersion", "v1"}, {"fieldPath", "metadata.name"}}}}}},
                                     json::Object{{"name", "SHARD"}, {"value", std::to_string(shard)}}}},
                 {"resources", json::Object{{"requests", json::Object{{"cpu", "10m"}, {"memory", "50Mi"}}},
                                            {"limits", json::Object{{"cpu", "10m"}, {"memory", "50Mi"}}}}},
                 {"volumeMounts", std::move(mounts)}};
  if (!init) c["ports"] = json::Array{json::Object{{"name", "reloader-web"}, {"containerPort", 8080}, {"protocol", "TCP"}}};
  return c;
}

// `items` (containers, volumes...) with `user`'s merged in by name: an item of the same name is
// changed (its volumeMounts merged by mountPath and env by name, any other field replaced),
// others are added; prometheus-operator's strategic merge of spec.containers.
void merge_by_name(json::Array& items, const std::vector<json::Value>& user) {
  auto merge_list = [](json::Value& into, const json::Value& from, std::string_view key) {
    if (!into.is_array() || !from.is_array()) {
      into = from;
      return;
    }
    for (const auto& f : from.get_array()) {
      auto same = std::find_if(into.as_array().begin(), into.as_array().end(),
                               [&](const json::Value& i) { return json::get_string(i, {key}) == json::get_string(f, {key}); });
      if (same != into.as_array().end()) *same = f;
      else into.as_array().push_back(f);
    }
  };
  for (const auto& u : user) {
    if (!u.is_object()) continue;
    std::string_view name = json::get_string(u, {"name"});
    auto it = std::find_if(items.begin(), items.end(), [&](const json::Value& i) { return json::get_string(i, {"name"}) == name; });
    if (it == items.end()) {
      items.push_back(u);
      continue;
    }
    for (const auto& kv : u.get_object()) {
      auto& slot = it->as_object()[kv.key()];
      if (kv.key() == "volumeMounts") merge_list(slot, kv.value(), "mountPath");
      else if (kv.key() == "env") merge_list(slot, kv.value(), "name");
      else slot = kv.value();
    }
  }
}

}  // namespace

std::string statefulset_name(std::string_view prometheus, std::int32_t shard) {
  return "prometheus-" + std::string(prometheus) + (shard > 0 ? "-shard-" + std::to_string(shard) : "");
}
std::string config_secret_name(std::string_view prometheus) { return "prometheus-" + std::string(prometheus); }
std::string rule_configmap_name(std::string_view prometheus, std::size_t i) {
  return "prometheus-" + std::string(prometheus) + "-rulefiles-" + std::to_string(i);
}

std::map<std::string, std::string> selector_labels(std::string_view prometheus, std::int32_t shard) {
  return {{"app.kubernetes.io/instance", std::string(prometheus)},
          {"app.kubernetes.io/name", "prometheus"},
          {"operator.prometheus.io/name", std::string(prometheus)},
          {std::string(kShardLabel), std::to_string(shard)},
          {"prometheus", std::string(prometheus)}};
}

std::string selector_string(std::string_view prometheus) {
  std::string out;
  for (const auto& [k, v] : selector_labels(prometheus))
    if (k != kShardLabel) out += (out.empty() ? "" : ",") + k + "=" + v;
  return out;
}

json::Value config_secret(const json::Value& prometheus, const std::string& config_yaml) {
  auto name = meta::name_of(prometheus);
  auto o = typed("v1", "Secret", metadata(prometheus, config_secret_name(name), common_labels(name)));
  o["type"] = "Opaque";
  std::string compressed = gzip(config_yaml);
  // A Secret holds 1 MiB of data: said here, naming the sizes, rather than as the API server's
  // refusal of the write.
  if (compressed.size() > kMaxConfigSecretBytes)
    throw std::length_error("the generated Prometheus configuration is " + std::to_string(config_yaml.size()) + " bytes (" +
                            std::to_string(compressed.size()) + " gzipped), more than its Secret holds (" +
                            std::to_string(kMaxConfigSecretBytes) + "); select fewer monitors");
  o["data"] = json::Object{{kConfigKey, meta::base64_encode(compressed)}};
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

json::Value governing_service(const json::Value& prometheus) {
  auto o = typed("v1", "Service",
                 metadata(prometheus, std::string(kGoverningService),
                          {{"operated-prometheus", "true"}, {std::string(kManagedByLabel), std::string(kManagedBy)}}, false));
  o["spec"] = json::Object{{"clusterIP", "None"},
                           {"selector", json::Object{{"app.kubernetes.io/name", "prometheus"}}},
                           {"ports", json::Array{json::Object{{"name", "web"}, {"port", kWebPort}, {"protocol", "TCP"},
                                                              {"targetPort", "web"}}}}};
  return o;
}

json::Value statefulset(const json::Value& prometheus, const PrometheusSpec& spec, const std::vector<std::string>& rule_configmaps,
                        std::int32_t shard) {
  const std::string name(meta::name_of(prometheus));
  auto o = typed("apps/v1", "StatefulSet", metadata(prometheus, statefulset_name(name, shard), common_labels(name, shard)));

  json::Array args{"--config.file=/etc/prometheus/config_out/prometheus.env.yaml",
                   "--web.enable-lifecycle",
                   "--web.route-prefix=" + (spec.route_prefix.empty() ? std::string("/") : spec.route_prefix),
                   "--storage.tsdb.path=/prometheus",
                   "--web.console.templates=/etc/prometheus/consoles",
                   "--web.console.libraries=/etc/prometheus/console_libraries"};
  if (auto r = spec.effective_retention(); !r.empty()) args.emplace_back("--storage.tsdb.retention.time=" + r);
  if (!spec.retention_size.empty()) args.emplace_back("--storage.tsdb.retention.size=" + spec.retention_size);
  if (!spec.external_url.empty()) args.emplace_back("--web.external-url=" + spec.external_url);
  if (!spec.log_level.empty()) args.emplace_back("--log.level=" + spec.log_level);
  if (!spec.log_format.empty()) args.emplace_back("--log.format=" + spec.log_format);
  for (const auto& f : spec.enable_features) args.emplace_back("--enable-feature=" + f);

  // The TSDB: an emptyDir, unless spec.storage says otherwise (a claim per pod, kept across
  // restarts, or an ephemeral volume); mounted through the prometheus-db subPath when storage is set.
  const auto& storage = spec.storage;
  const auto* claim = storage && storage->volume_claim_template ? &*storage->volume_claim_template : nullptr;
  std::string db = claim && claim->metadata && !claim->metadata->name.empty() ? claim->metadata->name : "prometheus-" + name + "-db";
  json::Object db_mount = volume_mount(db, "/prometheus");
  if (storage && !storage->disable_mount_sub_path) db_mount["subPath"] = "prometheus-db";
  json::Array mounts{volume_mount("config-out", "/etc/prometheus/config_out", true), std::move(db_mount)};
  json::Array volumes{json::Object{{"name", "config"}, {"secret", json::Object{{"secretName", config_secret_name(name)}}}},
                      json::Object{{"name", "config-out"}, {"emptyDir", json::Object{{"medium", "Memory"}}}}};
  if (storage && storage->empty_dir) volumes.push_back(json::Object{{"name", db}, {"emptyDir", *storage->empty_dir}});
  else if (storage && storage->ephemeral) volumes.push_back(json::Object{{"name", db}, {"ephemeral", *storage->ephemeral}});
  else if (!claim) volumes.push_back(json::Object{{"name", db}, {"emptyDir", json::Object()}});
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

  auto pod_labels = selector_labels(name, shard);
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
  if (!spec.service_account_name.empty()) pod_spec["serviceAccountName"] = spec.service_account_name;
  if (!spec.node_selector.empty()) pod_spec["nodeSelector"] = string_map(spec.node_selector);
  if (!spec.tolerations.empty()) pod_spec["tolerations"] = json::Array(spec.tolerations.begin(), spec.tolerations.end());
  if (spec.affinity) pod_spec["affinity"] = *spec.affinity;
  if (!spec.topology_spread_constraints.empty())
    pod_spec["topologySpreadConstraints"] = json::Array(spec.topology_spread_constraints.begin(), spec.topology_spread_constraints.end());
  if (spec.security_context) pod_spec["securityContext"] = *spec.security_context;
  if (!spec.priority_class_name.empty()) pod_spec["priorityClassName"] = spec.priority_class_name;
  if (!spec.image_pull_secrets.empty()) pod_spec["imagePullSecrets"] = json::Array(spec.image_pull_secrets.begin(), spec.image_pull_secrets.end());

  o["spec"] = json::Object{
      {"replicas", spec.replicas},
      {"serviceName", kGoverningService},
      {"podManagementPolicy", "Parallel"},
      {"updateStrategy", json::Object{{"type", "RollingUpdate"}}},
      {"selector", json::Object{{"matchLabels", string_map(selector_labels(name, shard))}}},
      {"template", json::Object{{"metadata", json::Object{{"labels", string_map(pod_labels)}, {"annotations", std::move(pod_annotations)}}},
                                {"spec", std::move(pod_spec)}}}};
  auto& sts_spec = o["spec"].as_object();
  if (claim) {
    json::Object md{{"name", db}};
    if (claim->metadata && !claim->metadata->labels.empty()) md["labels"] = string_map(claim->metadata->labels);
    if (claim->metadata && !claim->metadata->annotations.empty()) md["annotations"] = string_map(claim->metadata->annotations);
    sts_spec["volumeClaimTemplates"] = json::Array{
        json::Object{{"apiVersion", "v1"}, {"kind", "PersistentVolumeClaim"}, {"metadata", std::move(md)}, {"spec", claim->spec}}};
  }
  if (spec.persistent_volume_claim_retention_policy)
    sts_spec["persistentVolumeClaimRetentionPolicy"] = *spec.persistent_volume_claim_retention_policy;
  return o;
}

}  // namespace capstan::monitoring
