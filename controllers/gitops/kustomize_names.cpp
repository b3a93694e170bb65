#include "controllers/gitops/kustomize_names.h"

#include "controllers/gitops/manifests.h"

#include <algorithm>
#include <array>
#include <functional>
#include <set>
#include <unordered_map>
#include <utility>

namespace capstan::gitops::kustomize {
namespace {

constexpr std::array kClusterScoped = {
    std::string_view("APIService"),
    std::string_view("CertificateSigningRequest"),
    std::string_view("ClusterRole"),
    std::string_view("ClusterRoleBinding"),
    std::string_view("ComponentStatus"),
    std::string_view("CSIDriver"),
    std::string_view("CSINode"),
    std::string_view("CustomResourceDefinition"),
    std::string_view("FlowSchema"),
    std::string_view("IngressClass"),
    std::string_view("MutatingWebhookConfiguration"),
    std::string_view("Namespace"),
    std::string_view("Node"),
    std::string_view("PersistentVolume"),
    std::string_view("PriorityClass"),
    std::string_view("PriorityLevelConfiguration"),
    std::string_view("RuntimeClass"),
    std::string_view("StorageClass"),
    std::string_view("ValidatingAdmissionPolicy"),
    std::string_view("ValidatingAdmissionPolicyBinding"),
    std::string_view("ValidatingWebhookConfiguration"),
    std::string_view("VolumeAttachment"),
};

// One field that names another object: `path` below the referrer (or, when `referrer` is empty,
// below the pod spec of every kind that has one), "x[]" stepping into every item of a list.
struct Reference {
  std::string group, referent;  // what is referred to (API group, kind)
  std::string referrer;         // a kind; "" for every kind with a pod spec
  std::string path;
  bool kind_beside = false;       // the sibling "kind" must name `referent` (roleRef, subjects, scaleTargetRef)
  bool namespace_beside = false;  // the sibling "namespace" names the referent's namespace, and follows it
  bool any_group = false;         // a referent of any API group (the crds field names kinds only)
};

constexpr const char* kRbac = "rbac.authorization.k8s.io";

const std::vector<Reference>& references() {
  static const std::vector<Reference> table = [] {
    std::vector<Reference> t;
    for (std::string_view containers : {"containers[]", "initContainers[]", "ephemeralContainers[]"}) {
      auto below = [&](std::string_view rest) { return std::string(containers) + "/" + std::string(rest); };
      t.push_back({"", "ConfigMap", "", below("env[]/valueFrom/configMapKeyRef/name")});
      t.push_back({"", "ConfigMap", "", below("envFrom[]/configMapRef/name")});
      t.push_back({"", "Secret", "", below("env[]/valueFrom/secretKeyRef/name")});
      t.push_back({"", "Secret", "", below("envFrom[]/secretRef/name")});
    }
    const Reference rest[] = {
        {"", "ConfigMap", "", "volumes[]/configMap/name"},
        {"", "ConfigMap", "", "volumes[]/projected/sources[]/configMap/name"},
        {"", "Secret", "", "volumes[]/secret/secretName"},
        {"", "Secret", "", "volumes[]/projected/sources[]/secret/name"},
        {"", "Secret", "", "imagePullSecrets[]/name"},
        {"", "Secret", "Ingress", "spec/tls[]/secretName"},
        {"", "Secret", "ServiceAccount", "imagePullSecrets[]/name"},
        {"", "Secret", "ServiceAccount", "secrets[]/name"},
        {"", "ServiceAccount", "", "serviceAccountName"},
        {"", "ServiceAccount", "", "serviceAccount"},
        {"", "ServiceAccount", "RoleBinding", "subjects[]/name", true, true},
        {"", "ServiceAccount", "ClusterRoleBinding", "subjects[]/name", true, true},
        {"", "PersistentVolumeClaim", "", "volumes[]/persistentVolumeClaim/claimName"},
        {"", "PersistentVolume", "PersistentVolumeClaim", "spec/volumeName"},
        {"", "Service", "StatefulSet", "spec/serviceName"},
        {"", "Service", "Ingress", "spec/rules[]/http/paths[]/backend/service/name"},
        {"", "Service", "Ingress", "spec/defaultBackend/service/name"},
        {"", "Service", "ValidatingWebhookConfiguration", "webhooks[]/clientConfig/service/name", false, true},
        {"", "Service", "MutatingWebhookConfiguration", "webhooks[]/clientConfig/service/name", false, true},
        {"", "Service", "APIService", "spec/service/name", false, true},
        {kRbac, "Role", "RoleBinding", "roleRef/name", true},
        {kRbac, "ClusterRole", "RoleBinding", "roleRef/name", true},
        {kRbac, "ClusterRole", "ClusterRoleBinding", "roleRef/name", true},
        {"scheduling.k8s.io", "PriorityClass", "", "priorityClassName"},
        {"storage.k8s.io", "StorageClass", "PersistentVolumeClaim", "spec/storageClassName"},
        {"storage.k8s.io", "StorageClass", "PersistentVolume", "spec/storageClassName"},
        {"storage.k8s.io", "StorageClass", "StatefulSet", "spec/volumeClaimTemplates[]/spec/storageClassName"},
        {"apps", "Deployment", "HorizontalPodAutoscaler", "spec/scaleTargetRef/name", true},
        {"apps", "StatefulSet", "HorizontalPodAutoscaler", "spec/scaleTargetRef/name", true},
        {"apps", "ReplicaSet", "HorizontalPodAutoscaler", "spec/scaleTargetRef/name", true},
    };
    t.insert(t.end(), std::begin(rest), std::end(rest));
    return t;
  }();
  return table;
}

// Where the pod spec of a kind is ("" for kinds without one).
std::string_view pod_spec_path(std::string_view kind) {
  if (kind == "Pod") return "spec";
  if (kind == "PodTemplate") return "template/spec";
  if (kind == "Deployment" || kind == "ReplicaSet" || kind == "DaemonSet" || kind == "StatefulSet" || kind == "Job" ||
      kind == "ReplicationController")
    return "spec/template/spec";
  if (kind == "CronJob") return "spec/jobTemplate/spec/template/spec";
  return "";
}

using Visit = std::function<void(json::Object& parent, json::Value& name)>;

void walk(json::Value& node, std::string_view path, const Visit& visit) {
  if (!node.is_object()) return;
  auto slash = path.find('/');
  std::string_view step = path.substr(0, slash);
  const bool list = step.ends_with("[]");
  if (list) step.remove_suffix(2);
  auto* next = node.as_object().if_contains(step);
  if (!next) return;
  if (slash == std::string_view::npos) {
    if (next->is_string()) visit(node.as_object(), *next);
    return;
  }
  std::string_view rest = path.substr(slash + 1);
  if (!list) return walk(*next, rest, visit);
  if (next->is_array())
    for (auto& item : next->as_array()) walk(item, rest, visit);
}


std::string_view normal_namespace(std::string_view ns) { return ns.empty() ? std::string_view("default") : ns; }

// The ids an object has had, current one last: (namespace, name).
std::vector<std::pair<std::string, std::string>> ids(const json::Value& obj) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string_view text = json::get_string(obj, {"metadata", "annotations", kPreviousIdsAnnotation});
  while (!text.empty()) {
    auto comma = text.find(',');
    std::string_view id = text.substr(0, comma);
    auto slash = id.find('/');
    if (slash != std::string_view::npos) out.emplace_back(std::string(id.substr(0, slash)), std::string(id.substr(slash + 1)));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  out.emplace_back(std::string(json::get_string(obj, {"metadata", "namespace"})), std::string(json::get_string(obj, {"metadata", "name"})));
  return out;
}

std::string describe(const json::Value& o) {
  std::string ns(json::get_string(o, {"metadata", "namespace"}));
  return std::string(json::get_string(o, {"kind"})) + " " + (ns.empty() ? "" : ns + "/") + std::string(json::get_string(o, {"metadata", "name"}));
}

class Fixer {
 public:
  // Indexes the objects that references may mean by every name they had (their metadata does not
  // change while references are fixed).
  Fixer(std::vector<json::Value>& objects, const std::vector<CrdReference>& crds) : objects_(objects), refs_(references()) {
    for (const auto& c : crds) {
      Reference r;
      r.referent = c.referent_kind;
      r.referrer = c.referrer_kind;
      r.path = c.path;
      r.any_group = true;
      refs_.push_back(std::move(r));
    }
    std::set<std::string_view> referents;
    for (const auto& ref : refs_) referents.insert(ref.referent);
    for (const auto& o : objects_) {
      if (!referents.contains(json::get_string(o, {"kind"}))) continue;
      auto& entry = entries_.emplace_back(Entry{&o, ids(o)});
      std::set<std::string> names;
      for (const auto& [ns, name] : entry.history) names.insert(name);
      for (const auto& name : names) by_name_[name].push_back(entries_.size() - 1);
    }
  }

