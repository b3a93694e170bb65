// Parsing a CRD version's `schema.openAPIV3Schema` into a Schema tree, with the checks
// kube-apiserver runs when the CRD is created or updated (apiextensions validation.go:
// ValidateCustomResourceDefinitionOpenAPISchema + schema.ValidateStructural + defaulting
// ValidateDefaults). Error texts are the upstream ones, e.g.
//   spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields
#pragma once

#include "runtime/validation/field.h"
#include "apiserver/schema/model.h"
#include "runtime/json/json.h"

#include <string>
#include <vector>

namespace capstan::apiserver::schema {

struct ParseOptions {
  // Field path of the schema in the CRD, used as the prefix of every error.
  std::string path = "spec.versions[0].schema.openAPIV3Schema";
  // Whether `default` is allowed (true for apiextensions.k8s.io/v1).
  bool allow_defaults = true;
  // Check defaults validate against their schema and are pruned (v1 behaviour).
  bool validate_defaults = true;
};

struct ParseResult {
  SchemaPtr schema;           // the parsed tree (also set when there are errors, best effort)
  std::vector<validation::Cause> errors;  // empty when the schema is structural and valid
  // x-kubernetes-validations rules (or messageExpressions) outside the CEL subset this server
  // evaluates, one line each: "<schema path>: rule "..." is not evaluated by the embedded API server: <reason>".
  std::vector<std::string> not_evaluated;

  bool ok() const { return schema && errors.empty(); }
};

// Parses and checks a schema. The JSON must be an object.
ParseResult parse(const json::Value& openapi_v3_schema, const ParseOptions& options = {});

// Parses without the CRD checks (for schemas known to be valid, e.g. our own generated CRDs);
// throws std::invalid_argument listing the errors if the schema is not structural.
SchemaPtr parse_or_throw(const json::Value& openapi_v3_schema, const ParseOptions& options = {});

}  // namespace capstan::apiserver::schema
