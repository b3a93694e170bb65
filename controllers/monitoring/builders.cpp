#include "controllers/monitoring/builders.h"

#include "controllers/monitoring/objects.h"
#include "runtime/gzip/gzip.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"

#include <algorithm>
#include <stdexcept>

namespace capstan::monitoring::build {

json::Object string_map(const std::map<std::string, std::string>& m) {
  json::Object o;
  for (const auto& [k, v] : m) o[k] = v;
  return o;
}

json::Object metadata(const json::Value& owner, std::string name, const std::map<std::string, std::string>& labels,
                      bool controller) {
  auto ref = meta::controller_reference(owner);
  ref.controller = controller;
  ref.block_owner_deletion = controller;
  return json::Object{{"name", std::move(name)},
                      {"namespace", meta::namespace_of(owner)},
                      {"labels", string_map(labels)},
                      {"ownerReferences", json::Array{ref.to_json()}}};
}

json::Object typed(std::string_view api_version, std::string_view kind, json::Object metadata) {
  return json::Object{{"apiVersion", api_version}, {"kind", kind}, {"metadata", std::move(metadata)}};
}

json::Object compressed_secret(const json::Value& owner, std::string name, const std::map<std::string, std::string>& labels,
                               std::string_view key, const std::string& content, std::string_view what, std::string_view advice) {
  auto o = typed("v1", "Secret", metadata(owner, std::move(name), labels));
  o["type"] = "Opaque";
  const std::string compressed = gzip::compress(content);
  if (compressed.size() > kMaxConfigSecretBytes)
    throw std::length_error(std::string(what) + " is " + std::to_string(content.size()) + " bytes (" + std::to_string(compressed.size()) +
                            " gzipped), more than its Secret holds (" + std::to_string(kMaxConfigSecretBytes) + "); " + std::string(advice));
  o["data"] = json::Object{{key, meta::base64_encode(compressed)}};
  return o;
}

json::Object data_volume(const std::optional<apis::monitoring::v1::StorageSpec>& storage, const std::optional<json::Value>& claim_retention,
                         const std::string& default_name, std::string_view path, std::string_view sub_path, StorageTarget target) {
  const auto* claim = storage && storage->volume_claim_template ? &*storage->volume_claim_template : nullptr;
  const std::string name = claim && claim->metadata && !claim->metadata->name.empty() ? claim->metadata->name : default_name;
  json::Object mount = volume_mount(name, path);
  if (storage && !storage->disable_mount_sub_path) mount["subPath"] = sub_path;
  if (storage && storage->empty_dir) target.volumes.push_back(json::Object{{"name", name}, {"emptyDir", *storage->empty_dir}});
  else if (storage && storage->ephemeral) target.volumes.push_back(json::Object{{"name", name}, {"ephemeral", *storage->ephemeral}});
  else if (!claim) target.volumes.push_back(json::Object{{"name", name}, {"emptyDir", json::Object()}});
  if (claim) {
    json::Object md{{"name", name}};
    if (claim->metadata && !claim->metadata->labels.empty()) md["labels"] = string_map(claim->metadata->labels);
    if (claim->metadata && !claim->metadata->annotations.empty()) md["annotations"] = string_map(claim->metadata->annotations);
    target.sts_spec["volumeClaimTemplates"] =
        json::Array{json::Object{{"apiVersion", "v1"}, {"kind", "PersistentVolumeClaim"}, {"metadata", std::move(md)}, {"spec", claim->spec}}};
  }
  if (claim_retention) target.sts_spec["persistentVolumeClaimRetentionPolicy"] = *claim_retention;
  return mount;
}

json::Object volume_mount(std::string_view name, std::string_view path, bool read_only) {
  json::Object m{{"name", name}, {"mountPath", path}};
  if (read_only) m["readOnly"] = true;
  return m;
}

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

json::Object config_reloader(std::string_view name, bool init, std::string_view app, int app_port, json::Array watched_args, json::Array mounts,
                             json::Array env) {
  const std::string dir = "/etc/" + std::string(app);
  const std::string config = "--config-file=" + dir + "/config/" + std::string(app) + ".yaml.gz";
  const std::string envsubst = "--config-envsubst-file=" + dir + "/config_out/" + std::string(app) + ".env.yaml";
  json::Array args;
  if (init) {
    args = json::Array{"--watch-interval=0", "--listen-address=:8081", config, envsubst};
  } else {
    args = json::Array{"--listen-address=:8080", "--reload-url=http://127.0.0.1:" + std::to_string(app_port) + "/-/reload", config, envsubst};
    for (auto& a : watched_args) args.push_back(std::move(a));
  }
  json::Array all_mounts{volume_mount(app == "prometheus" ? "config" : "config-volume", dir + "/config"), volume_mount("config-out", dir + "/config_out")};
  for (auto& m : mounts) all_mounts.push_back(std::move(m));
  json::Array all_env{json::Object{{"name", "POD_NAME"},
                                   {"valueFrom", json::Object{{"fieldRef", json::Object{{"apiVersion", "v1"}, {"fieldPath", "metadata.name"}}}}}}};
  for (auto& e : env) all_env.push_back(std::move(e));
  json::Object c{{"name", name},
                 {"image", kConfigReloaderImage},
                 {"command", json::Array{"/bin/prometheus-config-reloader"}},
                 {"args", std::move(args)},
                 {"env", std::move(all_env)},
                 {"resources", json::Object{{"requests", json::Object{{"cpu", "10m"}, {"memory", "50Mi"}}},
                                            {"limits", json::Object{{"cpu", "10m"}, {"memory", "50Mi"}}}}},
                 {"volumeMounts", std::move(all_mounts)}};
  if (!init) c["ports"] = json::Array{json::Object{{"name", "reloader-web"}, {"containerPort", 8080}, {"protocol", "TCP"}}};
  return c;
}

}  // namespace capstan::monitoring::build
