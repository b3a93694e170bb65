#include "apiserver/schema/openapi.h"

#include <algorithm>

namespace capstan::apiserver::schema {
namespace {

constexpr std::string_view kApiVersionDescription =
    "APIVersion defines the versioned schema of this representation of an object. Servers should convert "
    "recognized schemas to the latest internal value, and may reject unrecognized values. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
constexpr std::string_view kKindDescription =
    "Kind is a string value representing the REST resource this object represents. Servers may infer this "
    "from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
constexpr std::string_view kMetadataDescription =
    "Standard object's metadata. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
constexpr std::string_view kListMetadataDescription =
    "Standard list metadata. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
// An embedded resource's (x-kubernetes-embedded-resource) apiVersion and kind are worded apart.
constexpr std::string_view kEmbeddedApiVersionDescription =
    "apiVersion defines the versioned schema of this representation of an object. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
constexpr std::string_view kEmbeddedKindDescription =
    "kind is a string value representing the type of this object. In CamelCase. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
constexpr std::string_view kMetaRef = "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.";

json::Value string_property(std::string_view description) { return json::Object{{"description", description}, {"type", "string"}}; }

// A reference as kube-openapi writes one in v3: a one-element allOf beside the description.
json::Value meta_ref(std::string_view type, std::string_view description) {
  return json::Object{{"description", description}, {"allOf", json::Array{json::Object{{"$ref", std::string(kMetaRef) + std::string(type)}}}}};
}

// What the apiextensions server adds to every x-kubernetes-embedded-resource object below the
// root: apiVersion, kind and metadata, with apiVersion and kind required.
void add_embedded_properties(json::Value& v) {
  auto* o = v.if_object();
  if (!o) return;
  if (auto* props = o->if_contains("properties"); props && props->is_object())
    for (auto& kv : props->as_object()) add_embedded_properties(kv.value());
  if (auto* items = o->if_contains("items")) add_embedded_properties(*items);
  if (auto* ap = o->if_contains("additionalProperties")) add_embedded_properties(*ap);
  auto* embedded = o->if_contains("x-kubernetes-embedded-resource");
  if (!embedded || *embedded != json::Value(true)) return;
  auto& p = (*o)["properties"];
  if (!p.is_object()) p = json::Object{};
  p.as_object()["apiVersion"] = string_property(kEmbeddedApiVersionDescription);
  p.as_object()["kind"] = string_property(kEmbeddedKindDescription);
  p.as_object()["metadata"] = meta_ref("ObjectMeta", kMetadataDescription);
  auto& req = (*o)["required"];
  if (!req.is_array()) req = json::Array{};
  for (const char* k : {"kind", "apiVersion"})
    if (std::find(req.as_array().begin(), req.as_array().end(), json::Value(k)) == req.as_array().end()) req.as_array().emplace_back(k);
}

json::Value number(double d) {
  if (d == static_cast<double>(static_cast<std::int64_t>(d)) && d > -9.2e18 && d < 9.2e18) {
    return json::Value(static_cast<std::int64_t>(d));
  }
  return json::Value(d);
}

json::Array schemas(const std::vector<SchemaPtr>& v) {
  json::Array a;
  for (const auto& s : v) a.push_back(to_openapi(*s));
  return a;
}

json::Object gvk(std::string_view group, std::string_view version, std::string_view kind) {
  json::Object o;
  o["group"] = group;
  o["kind"] = kind;
  o["version"] = version;
  return o;
}

}  // namespace

json::Value to_openapi(const Schema& s) {
  json::Object o;
  if (!s.description.empty()) o["description"] = s.description;
  if (!s.title.empty()) o["title"] = s.title;
  if (!s.type.empty()) o["type"] = s.type;
  if (!s.format.empty()) o["format"] = s.format;
  if (s.nullable) o["nullable"] = true;
  if (s.default_value) o["default"] = *s.default_value;
  if (s.example) o["example"] = *s.example;
  if (s.multiple_of) o["multipleOf"] = number(*s.multiple_of);
  if (s.maximum) o["maximum"] = number(*s.maximum);
  if (s.exclusive_maximum) o["exclusiveMaximum"] = true;
  if (s.minimum) o["minimum"] = number(*s.minimum);
  if (s.exclusive_minimum) o["exclusiveMinimum"] = true;
  if (s.max_length) o["maxLength"] = *s.max_length;
  if (s.min_length) o["minLength"] = *s.min_length;
  if (s.pattern) o["pattern"] = *s.pattern;
  if (s.max_items) o["maxItems"] = *s.max_items;
  if (s.min_items) o["minItems"] = *s.min_items;
  if (s.unique_items) o["uniqueItems"] = true;
  if (s.max_properties) o["maxProperties"] = *s.max_properties;
  if (s.min_properties) o["minProperties"] = *s.min_properties;
  if (!s.enum_values.empty()) o["enum"] = json::Array(s.enum_values.begin(), s.enum_values.end());
  if (!s.required.empty()) {
    json::Array r;
    for (const auto& k : s.required) r.emplace_back(k);
    o["required"] = std::move(r);
  }
  if (s.items) o["items"] = to_openapi(*s.items);
  if (!s.all_of.empty()) o["allOf"] = schemas(s.all_of);
  if (!s.one_of.empty()) o["oneOf"] = schemas(s.one_of);
  if (!s.any_of.empty()) o["anyOf"] = schemas(s.any_of);
  if (s.not_schema) o["not"] = to_openapi(*s.not_schema);
  if (!s.properties.empty()) {
    json::Object props;
    for (const auto& [k, v] : s.properties) props[k] = to_openapi(*v);
    o["properties"] = std::move(props);
  }
  if (s.additional_properties.present) {
    if (s.additional_properties.schema) o["additionalProperties"] = to_openapi(*s.additional_properties.schema);
    else o["additionalProperties"] = s.additional_properties.allows;
  }
  if (s.external_docs) o["externalDocs"] = *s.external_docs;
  if (s.x_embedded_resource) o["x-kubernetes-embedded-resource"] = true;
  if (s.x_int_or_string) o["x-kubernetes-int-or-string"] = true;
  if (!s.x_list_map_keys.empty()) {
    json::Array k;
    for (const auto& x : s.x_list_map_keys) k.emplace_back(x);
    o["x-kubernetes-list-map-keys"] = std::move(k);
  }
  if (s.x_list_type) o["x-kubernetes-list-type"] = *s.x_list_type;
  if (s.x_map_type) o["x-kubernetes-map-type"] = *s.x_map_type;
  if (s.x_preserve_unknown_fields) o["x-kubernetes-preserve-unknown-fields"] = *s.x_preserve_unknown_fields;
  if (!s.x_validations.empty()) o["x-kubernetes-validations"] = s.x_validations;
  return o;
}

std::string openapi_component_name(std::string_view group, std::string_view version, std::string_view kind) {
  std::string g;
  if (group.find('.') != std::string_view::npos) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
      auto dot = group.find('.', start);
      parts.push_back(group.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
      if (!g.empty()) g += '.';
      g += *it;
    }
  } else {
    g = std::string(group);
  }
  return g + "." + std::string(version) + "." + std::string(kind);
}