  void run() {
    for (auto& referrer : objects_) {
      std::string_view kind = json::get_string(referrer, {"kind"});
      std::string_view pod = pod_spec_path(kind);
      for (const auto& ref : refs_) {
        if (ref.referrer.empty()) {
          if (pod.empty()) continue;
          walk(referrer, std::string(pod) + "/" + ref.path, [&](json::Object& parent, json::Value& name) { fix(referrer, ref, parent, name); });
        } else if (ref.referrer == kind) {
          walk(referrer, ref.path, [&](json::Object& parent, json::Value& name) { fix(referrer, ref, parent, name); });
        }
      }
    }
  }

 private:
  void fix(const json::Value& referrer, const Reference& ref, json::Object& parent, json::Value& name) {
    if (ref.kind_beside && json::get_string(parent, {"kind"}) != ref.referent) return;
    const std::string wanted(name.get_string());
    std::string_view beside = ref.namespace_beside ? json::get_string(parent, {"namespace"}) : std::string_view();

    std::vector<const json::Value*> candidates;
    if (auto it = by_name_.find(wanted); it != by_name_.end())
      for (std::size_t i : it->second) {
        const Entry& e = entries_[i];
        if (json::get_string(*e.object, {"kind"}) != ref.referent || (!ref.any_group && group_of(*e.object) != ref.group)) continue;
        if (ref.namespace_beside && std::none_of(e.history.begin(), e.history.end(), [&](const auto& id) {
              return id.second == wanted && normal_namespace(id.first) == normal_namespace(beside);
            }))
          continue;
        candidates.push_back(e.object);
      }
    if (!ref.namespace_beside && !cluster_scoped(json::get_string(referrer, {"kind"}))) {
      std::string_view ns = json::get_string(referrer, {"metadata", "namespace"});
      sieve(candidates, [&](const json::Value& o) {
        return cluster_scoped(json::get_string(o, {"kind"})) || json::get_string(o, {"kind"}) == "ServiceAccount" ||
               normal_namespace(json::get_string(o, {"metadata", "namespace"})) == normal_namespace(ns);
      });
    }
    if (candidates.size() > 1) {
      auto affixes = [](const json::Value& o) {
        return std::make_pair(json::get_string(o, {"metadata", "annotations", kPrefixesAnnotation}),
                              json::get_string(o, {"metadata", "annotations", kSuffixesAnnotation}));
      };
      sieve(candidates, [&](const json::Value& o) { return affixes(o) == affixes(referrer); });
    }
    if (candidates.empty()) return;
    const json::Value& chosen = *candidates.front();
    std::string_view now = json::get_string(chosen, {"metadata", "name"});
    for (const auto* c : candidates)
      if (json::get_string(*c, {"metadata", "name"}) != now)
        throw BuildError(describe(referrer) + ": " + ref.path + " \"" + wanted + "\" could mean " + describe(chosen) + " or " + describe(*c));
    name = now;
    std::string_view ns = json::get_string(chosen, {"metadata", "namespace"});
    if (ref.namespace_beside && !ns.empty()) parent["namespace"] = ns;
  }

