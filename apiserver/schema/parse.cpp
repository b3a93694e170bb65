#include "apiserver/schema/parse.h"

#include "runtime/gofmt/gofmt.h"
#include "apiserver/schema/cel_rules.h"
#include "apiserver/schema/formats.h"
#include "apiserver/schema/prune.h"
#include "apiserver/schema/validate.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace capstan::apiserver::schema {
namespace {

// ---------------------------------------------------------------------------------------------
// Decoding + ValidateCustomResourceDefinitionOpenAPISchema (the "standard" checks)

struct Ssv {  // specStandardValidatorV3 state
  bool allow_defaults = true;
  std::string disallow_defaults_reason;
  bool inside_resource_meta = false;

  Ssv with_forbidden_defaults(std::string reason) const {
    Ssv c = *this;
    c.allow_defaults = false;
    c.disallow_defaults_reason = std::move(reason);
    return c;
  }
  Ssv with_inside_resource_meta() const {
    Ssv c = *this;
    c.inside_resource_meta = true;
    return c;
  }
};

const std::set<std::string>& v3_types() {
  static const std::set<std::string> t = {"array", "boolean", "integer", "number", "object", "string"};
  return t;
}

// A []string as field.ErrorBody renders it (json.Marshal since apimachinery 0.34).
std::string go_string_slice(const std::vector<std::string>& v) {
  json::Array a;
  for (const auto& x : v) a.emplace_back(x);
  return gofmt::json_marshal(a);
}

class Decoder {
 public:
  Decoder() = default;

  std::vector<validation::Cause> decode_errors;
  std::vector<validation::Cause> schema_errors;
  std::vector<std::string> not_evaluated;  // CEL rules outside the supported subset

