// The built-in list/map semantics table (k8s.io/api struct tags) and the CRD schema adapter.
#include "apiserver/patch/list_types.h"

#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

namespace capstan::apiserver::patch {

ListType ListType::set(bool smp_merge) {
  ListType t;
  t.kind = ListKind::Set;
  t.smp = smp_merge ? SmpStrategy::Merge : SmpStrategy::Replace;
  return t;
}

ListType ListType::map(std::vector<std::string> keys, std::string smp_merge_key, bool retain_keys) {
  ListType t;
  t.kind = ListKind::Map;
  t.keys = std::move(keys);
  if (!smp_merge_key.empty()) {
    t.smp = SmpStrategy::Merge;
    t.smp_merge_key = std::move(smp_merge_key);
  }
  t.retain_keys = retain_keys;
  return t;
}

std::string describe(const FieldPath& path) {
  std::string out;
  for (const auto& step : path) {
    if (step == kListElement) out += "[]";
    else out += "." + step;
  }
  return out.empty() ? "." : out;
}

namespace {

std::string join(const FieldPath& path) {
  std::string key;
  for (const auto& step : path) {
    key += step;
    key += '\x1f';
  }
  return key;
}

FieldPath operator+(FieldPath a, const FieldPath& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const FieldPath E{std::string(kListElement)};  // "an element of"

class Table : public ListTypes {
 public:
  ListType at(const FieldPath& path) const override {
    auto it = lists_.find(join(path));
    return it == lists_.end() ? ListType::atomic() : it->second;
  }
  MapKind map_at(const FieldPath& path) const override {
    auto it = maps_.find(join(path));
    return it == maps_.end() ? MapKind::Struct : it->second;
  }

  void list(const FieldPath& path, ListType t) { lists_[join(path)] = std::move(t); }
  void map(const FieldPath& path, MapKind k) { maps_[join(path)] = k; }

  // k8s.io/apimachinery ObjectMeta at `p`.
  void object_meta(const FieldPath& p) {
    list(p + FieldPath{"finalizers"}, ListType::set(true));
    list(p + FieldPath{"ownerReferences"}, ListType::map({"uid"}, "uid"));
    map(p + FieldPath{"ownerReferences"} + E, MapKind::Atomic);  // OwnerReference: +structType=atomic
    map(p + FieldPath{"labels"}, MapKind::Map);
    map(p + FieldPath{"annotations"}, MapKind::Map);
  }

  void label_selector(const FieldPath& p) { map(p, MapKind::Atomic); }  // LabelSelector: +structType=atomic

  void container(const FieldPath& c) {
    ListType ports = ListType::map({"containerPort", "protocol"}, "containerPort");
    ports.key_defaults.emplace("protocol", "TCP");
    list(c + FieldPath{"ports"}, ports);
    list(c + FieldPath{"env"}, ListType::map({"name"}, "name"));
    for (const char* ref : {"configMapKeyRef", "secretKeyRef", "fieldRef", "resourceFieldRef"}) {
      map(c + FieldPath{"env"} + E + FieldPath{"valueFrom", ref}, MapKind::Atomic);
    }
    list(c + FieldPath{"volumeMounts"}, ListType::map({"mountPath"}, "mountPath"));
    list(c + FieldPath{"volumeDevices"}, ListType::map({"devicePath"}, "devicePath"));
    map(c + FieldPath{"resources", "limits"}, MapKind::Map);
    map(c + FieldPath{"resources", "requests"}, MapKind::Map);
    list(c + FieldPath{"resources", "claims"}, ListType::map({"name"}));
  }

  // k8s.io/api/core/v1 PodSpec at `s`.
  void pod_spec(const FieldPath& s) {
    for (const char* kind : {"containers", "initContainers", "ephemeralContainers"}) {
      list(s + FieldPath{kind}, ListType::map({"name"}, "name"));
      container(s + FieldPath{kind} + E);
    }
    list(s + FieldPath{"volumes"}, ListType::map({"name"}, "name", /*retain_keys=*/true));
    list(s + FieldPath{"imagePullSecrets"}, ListType::map({"name"}, "name"));
    map(s + FieldPath{"imagePullSecrets"} + E, MapKind::Atomic);  // LocalObjectReference: +structType=atomic
    list(s + FieldPath{"hostAliases"}, ListType::map({"ip"}, "ip"));
    list(s + FieldPath{"topologySpreadConstraints"}, ListType::map({"topologyKey", "whenUnsatisfiable"}, "topologyKey"));
    label_selector(s + FieldPath{"topologySpreadConstraints"} + E + FieldPath{"labelSelector"});
    list(s + FieldPath{"schedulingGates"}, ListType::map({"name"}, "name"));
    list(s + FieldPath{"resourceClaims"}, ListType::map({"name"}, "name", /*retain_keys=*/true));
    map(s + FieldPath{"nodeSelector"}, MapKind::Map);
    map(s + FieldPath{"overhead"}, MapKind::Map);
    map(s + FieldPath{"affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"}, MapKind::Atomic);
    for (const char* a : {"podAffinity", "podAntiAffinity"}) {
      label_selector(s + FieldPath{"affinity", a, "requiredDuringSchedulingIgnoredDuringExecution"} + E + FieldPath{"labelSelector"});
      label_selector(s + FieldPath{"affinity", a, "requiredDuringSchedulingIgnoredDuringExecution"} + E + FieldPath{"namespaceSelector"});
    }
    // tolerations, readinessGates, dnsConfig lists, securityContext lists: atomic (the default).
  }

  void pod_template(const FieldPath& t) {
    object_meta(t + FieldPath{"metadata"});
    pod_spec(t + FieldPath{"spec"});
  }

  void conditions(const FieldPath& p, bool ssa_atomic = false) {
    ListType t = ListType::map({"type"}, "type");
    if (ssa_atomic) {
      t.kind = ListKind::Atomic;
      t.keys.clear();
    }
    list(p, t);
  }

 private:
  std::unordered_map<std::string, ListType> lists_;
  std::unordered_map<std::string, MapKind> maps_;
};

std::string_view group_of(std::string_view api_version) {
  auto slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view{} : api_version.substr(0, slash);
}

std::shared_ptr<Table> build(std::string_view group, std::string_view kind) {
  auto t = std::make_shared<Table>();
  t->object_meta({"metadata"});
  if (group.empty()) {
    if (kind == "Pod") {
      t->pod_spec({"spec"});
      t->conditions({"status", "conditions"});
      t->list({"status", "podIPs"}, ListType::map({"ip"}, "ip"));
      t->list({"status", "hostIPs"}, ListType::map({"ip"}, "ip"));
      t->list({"status", "resourceClaimStatuses"}, ListType::map({"name"}, "name"));
    } else if (kind == "PodTemplate") {
      t->pod_template({"template"});
    } else if (kind == "ReplicationController") {
      t->map({"spec", "selector"}, MapKind::Map);
      t->pod_template({"spec", "template"});
      t->conditions({"status", "conditions"});
    } else if (kind == "Service") {
      ListType ports = ListType::map({"port", "protocol"}, "port");
      ports.key_defaults.emplace("protocol", "TCP");
      t->list({"spec", "ports"}, ports);
      t->map({"spec", "selector"}, MapKind::Atomic);  // ServiceSpec.selector: +mapType=atomic
      t->conditions({"status", "conditions"});
    } else if (kind == "ConfigMap" || kind == "Secret") {
      t->map({"data"}, MapKind::Map);
      t->map({"binaryData"}, MapKind::Map);
      t->map({"stringData"}, MapKind::Map);
    } else if (kind == "Namespace") {
      t->conditions({"status", "conditions"});
    } else if (kind == "Node") {
      t->list({"spec", "podCIDRs"}, ListType::set(true));
      t->conditions({"status", "conditions"});
      t->list({"status", "addresses"}, ListType::map({"type"}, "type"));
      t->map({"status", "capacity"}, MapKind::Map);
      t->map({"status", "allocatable"}, MapKind::Map);
    } else if (kind == "ServiceAccount") {
      t->list({"secrets"}, ListType::map({"name"}, "name"));
    } else if (kind == "PersistentVolumeClaim") {
      t->conditions({"status", "conditions"});
      t->map({"spec", "resources", "requests"}, MapKind::Map);
      t->map({"spec", "resources", "limits"}, MapKind::Map);
      t->map({"status", "capacity"}, MapKind::Map);
    }
    // Endpoints.subsets and every list not named here are atomic.
  } else if (group == "apps") {
    if (kind == "Deployment" || kind == "ReplicaSet" || kind == "StatefulSet" || kind == "DaemonSet") {
      t->label_selector({"spec", "selector"});
      t->pod_template({"spec", "template"});
      t->conditions({"status", "conditions"});
      // StatefulSet volumeClaimTemplates: atomic.
    }
  } else if (group == "batch") {
    if (kind == "Job") {
      t->label_selector({"spec", "selector"});
      t->pod_template({"spec", "template"});
      t->conditions({"status", "conditions"}, /*ssa_atomic=*/true);  // +listType=atomic, patchMergeKey=type
    } else if (kind == "CronJob") {
      t->object_meta({"spec", "jobTemplate", "metadata"});
      t->label_selector({"spec", "jobTemplate", "spec", "selector"});
      t->pod_template({"spec", "jobTemplate", "spec", "template"});
    }
  } else if (group == "policy") {
    if (kind == "PodDisruptionBudget") {
      t->label_selector({"spec", "selector"});
      t->conditions({"status", "conditions"});
    }
  } else if (group == "admissionregistration.k8s.io") {
    if (kind == "MutatingWebhookConfiguration" || kind == "ValidatingWebhookConfiguration") {
      t->list({"webhooks"}, ListType::map({"name"}, "name"));
      t->label_selector({"webhooks", "[]", "namespaceSelector"});
      t->label_selector({"webhooks", "[]", "objectSelector"});
      t->list({"webhooks", "[]", "matchConditions"}, ListType::map({"name"}, "name"));
    }
  } else if (group == "apiextensions.k8s.io") {
    if (kind == "CustomResourceDefinition") {
      // spec.versions is +listType=atomic upstream (no patchStrategy).
      t->conditions({"status", "conditions"});
    }
  } else if (group == "apiregistration.k8s.io") {
    if (kind == "APIService") t->conditions({"status", "conditions"});
  } else if (group == "networking.k8s.io") {
    if (kind == "NetworkPolicy") t->label_selector({"spec", "podSelector"});
  } else if (group == "rbac.authorization.k8s.io") {
    // Roles' rules, bindings' subjects: atomic lists; RoleRef: +structType=atomic.
    if (kind == "RoleBinding" || kind == "ClusterRoleBinding") t->map({"roleRef"}, MapKind::Atomic);
  } else if (group == "coordination.k8s.io" || group == "events.k8s.io") {
    // Every list atomic.
  }
  return t;
}

class SchemaTypes : public ListTypes {
 public:
  explicit SchemaTypes(json::Value schema) : schema_(std::move(schema)), meta_(std::make_shared<Table>()) {
    meta_->object_meta({});
  }

  ListType at(const FieldPath& path) const override {
    if (auto meta = metadata_rest(path)) return meta_->at(*meta);
    const json::Object* n = resolve(path);
    if (!n) return ListType::atomic();
    std::string_view type = string_member(*n, "x-kubernetes-list-type");
    if (type == "set") return ListType::set(true);
    if (type != "map") return ListType::atomic();
    ListType t;
    t.kind = ListKind::Map;
    if (const auto* keys = member(*n, "x-kubernetes-list-map-keys"); keys && keys->is_array()) {
      for (const auto& k : keys->get_array()) {
        if (k.is_string()) t.keys.emplace_back(k.get_string());
      }
    }
    const json::Object* item_props = nullptr;
    if (const auto* items = member(*n, "items"); items && items->is_object()) {
      if (const auto* props = member(items->get_object(), "properties"); props && props->is_object()) item_props = &props->get_object();
    }
    for (const auto& k : t.keys) {
      if (!item_props) break;
      const auto* prop = item_props->if_contains(k);
      if (!prop || !prop->is_object()) continue;
      if (const auto* def = prop->get_object().if_contains("default")) t.key_defaults.emplace(k, *def);
    }
    if (!t.keys.empty()) {
      t.smp = SmpStrategy::Merge;
      t.smp_merge_key = t.keys.front();
    }
    return t;
  }

  MapKind map_at(const FieldPath& path) const override {
    if (path.empty()) return MapKind::Struct;
    if (auto meta = metadata_rest(path)) return meta->empty() ? MapKind::Struct : meta_->map_at(*meta);
    const json::Object* n = resolve(path);
    if (!n) return MapKind::Map;  // unknown fields are typed as a deduced map
    if (string_member(*n, "x-kubernetes-map-type") == "atomic") return MapKind::Atomic;
    if (const auto* props = member(*n, "properties"); props && props->is_object() && !props->get_object().empty()) {
      return MapKind::Struct;
    }
    if (const auto* ap = member(*n, "additionalProperties"); ap && (ap->is_object() || (ap->is_bool() && ap->get_bool()))) {
      return MapKind::Map;
    }
    if (bool_member(*n, "x-kubernetes-preserve-unknown-fields")) return MapKind::Map;
    return MapKind::Struct;
  }

 private:
  static const json::Value* member(const json::Object& o, std::string_view name) { return o.if_contains(name); }
  static bool bool_member(const json::Object& o, std::string_view name) {
    const auto* v = o.if_contains(name);
    return v && v->is_bool() && v->get_bool();
  }
  static std::string_view string_member(const json::Object& o, std::string_view name) {
    const auto* v = o.if_contains(name);
    if (!v || !v->is_string()) return {};
    return {v->get_string().data(), v->get_string().size()};
  }

  // For paths inside an ObjectMeta (the object's own or an embedded resource's), the rest of the path
  // below "metadata".
  std::optional<FieldPath> metadata_rest(const FieldPath& path) const {
    const json::Object* n = schema_.if_object();
    for (std::size_t i = 0; i < path.size(); ++i) {
      bool embedded = i == 0 || (n && bool_member(*n, "x-kubernetes-embedded-resource"));
      if (path[i] == "metadata" && embedded) return FieldPath(path.begin() + static_cast<std::ptrdiff_t>(i) + 1, path.end());
      n = step(n, path[i]);
      if (!n) return std::nullopt;
    }
    return std::nullopt;
  }

  static const json::Object* step(const json::Object* n, const std::string& s) {
    if (!n) return nullptr;
    if (s == kListElement) {
      const auto* items = member(*n, "items");
      return items && items->is_object() ? &items->get_object() : nullptr;
    }
    if (const auto* props = member(*n, "properties"); props && props->is_object()) {
      if (const auto* p = props->get_object().if_contains(s); p && p->is_object()) return &p->get_object();
    }
    if (const auto* ap = member(*n, "additionalProperties"); ap && ap->is_object()) return &ap->get_object();
    return nullptr;
  }

  const json::Object* resolve(const FieldPath& path) const {
    const json::Object* n = schema_.if_object();
    for (const auto& s : path) {
      n = step(n, s);
      if (!n) return nullptr;
    }
    return n;
  }

  json::Value schema_;
  std::shared_ptr<Table> meta_;
};

class Defaults : public ListTypes {
 public:
  ListType at(const FieldPath&) const override { return ListType::atomic(); }
};

}  // namespace

const ListTypes& default_list_types() {
  static const Defaults d;
  return d;
}

std::shared_ptr<const ListTypes> builtin_list_types(std::string_view api_version, std::string_view kind) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const ListTypes>, std::less<>> cache;
  std::string key = std::string(group_of(api_version)) + "/" + std::string(kind);
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  std::shared_ptr<const ListTypes> t = build(group_of(api_version), kind);
  cache.emplace(std::move(key), t);
  return t;
}

bool is_builtin_kind(std::string_view api_version, std::string_view kind) {
  std::string_view group = group_of(api_version);
  if (group.empty() || group.find('.') == std::string_view::npos) return true;
  constexpr std::string_view suffix = ".k8s.io";
  return group.size() > suffix.size() && group.substr(group.size() - suffix.size()) == suffix;
}

std::shared_ptr<const ListTypes> schema_list_types(json::Value open_api_v3_schema) {
  return std::make_shared<SchemaTypes>(std::move(open_api_v3_schema));
}

}  // namespace capstan::apiserver::patch