  template <class Keep>
  static void sieve(std::vector<const json::Value*>& candidates, Keep keep) {
    std::erase_if(candidates, [&](const json::Value* o) { return !keep(*o); });
  }

  struct Entry {
    const json::Value* object;
    std::vector<std::pair<std::string, std::string>> history;  // (namespace, name), current last
  };

  std::vector<json::Value>& objects_;
  std::vector<Reference> refs_;  // the built-in table and the crds' references
  std::vector<Entry> entries_;
  std::unordered_map<std::string, std::vector<std::size_t>> by_name_;  // any name -> entries_
};

}  // namespace

bool cluster_scoped(std::string_view kind) {
  return std::find(kClusterScoped.begin(), kClusterScoped.end(), kind) != kClusterScoped.end();
}

void remember_ids(std::vector<json::Value>& objects) {
  for (auto& o : objects) {
    if (!o.is_object()) continue;
    auto history = ids(o);
    auto current = history.back();
    history.pop_back();
    if (std::find(history.begin(), history.end(), current) != history.end()) continue;
    auto& meta = o.as_object()["metadata"];
    if (!meta.is_object()) meta = json::Object();
    auto& annotations = meta.as_object()["annotations"];
    if (!annotations.is_object()) annotations = json::Object();
    std::string text(json::get_string(annotations, {kPreviousIdsAnnotation}));
    annotations.as_object()[kPreviousIdsAnnotation] = text + (text.empty() ? "" : ",") + current.first + "/" + current.second;
  }
}

bool had_name(const json::Value& obj, std::string_view name) {
  for (const auto& [ns, n] : ids(obj))
    if (n == name) return true;
  return false;
}

bool had_id(const json::Value& obj, std::string_view ns, std::string_view name) {
  for (const auto& [was_ns, n] : ids(obj))
    if (n == name && normal_namespace(was_ns) == normal_namespace(ns)) return true;
  return false;
}

void remember_affixes(json::Value& obj, std::string_view prefix, std::string_view suffix) {
  auto& meta = obj.as_object()["metadata"];
  if (!meta.is_object()) meta = json::Object();
  auto& annotations = meta.as_object()["annotations"];
  if (!annotations.is_object()) annotations = json::Object();
  for (auto [key, affix] : {std::pair{kPrefixesAnnotation, prefix}, std::pair{kSuffixesAnnotation, suffix}}) {
    if (affix.empty()) continue;
    std::string list(json::get_string(annotations, {key}));
    annotations.as_object()[key] = list + (list.empty() ? "" : ",") + std::string(affix);
  }
}

std::string_view group_of(const json::Value& o) {
  std::string_view api_version = json::get_string(o, {"apiVersion"});
  auto slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

std::pair<std::string, std::string> original_id(const json::Value& obj) { return ids(obj).front(); }

void fix_name_references(std::vector<json::Value>& objects, const std::vector<CrdReference>& crds) { Fixer(objects, crds).run(); }

void drop_internal_annotations(json::Value& obj) {
  auto* meta = json::find(obj, {"metadata"});
  auto* annotations = meta && meta->is_object() ? meta->as_object().if_contains("annotations") : nullptr;
  if (!annotations || !annotations->is_object()) return;
  auto& a = annotations->as_object();
  std::size_t had = 0;
  for (auto key : {kPreviousIdsAnnotation, kNeedsHashAnnotation, kPrefixesAnnotation, kSuffixesAnnotation}) had += a.erase(key);
  if (had > 0 && a.empty()) meta->as_object().erase("annotations");
}

}  // namespace capstan::gitops::kustomize
