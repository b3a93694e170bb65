// Pieces of the objects the monitoring controllers generate (objects.h for Prometheus,
// alertmanager_objects.h for Alertmanager): metadata with the owner reference, mounts, the pod
// settings users pass through, and prometheus-operator's merge of user containers by name.
#pragma once

#include "apis/monitoring/v1/types.h"
#include "runtime/json/json.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::monitoring::build {

json::Object string_map(const std::map<std::string, std::string>& m);

// name, the owner's namespace, labels and a reference to `owner` (a controller reference unless
// `controller` is false: a Service shared by the namespace's owners).
json::Object metadata(const json::Value& owner, std::string name, const std::map<std::string, std::string>& labels, bool controller = true);

// {apiVersion, kind, metadata}.
json::Object typed(std::string_view api_version, std::string_view kind, json::Object metadata);

// An Opaque Secret `name` of `owner` holding `content` gzipped under `key`. A Secret holds 1 MiB
// (kMaxConfigSecretBytes): beyond it, std::length_error naming `what`, the sizes and `advice`,
// rather than the API server's refusal of the write.
json::Object compressed_secret(const json::Value& owner, std::string name, const std::map<std::string, std::string>& labels,
                               std::string_view key, const std::string& content, std::string_view what, std::string_view advice);

json::Object volume_mount(std::string_view name, std::string_view path, bool read_only = false);

// Where a workload keeps its data (prometheus-operator's StorageSpec): an emptyDir, spec.storage's
// emptyDir or ephemeral volume, or a claim per pod from its volumeClaimTemplate (named as its
// metadata.name says, else `default_name`), kept when the pod is replaced. Adds the volume to
// `volumes` (or the claim template and the claims' retention policy to `sts_spec`) and returns
// the mount at `path` — through the subPath `sub_path` when storage is set, unless
// disableMountSubPath.
struct StorageTarget {
  json::Array& volumes;
  json::Object& sts_spec;
};
json::Object data_volume(const std::optional<apis::monitoring::v1::StorageSpec>& storage, const std::optional<json::Value>& claim_retention,
                         const std::string& default_name, std::string_view path, std::string_view sub_path, StorageTarget target);

// prometheus-operator's config-reloader for `app` ("prometheus" or "alertmanager"): it writes
// /etc/<app>/config/<app>.yaml.gz out as /etc/<app>/config_out/<app>.env.yaml and (but as the init
// container) watches it and `watched_args` (--watched-dir=...), reloading the app on its port.
// `mounts` and `env` are added to the config and config-out mounts and POD_NAME.
inline constexpr std::string_view kConfigReloaderImage = "quay.io/prometheus-operator/prometheus-config-reloader:v0.93.0";
json::Object config_reloader(std::string_view name, bool init, std::string_view app, int app_port, json::Array watched_args, json::Array mounts,
                             json::Array env);

// `items` (containers, volumes...) with `user`'s merged in by name: an item of the same name is
// changed (its volumeMounts merged by mountPath and env by name, any other field replaced),
// others are added; prometheus-operator's strategic merge of spec.containers.
void merge_by_name(json::Array& items, const std::vector<json::Value>& user);

// The pod settings a Prometheus or Alertmanager spec passes through as written.
template <class Spec>
void pod_settings(json::Object& pod_spec, const Spec& spec) {
  if (!spec.service_account_name.empty()) pod_spec["serviceAccountName"] = spec.service_account_name;
  if (!spec.node_selector.empty()) pod_spec["nodeSelector"] = string_map(spec.node_selector);
  if (!spec.tolerations.empty()) pod_spec["tolerations"] = json::Array(spec.tolerations.begin(), spec.tolerations.end());
  if (spec.affinity) pod_spec["affinity"] = *spec.affinity;
  if constexpr (requires { spec.topology_spread_constraints; })
    if (!spec.topology_spread_constraints.empty())
      pod_spec["topologySpreadConstraints"] = json::Array(spec.topology_spread_constraints.begin(), spec.topology_spread_constraints.end());
  if (spec.security_context) pod_spec["securityContext"] = *spec.security_context;
  if (!spec.priority_class_name.empty()) pod_spec["priorityClassName"] = spec.priority_class_name;
  if (!spec.image_pull_secrets.empty()) pod_spec["imagePullSecrets"] = json::Array(spec.image_pull_secrets.begin(), spec.image_pull_secrets.end());
}

}  // namespace capstan::monitoring::build
