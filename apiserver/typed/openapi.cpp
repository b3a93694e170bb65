#include "apiserver/typed/openapi.h"

#include "apiserver/patch/list_types.h"
#include "apiserver/typed/check.h"

#include <map>

namespace capstan::apiserver::typed {
namespace {

constexpr std::string_view kRefPrefix = "#/components/schemas/";

json::Value ref_to(const std::string& name) {
  return json::Object{{"allOf", json::Array{json::Object{{"$ref", std::string(kRefPrefix) + name}}}}};
}

json::Value scalar_schema(schema::Type t) {
  switch (t) {
    case schema::Type::String: return json::Object{{"type", "string"}};
    case schema::Type::Bytes: return json::Object{{"type", "string"}, {"format", "byte"}};
    case schema::Type::Bool: return json::Object{{"type", "boolean"}};
    case schema::Type::Int32: return json::Object{{"type", "integer"}, {"format", "int32"}};
    case schema::Type::Int64: return json::Object{{"type", "integer"}, {"format", "int64"}};
    case schema::Type::Double: return json::Object{{"type", "number"}, {"format", "double"}};
    case schema::Type::Float: return json::Object{{"type", "number"}, {"format", "float"}};
    case schema::Type::Message: break;
  }
  return json::Object{};
}

json::Value special_schema(schema::Special s) {
  switch (s) {
    case schema::Special::Time:
    case schema::Special::MicroTime: return json::Object{{"type", "string"}, {"format", "date-time"}};
    case schema::Special::Duration: return json::Object{{"type", "string"}};
    case schema::Special::Quantity:
      return json::Object{{"oneOf", json::Array{json::Object{{"type", "string"}}, json::Object{{"type", "number"}}}}};
    case schema::Special::IntOrString:
      return json::Object{{"format", "int-or-string"},
                          {"oneOf", json::Array{json::Object{{"type", "integer"}}, json::Object{{"type", "string"}}}}};
    case schema::Special::RawExtension:
    case schema::Special::FieldsV1: return json::Object{{"type", "object"}};
    case schema::Special::StringList:
      return json::Object{{"type", "array"}, {"items", json::Object{{"type", "string"}, {"default", ""}}}};
    case schema::Special::None: break;
  }
  return json::Object{};
}

json::Value type_meta_property() { return json::Object{{"type", "string"}}; }

class Generator {
 public:
  Generator(json::Object& schemas, const patch::ListTypes& lt) : schemas_(schemas), lt_(lt) {}

  // The component of `m` reached at `path` from the kind's root; generated once.
  std::string component(const schema::Message& m, const patch::FieldPath& path) {
    std::string name = definition_name(m);
    if (schemas_.contains(name)) return name;
    if (m.special != schema::Special::None) {
      schemas_[name] = special_schema(m.special);
      return name;
    }
    schemas_[name] = json::Object{{"type", "object"}};  // placeholder: recursion stops here
    std::map<std::string, json::Value> props;
    if (has_type_meta(m)) {
      props["apiVersion"] = type_meta_property();
      props["kind"] = type_meta_property();
    }
    add_fields(m, path, props);
    json::Object properties;
    for (auto& [k, v] : props) properties[k] = std::move(v);
    json::Object out{{"type", "object"}};
    if (!properties.empty()) out["properties"] = std::move(properties);
    schemas_[name] = std::move(out);
    return name;
  }

 private:
  static bool has_type_meta(const schema::Message& m) {
    for (const auto& k : schema::kinds())
      if (k.message == &m) return true;
    return false;
  }

  void add_fields(const schema::Message& m, const patch::FieldPath& path, std::map<std::string, json::Value>& props) {
    for (const auto& f : m.fields) {
      if (f.inlined()) {
        add_fields(*f.message, path, props);
        continue;
      }
      patch::FieldPath p = path;
      p.emplace_back(f.json);
      props[std::string(f.json)] = field_schema(f, p);
    }
  }

  json::Value value_schema(const schema::Field& f, const patch::FieldPath& path) {
    if (f.type != schema::Type::Message) return scalar_schema(f.type);
    return ref_to(component(*f.message, path));
  }

