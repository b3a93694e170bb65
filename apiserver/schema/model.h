// The structural schema of a CRD version (apiextensions-apiserver pkg/apiserver/schema): one node
// type for both the structural part (type, properties, items, additionalProperties, extensions) and
// the value validations (allOf/anyOf/oneOf/not nodes, which must not carry structure of their own).
// Nodes are immutable once parsed and shared with shared_ptr.
#pragma once

#include "apiserver/schema/regex.h"
#include "runtime/cel/cel.h"
#include "runtime/json/json.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace capstan::apiserver::schema {

struct Schema;
using SchemaPtr = std::shared_ptr<const Schema>;

// One x-kubernetes-validations rule, compiled when the schema is parsed (cel_rules.h).
struct CelRule {
  std::string rule;
  std::string message;             // as written (trimmed when used)
  std::string message_expression;
  std::string reason;              // FieldValueInvalid (default), Forbidden, Required, Duplicate
  std::string field_path;          // fieldPath normalised to a field.Path string ("replicas", "m[k]")
  std::shared_ptr<const cel::Program> program;             // null: not evaluated (see unsupported)
  std::shared_ptr<const cel::Program> message_program;     // null: no or unsupported messageExpression
  bool uses_old_self = false;      // a transition rule: runs only on update with an old value
  std::string unsupported;         // why the rule is not evaluated here
  std::string schema_path;         // spec.versions[0].schema.openAPIV3Schema...x-kubernetes-validations[0]
};

// additionalProperties: absent, a boolean, or a schema.
struct AdditionalProperties {
  bool present = false;
  bool allows = true;  // false for `additionalProperties: false`
  SchemaPtr schema;    // set for `additionalProperties: {...}`
};

struct Schema {
  // --- generic
  std::string type;  // "", object, array, string, integer, number, boolean
  std::string format;  // as written in the CRD
  std::string title;
  std::string description;
  bool nullable = false;
  std::optional<json::Value> default_value;

  // --- value validation
  std::optional<double> maximum;
  bool exclusive_maximum = false;
  std::optional<double> minimum;
  bool exclusive_minimum = false;
  std::optional<std::int64_t> max_length, min_length;
  std::optional<std::int64_t> max_items, min_items;
  std::optional<std::int64_t> max_properties, min_properties;
  std::optional<std::string> pattern;
  std::optional<Pattern> pattern_re;  // compiled; empty when the pattern is invalid
  bool unique_items = false;
  std::optional<double> multiple_of;
  std::vector<json::Value> enum_values;  // empty = no enum
  std::vector<std::string> required;
  std::vector<SchemaPtr> all_of, any_of, one_of;
  SchemaPtr not_schema;

  // --- structure (std::map: properties iterate in name order, as a CRD read back from the API)
  std::map<std::string, SchemaPtr> properties;
  AdditionalProperties additional_properties;
  SchemaPtr items;

  // --- Kubernetes extensions
  bool x_int_or_string = false;
  std::optional<bool> x_preserve_unknown_fields;
  bool x_embedded_resource = false;
  std::optional<std::string> x_list_type;
  std::vector<std::string> x_list_map_keys;
  std::optional<std::string> x_map_type;
  json::Array x_validations;  // as written, for publishing
  std::vector<CelRule> x_rules;  // the same rules compiled (cel_rules.h); evaluated by cel_validate.h

  // --- kept verbatim for publishing
  std::optional<json::Value> example;
  std::optional<json::Value> external_docs;

  // The format kube-openapi validates with ("" when apiextensions strips it, e.g. int32).
  std::string effective_format;

  bool preserve_unknown_fields() const { return x_preserve_unknown_fields.value_or(false); }
  const Schema* property(std::string_view name) const;
  // Schema for a member of this object: the property, else additionalProperties' schema.
  const Schema* member(std::string_view name) const;
};

}  // namespace capstan::apiserver::schema