json::Value openapi_component(const Schema& schema, std::string_view group, std::string_view version,
                              std::string_view kind) {
  json::Value v = to_openapi(schema);
  auto& o = v.get_object();
  if (!o.contains("type")) o["type"] = "object";
  auto& props = o["properties"];
  if (!props.is_object()) props = json::Object{};
  auto& p = props.get_object();
  // Whatever the CRD declares for them, as the apiextensions server publishes them.
  p["metadata"] = meta_ref("ObjectMeta", kMetadataDescription);
  p["apiVersion"] = string_property(kApiVersionDescription);
  p["kind"] = string_property(kKindDescription);
  for (auto& kv : p)
    if (kv.key() != "metadata") add_embedded_properties(kv.value());
  o["x-kubernetes-group-version-kind"] = json::Array{gvk(group, version, kind)};
  return v;
}

json::Value openapi_document(std::string_view group, std::string_view version, const std::vector<OpenAPIKind>& kinds) {
  json::Object comps;
  for (const auto& k : kinds) {
    std::string name = openapi_component_name(group, version, k.kind);
    comps[name] = openapi_component(*k.schema, group, version, k.kind);
    std::string list_kind = k.kind + "List";
    json::Object list;
    list["description"] = list_kind + " is a list of " + k.kind;
    list["type"] = "object";
    list["required"] = json::Array{"items"};
    json::Object lp;
    lp["apiVersion"] = string_property(kApiVersionDescription);
    lp["items"] = json::Object{{"description", "List of " + k.plural +
                                                   ". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md"},
                               {"type", "array"},
                               {"items", json::Object{{"$ref", "#/components/schemas/" + name}}}};
    lp["kind"] = string_property(kKindDescription);
    lp["metadata"] = meta_ref("ListMeta", kListMetadataDescription);
    list["properties"] = std::move(lp);
    list["x-kubernetes-group-version-kind"] = json::Array{gvk(group, version, list_kind)};
    comps[openapi_component_name(group, version, list_kind)] = std::move(list);
  }
  json::Object doc;
  doc["openapi"] = "3.0.0";
  doc["info"] = json::Object{{"title", "Kubernetes CRD Swagger"}, {"version", "v0.1.0"}};
  doc["paths"] = json::Object{};
  doc["components"] = json::Object{{"schemas", std::move(comps)}};
  return doc;
}

}  // namespace capstan::apiserver::schema