  json::Value field_schema(const schema::Field& f, const patch::FieldPath& path) {
    if (f.card == schema::Card::Single) {
      json::Value v = value_schema(f, path);
      // A struct held by value: kube's OpenAPI gives it `default: {}`.
      if (f.by_value() && v.is_object()) v.as_object()["default"] = json::Object{};
      return v;
    }
    if (f.card == schema::Card::Map) {
      patch::FieldPath p = path;
      p.emplace_back("*");
      json::Object o{{"type", "object"}, {"additionalProperties", value_schema(f, p)}};
      return o;
    }
    patch::FieldPath element = path;
    element.emplace_back(patch::kListElement);
    json::Object o{{"type", "array"}, {"items", value_schema(f, element)}};
    patch::ListType lt = lt_.at(path);
    switch (lt.kind) {
      case patch::ListKind::Atomic: o["x-kubernetes-list-type"] = "atomic"; break;
      case patch::ListKind::Set: o["x-kubernetes-list-type"] = "set"; break;
      case patch::ListKind::Map: {
        o["x-kubernetes-list-type"] = "map";
        json::Array keys;
        for (const auto& k : lt.keys) keys.emplace_back(k);
        o["x-kubernetes-list-map-keys"] = std::move(keys);
        break;
      }
    }
    if (lt.smp == patch::SmpStrategy::Merge) {
      if (!lt.smp_merge_key.empty()) o["x-kubernetes-patch-merge-key"] = lt.smp_merge_key;
      o["x-kubernetes-patch-strategy"] = lt.retain_keys ? "merge,retainKeys" : "merge";
    }
    return o;
  }

  json::Object& schemas_;
  const patch::ListTypes& lt_;
};

json::Value gvk(std::string_view group, std::string_view version, std::string_view kind) {
  return json::Array{json::Object{{"group", group}, {"kind", kind}, {"version", version}}};
}

// metav1.ListMeta, which no table describes (lists are never written).
constexpr std::string_view kListMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
json::Value list_meta_schema() {
  json::Object props;
  props["continue"] = json::Object{{"type", "string"}};
  props["remainingItemCount"] = json::Object{{"type", "integer"}, {"format", "int64"}};
  props["resourceVersion"] = json::Object{{"type", "string"}};
  props["selfLink"] = json::Object{{"type", "string"}};
  return json::Object{{"type", "object"}, {"properties", std::move(props)}};
}

}  // namespace

std::string definition_name(const schema::Message& m) {
  std::string_view n = m.name;
  if (n.starts_with("k8s.io.")) return "io.k8s." + std::string(n.substr(7));
  return std::string(n);
}

void add_meta_schemas(json::Object& schemas) {
  // ObjectMeta's lists (ownerReferences, managedFields, finalizers) as any kind's metadata has them.
  Generator g(schemas, *patch::builtin_list_types("v1", "ConfigMap"));
  g.component(schema::kObjectMeta, {"metadata"});
  if (!schemas.contains(kListMeta)) schemas[kListMeta] = list_meta_schema();
}

bool add_kind_schemas(json::Object& schemas, std::string_view group, std::string_view version, std::string_view kind) {
  std::string api_version = group.empty() ? std::string(version) : std::string(group) + "/" + std::string(version);
  const auto* m = kind_message(api_version, kind);
  if (!m) return false;
  auto lt = patch::builtin_list_types(api_version, kind);
  Generator g(schemas, *lt);
  std::string name = g.component(*m, {});
  schemas[name].as_object()["x-kubernetes-group-version-kind"] = gvk(group, version, kind);

  add_meta_schemas(schemas);
  std::string list_name = name + "List";
  json::Object props;
  props["apiVersion"] = type_meta_property();
  props["items"] = json::Object{{"type", "array"}, {"items", ref_to(name)}};
  props["kind"] = type_meta_property();
  props["metadata"] = ref_to(std::string(kListMeta));
  schemas[list_name] = json::Object{{"type", "object"},
                                    {"required", json::Array{"items"}},
                                    {"properties", std::move(props)},
                                    {"x-kubernetes-group-version-kind", gvk(group, version, std::string(kind) + "List")}};
  return true;
}

}  // namespace capstan::apiserver::typed
