#include "apiserver/swagger/v2.h"

namespace capstan::apiserver::swagger {
namespace {

constexpr std::string_view kV3Prefix = "#/components/schemas/";

bool is_one_of_types(const json::Object& o, std::string_view a, std::string_view b) {
  const auto* one = o.if_contains("oneOf");
  if (!one || !one->is_array() || one->get_array().size() != 2) return false;
  auto type_of = [](const json::Value& v) { return json::get_string(v, {"type"}); };
  return type_of(one->get_array()[0]) == a && type_of(one->get_array()[1]) == b;
}

}  // namespace

json::Value to_v2_schema(const json::Value& v3) {
  if (v3.is_array()) {
    json::Array out;
    for (const auto& e : v3.get_array()) out.push_back(to_v2_schema(e));
    return out;
  }
  if (!v3.is_object()) return v3;
  const auto& in = v3.get_object();
  json::Object out;
  if (is_one_of_types(in, "integer", "string")) {
    out["type"] = "string";
    out["format"] = "int-or-string";
  } else if (is_one_of_types(in, "string", "number")) {
    out["type"] = "string";
  }
  // allOf: [{$ref}] with no sibling type -> the $ref itself (Swagger 2.0 ignores siblings of $ref).
  if (const auto* all = in.if_contains("allOf");
      all && all->is_array() && all->get_array().size() == 1 && json::find(all->get_array()[0], {"$ref"})) {
    std::string_view ref = json::get_string(all->get_array()[0], {"$ref"});
    if (ref.starts_with(kV3Prefix)) out["$ref"] = "#/definitions/" + std::string(ref.substr(kV3Prefix.size()));
    if (const auto* d = in.if_contains("description")) out["description"] = *d;
    return out;
  }
  for (const auto& kv : in) {
    std::string_view k = kv.key();
    if (k == "nullable" || k == "oneOf" || k == "anyOf" || k == "not") continue;
    if (k == "$ref") {
      std::string_view ref = kv.value().is_string() ? std::string_view(kv.value().get_string()) : std::string_view();
      out["$ref"] = ref.starts_with(kV3Prefix) ? "#/definitions/" + std::string(ref.substr(kV3Prefix.size())) : std::string(ref);
    } else if (k == "properties" && kv.value().is_object()) {
      json::Object props;
      for (const auto& p : kv.value().get_object()) props[p.key()] = to_v2_schema(p.value());
      out["properties"] = std::move(props);
    } else if (k == "items" || k == "additionalProperties" || k == "allOf") {
      out[k] = to_v2_schema(kv.value());
    } else if (!out.contains(k)) {
      out[k] = kv.value();
    }
  }
  return out;
}

json::Value document(const json::Object& v3_schemas) {
  json::Object defs;
  for (const auto& kv : v3_schemas) defs[kv.key()] = to_v2_schema(kv.value());
  json::Object doc;
  doc["swagger"] = "2.0";
  doc["info"] = json::Object{{"title", "Kubernetes"}, {"version", "v1.32.0"}};
  doc["paths"] = json::Object{};
  doc["definitions"] = std::move(defs);
  return doc;
}

}  // namespace capstan::apiserver::swagger
