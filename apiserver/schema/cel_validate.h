// Evaluating a CRD's x-kubernetes-validations rules on a custom resource, as kube-apiserver's
// apiextensions-apiserver (pkg/apiserver/schema/cel/validation.go) does: each node's rules run on
// the value at that node (self; null values are skipped), for every property, array item and map
// value the schema describes. A rule reading oldSelf (a transition rule) runs only on update when
// the old object has a value at that path (through properties, map keys and list-type=map keys).
// On update, a failing rule that does not read oldSelf on a value unchanged from the old object
// is ratcheted (CRDValidationRatcheting): reported as a warning instead of an error.
//
// Failure texts (exact):
//   spec.replicas: Invalid value: replicas must not exceed size         (object/array node: no value)
//   spec.name: Invalid value: "x": failed rule: self.startsWith('a')    (scalar node: the value)
//   spec: Invalid value: "object": no such key: foo evaluating rule: self.foo == 1
#pragma once

#include "runtime/validation/field.h"
#include "apiserver/schema/model.h"
#include "runtime/json/json.h"

#include <cstdint>
#include <string>
#include <vector>

namespace capstan::apiserver::schema {

struct CelBudget {
  // celconfig.RuntimeCELCostBudget (all rules of one request) and PerCallLimit (one rule).
  std::int64_t total = 10'000'000;
  std::int64_t per_call = 1'000'000;
};

struct CelOutcome {
  std::vector<validation::Cause> errors;
  std::vector<std::string> warnings;  // ratcheted failures, as field.Error.Error() strings
};

// `old` is null on create. The root is a resource root (apiVersion, kind, metadata.name visible).
CelOutcome validate_rules(const json::Value& obj, const json::Value* old, const Schema& schema, const CelBudget& budget = {});

// hasBlockingErr: a type, required, enum or size violation means CEL rules are not run.
bool has_blocking_error(const std::vector<validation::Cause>& causes);

}  // namespace capstan::apiserver::schema
