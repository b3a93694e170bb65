#include "apis/common/openapi.h"

#include <string>

namespace capstan::apis::openapi {

Schema::Schema(std::string_view type) : v_(json::Object()) {
  if (!type.empty()) o()["type"] = type;
}

Schema Schema::object(std::string_view description) { return std::move(Schema("object").description(description)); }

Schema Schema::open_object(std::string_view description) {
  Schema s("object");
  s.description(description);
  s.o()["x-kubernetes-preserve-unknown-fields"] = true;
  return s;
}

Schema Schema::int_or_string(std::string_view description) {
  Schema s("");
  s.description(description);
  s.o()["anyOf"] = json::Array{json::Object{{"type", "integer"}}, json::Object{{"type", "string"}}};
  s.o()["x-kubernetes-int-or-string"] = true;
  return s;
}

Schema Schema::string(std::string_view description) { return std::move(Schema("string").description(description)); }

Schema Schema::integer(std::string_view description, std::string_view format) {
  Schema s("integer");
  s.description(description);
  if (!format.empty()) s.o()["format"] = format;
  return s;
}

Schema Schema::number(std::string_view description) { return std::move(Schema("number").description(description)); }
Schema Schema::boolean(std::string_view description) { return std::move(Schema("boolean").description(description)); }

Schema Schema::date_time(std::string_view description) {
  Schema s = string(description);
  s.o()["format"] = "date-time";
  return s;
}

Schema Schema::bytes(std::string_view description) {
  Schema s = string(description);
  s.o()["format"] = "byte";
  return s;
}

Schema Schema::string_enum(std::initializer_list<std::string_view> values, std::string_view description) {
  return string_enum(std::span<const std::string_view>(values.begin(), values.size()), description);
}

Schema Schema::string_enum(std::span<const std::string_view> values, std::string_view description) {
  Schema s = string(description);
  json::Array a;
  for (auto v : values) a.emplace_back(v);
  s.o()["enum"] = std::move(a);
  return s;
}

Schema Schema::array(const Schema& items, std::string_view description) {
  Schema s("array");
  s.description(description);
  s.o()["items"] = items.json();
  s.o()["x-kubernetes-list-type"] = "atomic";
  return s;
}

Schema Schema::strings(std::string_view description) { return array(string(), description); }

Schema Schema::map(const Schema& values, std::string_view description) {
  Schema s("object");
  s.description(description);
  s.o()["additionalProperties"] = values.json();
  return s;
}

Schema Schema::string_map(std::string_view description) { return map(string(), description); }

Schema& Schema::description(std::string_view d) {
  if (!d.empty()) o()["description"] = d;
  return *this;
}

Schema& Schema::property(std::string_view name, const Schema& s) {
  auto& props = o()["properties"];
  if (!props.is_object()) props = json::Object();
  props.get_object()[name] = s.json();
  return *this;
}

Schema& Schema::required(std::initializer_list<std::string_view> names) {
  auto& req = o()["required"];
  if (!req.is_array()) req = json::Array();
  for (auto n : names) req.get_array().emplace_back(n);
  return *this;
}

Schema& Schema::default_value(json::Value v) {
  o()["default"] = std::move(v);
  return *this;
}

Schema& Schema::max_length(std::int64_t n) {
  o()["maxLength"] = n;
  return *this;
}

Schema& Schema::min_length(std::int64_t n) {
  o()["minLength"] = n;
  return *this;
}

Schema& Schema::pattern(std::string_view regex) {
  o()["pattern"] = regex;
  return *this;
}

Schema& Schema::minimum(std::int64_t n) {
  o()["minimum"] = n;
  return *this;
}

Schema& Schema::maximum(std::int64_t n) {
  o()["maximum"] = n;
  return *this;
}

Schema& Schema::min_items(std::int64_t n) {
  o()["minItems"] = n;
  return *this;
}

Schema& Schema::max_items(std::int64_t n) {
  o()["maxItems"] = n;
  return *this;
}

Schema& Schema::max_properties(std::int64_t n) {
  o()["maxProperties"] = n;
  return *this;
}

Schema& Schema::rule(std::string_view cel, std::string_view message, std::string_view field_path) {
  auto& rules = o()["x-kubernetes-validations"];
  if (!rules.is_array()) rules = json::Array();
  json::Object r{{"rule", cel}, {"message", message}};
  if (!field_path.empty()) r["fieldPath"] = field_path;
  rules.get_array().emplace_back(std::move(r));
  return *this;
}

Schema& Schema::list_type(std::string_view type) {
  o()["x-kubernetes-list-type"] = type;
  return *this;
}

Schema& Schema::list_map(std::initializer_list<std::string_view> keys) {
  o()["x-kubernetes-list-type"] = "map";
  json::Array a;
  for (auto k : keys) a.emplace_back(k);
  o()["x-kubernetes-list-map-keys"] = std::move(a);
  return *this;
}

Schema object_name(std::string_view description) { return std::move(Schema::string(description).min_length(1).max_length(253)); }

Schema namespace_name(std::string_view description) { return std::move(Schema::string(description).min_length(1).max_length(63)); }

Schema label_selector(std::string_view description) {
  auto requirement = Schema::object("A label selector requirement.")
                         .property("key", Schema::string("The label key.").max_length(317))
                         .property("operator", Schema::string_enum({"In", "NotIn", "Exists", "DoesNotExist"}, "In, NotIn, Exists or DoesNotExist."))
                         .property("values", Schema::strings("Values for In and NotIn.").max_items(256))
                         .required({"key", "operator"});
  return std::move(Schema::object(description)
                       .property("matchLabels", Schema::string_map("Labels that must all match.").max_properties(64))
                       .property("matchExpressions", Schema::array(requirement, "Requirements that must all hold.").max_items(64)));
}

Schema observed_generation() {
  return std::move(Schema::integer("The metadata.generation last reconciled.", "int64").minimum(0));
}

Schema root(std::string_view api_version, std::string_view description, const Schema& spec, const Schema& status) {
  return std::move(
      Schema::object(description)
          .property("apiVersion", Schema::string("The versioned schema of this object: " + std::string(api_version) + "."))
          .property("kind", Schema::string("The REST resource this object represents, in CamelCase."))
          .property("metadata", Schema::object())
          .property("spec", spec)
          .property("status", status)
          .required({"spec"}));
}

Schema conditions(std::string_view description, std::string_view types, bool observed_generation, bool degraded) {
  auto status = degraded ? Schema::string_enum({"True", "Degraded", "False", "Unknown"}, "Status of the condition: True, Degraded, False or Unknown.")
                         : Schema::string_enum({"True", "False", "Unknown"}, "Status of the condition: True, False or Unknown.");
  auto item =
      Schema::object("A condition of the resource.")
          .property("type", Schema::string(std::string("Type of the condition: ") + std::string(types) + ".").max_length(316))
          .property("status", std::move(status))
          .property("reason", Schema::string("Machine-readable reason for the last transition, in CamelCase.").max_length(1024))
          .property("message", Schema::string("Human-readable details of the last transition.").max_length(32768))
          .property("lastTransitionTime", Schema::date_time("When the status last changed."));
  if (observed_generation)
    item.property("observedGeneration",
                  Schema::integer("The metadata.generation the condition was set from; older means out of date.", "int64").minimum(0));
  item.required({"status", "type"});
  return std::move(Schema::array(item, description).list_map({"type"}).max_items(32));
}

}  // namespace capstan::apis::openapi
