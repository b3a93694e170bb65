#include "controllers/gitops/strategic_merge.h"

#include "controllers/gitops/kustomize_names.h"
#include "controllers/gitops/manifests.h"

#include <algorithm>
#include <array>

namespace capstan::gitops {
namespace {

enum class Lists { kReplace, kByKey, kSet };

// What Kubernetes declares for one field of one of its types: the field's own type (for maps that
// hold more declared fields) and, for a list, how it merges.
struct Field {
  std::string_view type, field, child;
  Lists list = Lists::kReplace;
  std::string_view key;
};

constexpr Field kSchema[] = {
    {"Workload", "spec", "WorkloadSpec"},
    {"WorkloadSpec", "template", "PodTemplateSpec"},
    {"CronJob", "spec", "CronJobSpec"},
    {"CronJobSpec", "jobTemplate", "JobTemplateSpec"},
    {"JobTemplateSpec", "metadata", "ObjectMeta"},
    {"JobTemplateSpec", "spec", "WorkloadSpec"},
    {"Pod", "spec", "PodSpec"},
    {"PodTemplateSpec", "metadata", "ObjectMeta"},
    {"PodTemplateSpec", "spec", "PodSpec"},
    {"PodSpec", "containers", "Container", Lists::kByKey, "name"},
    {"PodSpec", "initContainers", "Container", Lists::kByKey, "name"},
    {"PodSpec", "ephemeralContainers", "Container", Lists::kByKey, "name"},
    {"PodSpec", "volumes", "", Lists::kByKey, "name"},
    {"PodSpec", "imagePullSecrets", "", Lists::kByKey, "name"},
    {"PodSpec", "hostAliases", "", Lists::kByKey, "ip"},
    {"PodSpec", "topologySpreadConstraints", "", Lists::kByKey, "topologyKey"},
    {"PodSpec", "resourceClaims", "", Lists::kByKey, "name"},
    {"PodSpec", "schedulingGates", "", Lists::kByKey, "name"},
    {"Container", "ports", "", Lists::kByKey, "containerPort"},
    {"Container", "env", "", Lists::kByKey, "name"},
    {"Container", "volumeMounts", "", Lists::kByKey, "mountPath"},
    {"Container", "volumeDevices", "", Lists::kByKey, "devicePath"},
    {"Service", "spec", "ServiceSpec"},
    {"ServiceSpec", "ports", "", Lists::kByKey, "port"},
    {"ServiceAccount", "secrets", "", Lists::kByKey, "name"},
    {"ServiceAccount", "imagePullSecrets", "", Lists::kByKey, "name"},
    {"WebhookConfiguration", "webhooks", "", Lists::kByKey, "name"},
    {"ObjectMeta", "finalizers", "", Lists::kSet},
    {"ObjectMeta", "ownerReferences", "", Lists::kByKey, "uid"},
};

constexpr std::array kBuiltinGroups = {
    std::string_view(""),          std::string_view("apps"),       std::string_view("batch"),
    std::string_view("networking.k8s.io"), std::string_view("rbac.authorization.k8s.io"), std::string_view("policy"),
    std::string_view("autoscaling"), std::string_view("storage.k8s.io"), std::string_view("admissionregistration.k8s.io"),
    std::string_view("apiextensions.k8s.io"), std::string_view("scheduling.k8s.io"), std::string_view("coordination.k8s.io"),
    std::string_view("discovery.k8s.io"), std::string_view("node.k8s.io"), std::string_view("certificates.k8s.io"),
    std::string_view("apiregistration.k8s.io")};

// Where the merge is: the declared type of the map (empty when not tracked) and whether the kind
// has a schema at all.
struct Context {
  std::string_view type;
  bool schema = false;
  std::string where;
};

std::string_view root_type(std::string_view kind) {
  if (kind == "Deployment" || kind == "ReplicaSet" || kind == "DaemonSet" || kind == "StatefulSet" || kind == "Job" ||
      kind == "ReplicationController")
    return "Workload";
  if (kind == "CronJob" || kind == "Pod" || kind == "Service" || kind == "ServiceAccount") return kind;
  if (kind == "ValidatingWebhookConfiguration" || kind == "MutatingWebhookConfiguration") return "WebhookConfiguration";
  return "";
}

const Field* declared(std::string_view type, std::string_view field) {
  for (const auto& f : kSchema)
    if (f.type == type && f.field == field) return &f;
  return nullptr;
}

std::string_view directive(const json::Value& v) {
  return v.is_object() ? json::get_string(v, {"$patch"}) : std::string_view();
}

// The patch without its directives, for where it is used as it is (new items, replaced maps).
json::Value plain(const json::Value& v) {
  if (v.is_object()) {
    json::Object out;
    for (const auto& kv : v.get_object())
      if (!kv.key().starts_with("$")) out[kv.key()] = plain(kv.value());
    return out;
  }
  if (v.is_array()) {
    json::Array out;
    for (const auto& e : v.get_array())
      if (directive(e).empty()) out.push_back(plain(e));
    return out;
  }
  return v;
}

std::optional<json::Value> merge_map(const json::Value& dst, const json::Object& patch, const Context& ctx);

json::Value merge_list(const json::Value* dst, const json::Array& patch, const Field* field, const Context& child, std::string_view name) {
  const json::Array* existing = dst && dst->is_array() ? &dst->get_array() : nullptr;
  Lists mode = Lists::kReplace;
  std::string key;
  if (child.schema && field) mode = field->list, key = std::string(field->key);
  // Directives kyaml honours in lists: {$patch: replace} in a list merged by key (the list becomes
  // the patch's), and $patch: delete on an item of it. Elsewhere it would keep them as data.
  for (std::size_t i = 0; i < patch.size(); ++i) {
    std::string_view d = directive(patch[i]);
    if (d.empty()) continue;
    const bool alone = patch[i].get_object().size() == 1;
    if (mode == Lists::kByKey && d == "replace" && alone) return plain(json::Value(patch));
    if (mode == Lists::kByKey && d == "delete" && !alone) continue;
    throw BuildError(child.where + "[" + std::to_string(i) + "]: $patch: " + std::string(d) + " is not supported here (in " + std::string(name) +
                     ", kustomize would not apply it)");
  }
  if (mode == Lists::kReplace) return json::Value(patch);
  // kyaml's order: the patch's items (merged with the ones they match), then the other items.
  json::Array rest = existing ? *existing : json::Array();
  json::Array out;
  if (mode == Lists::kSet) {
    for (const auto& e : patch) {
      rest.erase(std::remove(rest.begin(), rest.end(), e), rest.end());
      if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
    }
    for (auto& e : rest) out.push_back(std::move(e));
    return out;
  }
  for (std::size_t i = 0; i < patch.size(); ++i) {
    const auto& item = patch[i];
    const std::string where = child.where + "[" + std::to_string(i) + "]";
    const json::Value* id = item.is_object() ? item.get_object().if_contains(key) : nullptr;
    if (!id) throw BuildError(where + ": an item of " + std::string(name) + " without its merge key " + key);
    auto at = std::find_if(rest.begin(), rest.end(), [&](const json::Value& e) {
      return e.is_object() && e.get_object().if_contains(key) && *e.get_object().if_contains(key) == *id;
    });
    json::Value base = json::Object();
    if (at != rest.end()) {
      base = std::move(*at);
      rest.erase(at);
    }
    if (directive(item) == "delete") continue;
    auto merged = merge_map(base, item.get_object(), Context{child.type, child.schema, where});
    if (merged) out.push_back(std::move(*merged));
  }
  for (auto& e : rest) out.push_back(std::move(e));
  return out;
}

std::optional<json::Value> merge_map(const json::Value& dst, const json::Object& patch, const Context& ctx) {
  std::string_view d = directive(json::Value(patch));
  if (d == "delete") return std::nullopt;
  if (d == "replace") return plain(json::Value(patch));
  if (!d.empty()) throw BuildError(ctx.where + ": unknown $patch directive \"" + std::string(d) + "\" (replace, delete)");
  json::Value out = dst.is_object() ? dst : json::Value(json::Object());
  auto& result = out.as_object();
  for (const auto& kv : patch) {
    const std::string_view k = kv.key();
    const json::Value& v = kv.value();
    if (k == "$patch") continue;
    if (k.starts_with("$")) throw BuildError(ctx.where + ": " + std::string(k) + " is not supported (kustomize would keep it as a field of the object)");
    if (v.is_null()) {
      result.erase(k);
      continue;
    }
    const Field* field = ctx.schema ? declared(ctx.type, k) : nullptr;
    Context child{field ? field->child : (k == "metadata" && !ctx.type.empty() ? std::string_view("ObjectMeta") : std::string_view()),
                  ctx.schema, ctx.where + "." + std::string(k)};
    if (v.is_array()) {
      result[k] = merge_list(result.if_contains(k), v.get_array(), field, child, k);
    } else if (v.is_object()) {
      const json::Value* existing = result.if_contains(k);
      auto merged = merge_map(existing ? *existing : json::Value(json::Object()), v.get_object(), child);
      if (merged) result[k] = std::move(*merged);
      else result.erase(k);
    } else {
      result[k] = v;
    }
  }
  return out;
}


}  // namespace

std::optional<json::Value> strategic_merge(const json::Value& target, const json::Value& patch, const std::string& where) {
  if (!patch.is_object()) throw BuildError(where + ": a strategic-merge patch must be a map");
  if (directive(patch) == "delete") return std::nullopt;
  // The patch names its target; merging that name would undo the renames since.
  json::Object body = patch.get_object();
  body.erase("apiVersion");
  body.erase("kind");
  if (auto* meta = body.if_contains("metadata"); meta && meta->is_object()) {
    meta->as_object().erase("name");
    meta->as_object().erase("namespace");
  }
  const bool builtin = std::find(kBuiltinGroups.begin(), kBuiltinGroups.end(), kustomize::group_of(target)) != kBuiltinGroups.end();
  std::string_view type = builtin ? root_type(json::get_string(target, {"kind"})) : std::string_view();
  if (builtin && type.empty()) type = "Object";
  auto merged = merge_map(target, body, Context{type, builtin, where});
  return merged;
}

}  // namespace capstan::gitops