  SchemaPtr decode(const json::Value& v, const validation::FieldPath& p, const Ssv& ssv, bool is_root) {
    auto s = std::make_shared<Schema>();
    if (!v.is_object()) {
      decode_errors.push_back(validation::field_invalid(p, v, "must be a JSON object"));
      return s;
    }
    const json::Object& o = v.get_object();

    auto str = [&](std::string_view k, std::string& out) {
      if (auto* x = o.if_contains(k)) {
        if (x->is_string()) out = std::string(x->get_string());
        else if (!x->is_null()) bad(p, k, *x, "string");
      }
    };
    auto opt_str = [&](std::string_view k, std::optional<std::string>& out) {
      if (auto* x = o.if_contains(k)) {
        if (x->is_string()) out = std::string(x->get_string());
        else if (!x->is_null()) bad(p, k, *x, "string");
      }
    };
    auto boolean = [&](std::string_view k, bool& out) {
      if (auto* x = o.if_contains(k)) {
        if (x->is_bool()) out = x->get_bool();
        else if (!x->is_null()) bad(p, k, *x, "boolean");
      }
    };
    auto number = [&](std::string_view k, std::optional<double>& out) {
      if (auto* x = o.if_contains(k)) {
        if (x->is_number()) out = gofmt::as_float(*x);
        else if (!x->is_null()) bad(p, k, *x, "number");
      }
    };
    auto integer = [&](std::string_view k, std::optional<std::int64_t>& out) {
      if (auto* x = o.if_contains(k)) {
        if (x->is_int64()) out = x->get_int64();
        else if (x->is_uint64()) out = static_cast<std::int64_t>(x->get_uint64());
        else if (x->is_double() && x->get_double() == static_cast<double>(static_cast<std::int64_t>(x->get_double())))
          out = static_cast<std::int64_t>(x->get_double());
        else if (!x->is_null()) bad(p, k, *x, "integer");
      }
    };
    auto strings = [&](std::string_view k, std::vector<std::string>& out) {
      if (auto* x = o.if_contains(k)) {
        if (x->is_array()) {
          for (const auto& e : x->get_array()) {
            if (e.is_string()) out.emplace_back(e.get_string());
            else bad(p, k, *x, "array of strings");
          }
        } else if (!x->is_null()) {
          bad(p, k, *x, "array");
        }
      }
    };

    str("type", s->type);
    str("format", s->format);
    str("title", s->title);
    str("description", s->description);
    boolean("nullable", s->nullable);
    if (auto* x = o.if_contains("default")) s->default_value = *x;
    number("maximum", s->maximum);
    boolean("exclusiveMaximum", s->exclusive_maximum);
    number("minimum", s->minimum);
    boolean("exclusiveMinimum", s->exclusive_minimum);
    integer("maxLength", s->max_length);
    integer("minLength", s->min_length);
    integer("maxItems", s->max_items);
    integer("minItems", s->min_items);
    integer("maxProperties", s->max_properties);
    integer("minProperties", s->min_properties);
    opt_str("pattern", s->pattern);
    boolean("uniqueItems", s->unique_items);
    number("multipleOf", s->multiple_of);
    if (auto* x = o.if_contains("enum")) {
      if (x->is_array()) s->enum_values.assign(x->get_array().begin(), x->get_array().end());
      else if (!x->is_null()) bad(p, "enum", *x, "array");
    }
    strings("required", s->required);
    boolean("x-kubernetes-int-or-string", s->x_int_or_string);
    if (auto* x = o.if_contains("x-kubernetes-preserve-unknown-fields")) {
      if (x->is_bool()) s->x_preserve_unknown_fields = x->get_bool();
      else if (!x->is_null()) bad(p, "x-kubernetes-preserve-unknown-fields", *x, "boolean");
    }
    boolean("x-kubernetes-embedded-resource", s->x_embedded_resource);
    opt_str("x-kubernetes-list-type", s->x_list_type);
    strings("x-kubernetes-list-map-keys", s->x_list_map_keys);
    opt_str("x-kubernetes-map-type", s->x_map_type);
    if (auto* x = o.if_contains("x-kubernetes-validations")) {
      if (x->is_array()) s->x_validations = x->get_array();
      else if (!x->is_null()) bad(p, "x-kubernetes-validations", *x, "array");
    }
    if (auto* x = o.if_contains("example")) s->example = *x;
    if (auto* x = o.if_contains("externalDocs")) s->external_docs = *x;
    s->effective_format = effective_format(s->format);
    if (s->pattern) {
      std::string err;
      s->pattern_re = Pattern::compile(*s->pattern, &err);
    }

    // 1. specStandardValidatorV3.validate
    if (!s->type.empty() && !v3_types().count(s->type)) {
      schema_errors.push_back(validation::field_not_supported(p.child("type"), json::Value(s->type),
                                                  std::vector<std::string>(v3_types().begin(), v3_types().end())));
    }
    if (s->default_value && !ssv.allow_defaults) {
      std::string detail = "must not be set";
      if (!ssv.disallow_defaults_reason.empty()) detail += " " + ssv.disallow_defaults_reason;
      schema_errors.push_back(validation::field_forbidden(p.child("default"), detail));
    }
    if (auto* x = o.if_contains("id"); x && !(x->is_string() && x->get_string().empty())) {
      schema_errors.push_back(validation::field_forbidden(p.child("id"), "id is not supported"));
    }
    if (o.contains("additionalItems")) {
      schema_errors.push_back(validation::field_forbidden(p.child("additionalItems"), "additionalItems is not supported"));
    }
    if (auto* x = o.if_contains("patternProperties"); x && x->is_object() && !x->get_object().empty()) {
      schema_errors.push_back(validation::field_forbidden(p.child("patternProperties"), "patternProperties is not supported"));
    }
    if (auto* x = o.if_contains("definitions"); x && x->is_object() && !x->get_object().empty()) {
      schema_errors.push_back(validation::field_forbidden(p.child("definitions"), "definitions is not supported"));
    }
    if (o.contains("dependencies")) {
      schema_errors.push_back(validation::field_forbidden(p.child("dependencies"), "dependencies is not supported"));
    }
    if (o.contains("$ref")) schema_errors.push_back(validation::field_forbidden(p.child("$ref"), "$ref is not supported"));
    if (s->type == "null") {
      schema_errors.push_back(validation::field_forbidden(p.child("type"), "type cannot be set to null, use nullable as an alternative"));
    }
    const json::Value* items_json = o.if_contains("items");
    bool items_array = items_json && items_json->is_array();
    if (items_array && !items_json->get_array().empty()) {
      schema_errors.push_back(validation::field_forbidden(p.child("items"), "items must be a schema object and not an array"));
    }
    if (ssv.inside_resource_meta && s->x_embedded_resource) {
      schema_errors.push_back(validation::field_forbidden(p.child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"));
    }

    // 2. uniqueItems
    if (s->unique_items) {
      schema_errors.push_back(validation::field_forbidden(p.child("uniqueItems"),
                                              "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));
    }

    // 3. additionalProperties
    const json::Value* props_json = o.if_contains("properties");
    bool has_props = props_json && props_json->is_object() && !props_json->get_object().empty();
    if (auto* x = o.if_contains("additionalProperties")) {
      s->additional_properties.present = true;
      if (x->is_bool()) {
        s->additional_properties.allows = x->get_bool();
      } else if (x->is_object()) {
        s->additional_properties.allows = true;
      } else {
        bad(p, "additionalProperties", *x, "boolean or object");
      }
      if (has_props && (!s->additional_properties.allows || x->is_object())) {
        schema_errors.push_back(validation::field_forbidden(p.child("additionalProperties"), "additionalProperties and properties are mutual exclusive"));
      }
      if (x->is_object()) {
        Ssv sub = ssv.inside_resource_meta ? ssv.with_forbidden_defaults("inside additionalProperties applying to object metadata") : ssv;
        s->additional_properties.schema = decode(*x, p.child("additionalProperties"), sub, false);
      }
    }

    // 4. properties (name order)
    if (props_json) {
      if (!props_json->is_object()) {
        bad(p, "properties", *props_json, "object");
      } else {
        std::vector<std::string> names;
        for (const auto& kv : props_json->get_object()) names.emplace_back(kv.key());
        std::sort(names.begin(), names.end());
        for (const auto& name : names) {
          Ssv sub = ssv;
          if ((is_root || s->x_embedded_resource) && (name == "metadata" || name == "kind" || name == "apiVersion")) {
            sub = sub.with_inside_resource_meta();
            if (is_root) sub = sub.with_forbidden_defaults("in top-level " + name);
          }
          s->properties[name] = decode(props_json->get_object().at(name), p.child("properties").key(name), sub, false);
        }
      }
    }

    // 5. not, allOf, oneOf, anyOf, items
    if (auto* x = o.if_contains("not")) s->not_schema = decode(*x, p.child("not"), ssv, false);
    auto list = [&](std::string_view k, std::vector<SchemaPtr>& out) {
      if (auto* x = o.if_contains(k)) {
        if (!x->is_array()) {
          bad(p, k, *x, "array");
          return;
        }
        const auto& a = x->get_array();
        for (std::size_t i = 0; i < a.size(); ++i) out.push_back(decode(a[i], p.child(k).index(i), ssv, false));
      }
    };
    list("allOf", s->all_of);
    list("oneOf", s->one_of);
    list("anyOf", s->any_of);
    if (items_json && !items_json->is_null()) {
      if (items_json->is_object()) {
        s->items = decode(*items_json, p.child("items"), ssv, false);
      } else if (items_array) {
        const auto& a = items_json->get_array();
        for (std::size_t i = 0; i < a.size(); ++i) decode(a[i], p.child("items").index(i), ssv, false);
      } else {
        bad(p, "items", *items_json, "object");
      }
    }

    // 6.-12. extensions
    if (s->x_preserve_unknown_fields && !*s->x_preserve_unknown_fields) {
      schema_errors.push_back(validation::field_invalid(p.child("x-kubernetes-preserve-unknown-fields"), json::Value(false), "must be true or undefined"));
    }
    if (s->x_map_type && s->type != "object") {
      if (s->type.empty()) schema_errors.push_back(validation::field_required(p.child("type"), "must be object if x-kubernetes-map-type is specified"));
      else schema_errors.push_back(validation::field_invalid(p.child("type"), json::Value(s->type), "must be object if x-kubernetes-map-type is specified"));
    }
    if (s->x_map_type && *s->x_map_type != "atomic" && *s->x_map_type != "granular") {
      schema_errors.push_back(validation::field_not_supported(p.child("x-kubernetes-map-type"), json::Value(*s->x_map_type), {"atomic", "granular"}));
    }
    if (s->x_list_type && s->type != "array") {
      if (s->type.empty()) schema_errors.push_back(validation::field_required(p.child("type"), "must be array if x-kubernetes-list-type is specified"));
      else schema_errors.push_back(validation::field_invalid(p.child("type"), json::Value(s->type), "must be array if x-kubernetes-list-type is specified"));
    } else if (s->x_list_type && *s->x_list_type == "set" && s->items) {
      const Schema& is = *s->items;
      if (is.type == "array" && is.x_list_type && *is.x_list_type != "atomic") {
        schema_errors.push_back(validation::field_invalid(p.child("items").child("x-kubernetes-list-type"), json::Value(*is.x_list_type),
                                              "must be atomic as item of a list with x-kubernetes-list-type=set"));
      } else if (is.type == "object" && (!is.x_map_type || *is.x_map_type != "atomic")) {
        json::Value shown = is.x_list_type ? json::Value(*is.x_list_type) : json::Value();
        schema_errors.push_back(validation::field_invalid(p.child("items").child("x-kubernetes-map-type"), shown,
                                              "must be atomic as item of a list with x-kubernetes-list-type=set"));
      }
    }
    if (s->x_list_type && *s->x_list_type != "atomic" && *s->x_list_type != "set" && *s->x_list_type != "map") {
      schema_errors.push_back(validation::field_not_supported(p.child("x-kubernetes-list-type"), json::Value(*s->x_list_type), {"atomic", "set", "map"}));
    }
    if (!s->x_list_map_keys.empty()) {
      if (!s->x_list_type) {
        schema_errors.push_back(validation::field_required(p.child("x-kubernetes-list-type"), "must be map if x-kubernetes-list-map-keys is non-empty"));
      } else if (*s->x_list_type != "map") {
        schema_errors.push_back(validation::field_invalid(p.child("x-kubernetes-list-type"), json::Value(*s->x_list_type),
                                              "must be map if x-kubernetes-list-map-keys is non-empty"));
      }
    }
    if (s->x_list_type && *s->x_list_type == "map") {
      if (s->x_list_map_keys.empty()) {
        schema_errors.push_back(validation::field_required(p.child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"));
      }
      if (!items_json || items_json->is_null()) {
        schema_errors.push_back(validation::field_required(p.child("items"), "must have a schema if x-kubernetes-list-type is map"));
      }
      if (items_array) {
        schema_errors.push_back(validation::field_invalid(p.child("items"), *items_json, "must only have a single schema if x-kubernetes-list-type is map"));
      }
      if (s->items && s->items->type != "object") {
        schema_errors.push_back(validation::field_invalid(p.child("items").child("type"), json::Value(s->items->type),
                                              "must be object if parent array's x-kubernetes-list-type is map"));
      }
      if (s->items && s->items->type == "object") {
        std::set<std::string> seen;
        for (const auto& k : s->x_list_map_keys) {
          if (const Schema* ks = s->items->property(k)) {
            if (ks->type == "array" || ks->type == "object") {
              schema_errors.push_back(validation::field_invalid(p.child("items").child("properties").key(k).child("type"), json::Value(s->items->type),
                                                    "must be a scalar type if parent array's x-kubernetes-list-type is map"));
            }
          } else {
            schema_errors.push_back(validation::field_invalid_rendered(p.child("x-kubernetes-list-map-keys"), go_string_slice(s->x_list_map_keys),
                                                           "entries must all be names of item properties"));
          }
          if (!seen.insert(k).second) {
            schema_errors.push_back(validation::field_invalid_rendered(p.child("x-kubernetes-list-map-keys"), go_string_slice(s->x_list_map_keys),
                                                           "must not contain duplicate entries"));
          }
        }
      }
    }
    // validateMapListKeysMapSet
    if (s->items && s->x_list_type && (*s->x_list_type == "set" || *s->x_list_type == "map")) {
      if (s->items->nullable) {
        schema_errors.push_back(validation::field_forbidden(p.child("items").child("nullable"), "cannot be nullable when x-kubernetes-list-type is " + *s->x_list_type));
      }
      if (*s->x_list_type == "map") {
        for (const auto& k : s->x_list_map_keys) {
          const Schema* ks = s->items->property(k);
          if (!ks) continue;
          bool required = std::find(s->items->required.begin(), s->items->required.end(), k) != s->items->required.end();
          if (!required && !ks->default_value) {
            schema_errors.push_back(validation::field_required(p.child("items").child("properties").key(k).child("default"),
                                                   "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"));
          }
          if (ks->nullable) {
            schema_errors.push_back(validation::field_forbidden(p.child("items").child("properties").key(k).child("nullable"),
                                                    "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"));
          }
        }
      }
    }
    compile_rules(*s, p, not_evaluated);
    // x-kubernetes-validations: the static checks
    for (std::size_t i = 0; i < s->x_validations.size(); ++i) {
      const auto& rv = s->x_validations[i];
      if (!rv.is_object()) continue;
      validation::FieldPath vp = p.child("x-kubernetes-validations").index(i);
      auto field_of = [&](std::string_view k) -> std::string {
        auto* x = rv.get_object().if_contains(k);
        return x && x->is_string() ? std::string(x->get_string()) : std::string();
      };
      auto trim = [](std::string x) {
        auto b = x.find_first_not_of(" \t\n\r\f\v");
        auto e = x.find_last_not_of(" \t\n\r\f\v");
        return b == std::string::npos ? std::string() : x.substr(b, e - b + 1);
      };
      std::string rule = field_of("rule"), msg = field_of("message"), msg_expr = field_of("messageExpression");
      auto has_newline = [](const std::string& x) { return x.find_first_of("\n\r") != std::string::npos; };
      if (trim(rule).empty()) {
        schema_errors.push_back(validation::field_required(vp.child("rule"), "rule is not specified"));
      } else if (!msg.empty() && trim(msg).empty()) {
        schema_errors.push_back(validation::field_invalid(vp.child("message"), json::Value(msg), "message must be non-empty if specified"));
      } else if (has_newline(trim(msg))) {
        schema_errors.push_back(validation::field_invalid(vp.child("message"), json::Value(msg), "message must not contain line breaks"));
      } else if (has_newline(trim(rule)) && trim(msg).empty()) {
        schema_errors.push_back(validation::field_required(vp.child("message"), "message must be specified if rule contains line breaks"));
      }
      if (!msg_expr.empty() && trim(msg_expr).empty()) {
        schema_errors.push_back(validation::field_required(vp.child("messageExpression"), "messageExpression must be non-empty if specified"));
      }
    }
    return s;
  }

 private:
  void bad(const validation::FieldPath& p, std::string_view k, const json::Value& v, std::string_view want) {
    decode_errors.push_back(validation::field_invalid(p.child(k), v, "must be of type " + std::string(want) + ", not " + std::string(json::type_name(v))));
  }
};

// ---------------------------------------------------------------------------------------------
// schema.ValidateStructural

enum class Level { Root, Item, Field };

// True when s carries nothing but (optionally) type, properties and default: used for the
// metadata restriction and the int-or-string anyOf pattern. (example and externalDocs are not part
// of a structural schema, so they do not count.)
bool blank(const Schema& s, bool ignore_type, bool ignore_props, bool ignore_default) {
  return (ignore_type || s.type.empty()) && s.format.empty() && s.title.empty() && s.description.empty() &&
         !s.nullable && (ignore_default || !s.default_value) && !s.maximum && !s.exclusive_maximum && !s.minimum &&
         !s.exclusive_minimum && !s.max_length && !s.min_length && !s.max_items && !s.min_items &&
         !s.max_properties && !s.min_properties && !s.pattern && !s.unique_items && !s.multiple_of &&
         s.enum_values.empty() && s.required.empty() && s.all_of.empty() && s.any_of.empty() && s.one_of.empty() &&
         !s.not_schema && (ignore_props || s.properties.empty()) && !s.additional_properties.present && !s.items &&
         !s.x_int_or_string && !s.x_preserve_unknown_fields && !s.x_embedded_resource && !s.x_list_type &&
         s.x_list_map_keys.empty() && !s.x_map_type && s.x_validations.empty();
}

bool bare_type(const SchemaPtr& s, std::string_view type) {
  return s && s->type == type && blank(*s, true, false, false);
}

bool int_or_string_any_of(const std::vector<SchemaPtr>& any_of) {
  return any_of.size() == 2 && bare_type(any_of[0], "integer") && bare_type(any_of[1], "string");
}

class Structural {
 public:
  std::vector<validation::Cause> errs;

  void invariants(const Schema& s, Level lvl, const validation::FieldPath& p) {
    if (s.type == "array" && !s.items) errs.push_back(validation::field_required(p.child("items"), "must be specified"));
    if (s.items) invariants(*s.items, Level::Item, p.child("items"));
    for (const auto& [k, v] : s.properties) invariants(*v, Level::Field, p.child("properties").key(k));
    // validateGeneric
    if (s.additional_properties.present) {
      if (lvl == Level::Root) errs.push_back(validation::field_forbidden(p.child("additionalProperties"), "must not be used at the root"));
      if (s.additional_properties.schema) invariants(*s.additional_properties.schema, Level::Field, p.child("additionalProperties"));
    }
    // validateExtensions
    if (s.x_int_or_string && s.preserve_unknown_fields()) {
      errs.push_back(validation::field_invalid(p.child("x-kubernetes-preserve-unknown-fields"), json::Value(true), "must be false if x-kubernetes-int-or-string is true"));
    }
    if (s.x_int_or_string && s.x_embedded_resource) {
      errs.push_back(validation::field_invalid(p.child("x-kubernetes-embedded-resource"), json::Value(true), "must be false if x-kubernetes-int-or-string is true"));
    }
    bool skip_any_of = int_or_string_any_of(s.any_of);
    bool skip_first_all_of_any_of = !s.all_of.empty() && int_or_string_any_of(s.all_of[0]->any_of);
    value_validation(s, skip_any_of, skip_first_all_of_any_of, lvl, p);

    bool check_metadata = lvl == Level::Root || s.x_embedded_resource;
    if (s.x_embedded_resource && s.type != "object") {
      if (s.type.empty()) errs.push_back(validation::field_required(p.child("type"), "must be object if x-kubernetes-embedded-resource is true"));
      else errs.push_back(validation::field_invalid(p.child("type"), json::Value(s.type), "must be object if x-kubernetes-embedded-resource is true"));
    } else if (s.type.empty() && !s.x_int_or_string && !s.preserve_unknown_fields()) {
      switch (lvl) {
        case Level::Root: errs.push_back(validation::field_required(p.child("type"), "must not be empty at the root")); break;
        case Level::Item: errs.push_back(validation::field_required(p.child("type"), "must not be empty for specified array items")); break;
        case Level::Field: errs.push_back(validation::field_required(p.child("type"), "must not be empty for specified object fields")); break;
      }
    }
    if (s.x_embedded_resource && s.additional_properties.present) {
      errs.push_back(validation::field_forbidden(p.child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"));
    }
    if (lvl == Level::Root && !s.type.empty() && s.type != "object") {
      errs.push_back(validation::field_invalid(p.child("type"), json::Value(s.type), "must be object at the root"));
    }
    if (check_metadata) {
      if (const Schema* k = s.property("kind"); k && k->type != "string") {
        errs.push_back(validation::field_invalid(p.child("properties").key("kind").child("type"), json::Value(k->type), "must be string"));
      }
      if (const Schema* a = s.property("apiVersion"); a && a->type != "string") {
        errs.push_back(validation::field_invalid(p.child("properties").key("apiVersion").child("type"), json::Value(a->type), "must be string"));
      }
      if (const Schema* m = s.property("metadata"); m && m->type != "object") {
        errs.push_back(validation::field_invalid(p.child("properties").key("metadata").child("type"), json::Value(m->type), "must be object"));
      }
    }
    if (const Schema* m = s.property("metadata"); m && lvl == Level::Root) {
      bool name = m->properties.count("name") > 0, generate = m->properties.count("generateName") > 0;
      bool props_ok = m->properties.empty() || (name && generate && m->properties.size() == 2) ||
                      ((name || generate) && m->properties.size() == 1);
      if (!props_ok || !blank(*m, true, true, true)) {
        errs.push_back(validation::field_forbidden(p.child("properties").key("metadata"),
                                       "must not specify anything other than name and generateName, but metadata is implicitly specified"));
      }
    }
    if (s.x_embedded_resource && !s.preserve_unknown_fields() && s.properties.empty()) {
      errs.push_back(validation::field_required(p.child("properties"),
                                    "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"));
    }
  }

  void value_validation(const Schema& v, bool skip_any_of, bool skip_first_all_of_any_of, Level lvl, const validation::FieldPath& p) {
    if (!skip_any_of) {
      for (std::size_t i = 0; i < v.any_of.size(); ++i) nested(*v.any_of[i], false, false, lvl, p.child("anyOf").index(i));
    }
    for (std::size_t i = 0; i < v.all_of.size(); ++i) {
      nested(*v.all_of[i], skip_first_all_of_any_of && i == 0, false, lvl, p.child("allOf").index(i));
    }
    for (std::size_t i = 0; i < v.one_of.size(); ++i) nested(*v.one_of[i], false, false, lvl, p.child("oneOf").index(i));
    if (v.not_schema) nested(*v.not_schema, false, false, lvl, p.child("not"));
    if (v.pattern && !v.pattern->empty() && !v.pattern_re) {
      std::string err;
      Pattern::compile(*v.pattern, &err);
      errs.push_back(validation::field_invalid(p.child("pattern"), json::Value(*v.pattern), "must be a valid regular expression, but isn't: " + err));
    }
  }

  void nested(const Schema& v, bool skip_any_of, bool skip_all_of_any_of, Level lvl, const validation::FieldPath& p) {
    value_validation(v, skip_any_of, skip_all_of_any_of, lvl, p);
    if (v.items) nested(*v.items, false, false, lvl, p.child("items"));
    for (const auto& [k, f] : v.properties) nested(*f, false, false, Level::Field, p.child("properties").key(k));
    if (!v.type.empty()) errs.push_back(validation::field_forbidden(p.child("type"), "must be empty to be structural"));
    if (v.additional_properties.present) errs.push_back(validation::field_forbidden(p.child("additionalProperties"), "must be undefined to be structural"));
    if (v.default_value) errs.push_back(validation::field_forbidden(p.child("default"), "must be undefined to be structural"));
    if (!v.title.empty()) errs.push_back(validation::field_forbidden(p.child("title"), "must be empty to be structural"));
    if (!v.description.empty()) errs.push_back(validation::field_forbidden(p.child("description"), "must be empty to be structural"));
    if (v.nullable) errs.push_back(validation::field_forbidden(p.child("nullable"), "must be false to be structural"));
    if (v.preserve_unknown_fields()) errs.push_back(validation::field_forbidden(p.child("x-kubernetes-preserve-unknown-fields"), "must be false to be structural"));
    if (v.x_embedded_resource) errs.push_back(validation::field_forbidden(p.child("x-kubernetes-embedded-resource"), "must be false to be structural"));
    if (v.x_int_or_string) errs.push_back(validation::field_forbidden(p.child("x-kubernetes-int-or-string"), "must be false to be structural"));
    if (!v.x_list_map_keys.empty()) errs.push_back(validation::field_forbidden(p.child("x-kubernetes-list-map-keys"), "must be empty to be structural"));
    if (v.x_list_type) errs.push_back(validation::field_forbidden(p.child("x-kubernetes-list-type"), "must be undefined to be structural"));
    if (v.x_map_type) errs.push_back(validation::field_forbidden(p.child("x-kubernetes-map-type"), "must be undefined to be structural"));
    if (v.properties.count("metadata")) {
      errs.push_back(validation::field_forbidden(p.child("properties").key("metadata"), "must not be specified in a nested context"));
    }
  }

  // validateStructuralCompleteness (root value validations, as upstream)
  void completeness(const Schema& s, const validation::FieldPath& p) { value_completeness(s, &s, p, p); }

 private:
  void value_completeness(const Schema& v, const Schema* s, const validation::FieldPath& sp, const validation::FieldPath& vp) {
    if (v.not_schema) nested_completeness(*v.not_schema, s, sp, vp.child("not"));
    for (std::size_t i = 0; i < v.all_of.size(); ++i) nested_completeness(*v.all_of[i], s, sp, vp.child("allOf").index(i));
    for (std::size_t i = 0; i < v.any_of.size(); ++i) nested_completeness(*v.any_of[i], s, sp, vp.child("anyOf").index(i));
    for (std::size_t i = 0; i < v.one_of.size(); ++i) nested_completeness(*v.one_of[i], s, sp, vp.child("oneOf").index(i));
  }

  void nested_completeness(const Schema& v, const Schema* s, const validation::FieldPath& sp, const validation::FieldPath& vp) {
    if (!s) {
      errs.push_back(validation::field_required(sp, "because it is defined in " + vp.str()));
      return;
    }
    value_completeness(v, s, sp, vp);
    if (v.items) nested_completeness(*v.items, s->items.get(), sp.child("items"), vp.child("items"));
    for (const auto& [k, f] : v.properties) {
      const Schema* sf = s->property(k);
      if (!sf) {
        errs.push_back(validation::field_required(sp.child("properties").key(k), "because it is defined in " + vp.child("properties").key(k).str()));
      } else {
        nested_completeness(*f, sf, sp.child("properties").key(k), vp.child("properties").key(k));
      }
    }
  }
};

// ---------------------------------------------------------------------------------------------
// defaulting.ValidateDefaults

bool json_equal(const json::Value& a, const json::Value& b) { return a == b; }

void validate_defaults(const Schema& s, const validation::FieldPath& p, bool inside_meta, std::vector<validation::Cause>& out) {
  if (s.default_value) {
    const json::Value& d = *s.default_value;
    validation::FieldPath dp = p.child("default");
    if (!inside_meta) {
      json::Value pruned = d;
      prune(pruned, s, false);
      if (!json_equal(pruned, d)) out.push_back(validation::field_invalid(dp, d, "must not have unknown fields"));
    }
    std::vector<validation::Cause> meta;
    if (s.x_embedded_resource && d.is_object()) {
      for (std::string_view k : {"apiVersion", "kind"}) {
        auto* v = d.get_object().if_contains(k);
        if (v && !v->is_string()) meta.push_back(validation::field_invalid(dp.child(k), *v, "must be a string"));
      }
      if (meta.empty()) meta = validate_embedded_resources(d, s, dp, true);
    }
    if (!meta.empty()) {
      out.insert(out.end(), meta.begin(), meta.end());
    } else {
      auto errs = validate(d, s, dp);
      out.insert(out.end(), errs.begin(), errs.end());
    }
  }
  if (s.items) validate_defaults(*s.items, p.child("items"), inside_meta, out);
  for (const auto& [k, sub] : s.properties) {
    bool sub_meta = inside_meta || (s.x_embedded_resource && (k == "metadata" || k == "apiVersion" || k == "kind"));
    validate_defaults(*sub, p.child("properties").key(k), sub_meta, out);
  }
}

}  // namespace

ParseResult parse(const json::Value& openapi_v3_schema, const ParseOptions& options) {
  ParseResult res;
  validation::FieldPath root(options.path);
  Decoder dec;
  Ssv ssv;
  ssv.allow_defaults = options.allow_defaults;
  res.schema = dec.decode(openapi_v3_schema, root, ssv, true);

  std::vector<validation::Cause>& errs = res.errors;
  errs = dec.decode_errors;
  if (res.schema->nullable) errs.push_back(validation::field_forbidden(root.child("nullable"), "nullable cannot be true at the root"));

  Structural st;
  st.invariants(*res.schema, Level::Root, root);
  st.completeness(*res.schema, root);
  std::stable_sort(st.errs.begin(), st.errs.end(), [](const validation::Cause& a, const validation::Cause& b) { return a.error() < b.error(); });
  if (!st.errs.empty()) {
    errs.insert(errs.end(), st.errs.begin(), st.errs.end());
  } else if (options.validate_defaults) {
    // ValidateDefaults treats the schema as a resource root (embedded resource semantics).
    Schema root_schema = *res.schema;
    root_schema.x_embedded_resource = true;
    std::vector<validation::Cause> derrs;
    validate_defaults(root_schema, root, false, derrs);
    errs.insert(errs.end(), derrs.begin(), derrs.end());
  }
  errs.insert(errs.end(), dec.schema_errors.begin(), dec.schema_errors.end());
  res.not_evaluated = std::move(dec.not_evaluated);
  return res;
}

SchemaPtr parse_or_throw(const json::Value& openapi_v3_schema, const ParseOptions& options) {
  ParseResult r = parse(openapi_v3_schema, options);
  if (!r.errors.empty()) {
    std::string msg = "invalid structural schema:";
    for (const auto& c : r.errors) msg += "\n  " + c.error();
    throw std::invalid_argument(msg);
  }
  return r.schema;
}

}  // namespace capstan::apiserver::schema
