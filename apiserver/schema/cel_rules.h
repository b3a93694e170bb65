// Compiling a schema node's x-kubernetes-validations into CelRule entries when the CRD schema is
// parsed. A rule outside the supported CEL subset is kept uncompiled with the reason: kube-apiserver
// would accept the CRD (the rule is valid CEL there), so the embedded server accepts it too, warns
// on the CRD write, and does not evaluate the rule.
#pragma once

#include "runtime/validation/field.h"
#include "apiserver/schema/model.h"

#include <optional>
#include <string>
#include <vector>

namespace capstan::apiserver::schema {

// The variables a rule sees.
inline constexpr std::string_view kSelf = "self";
inline constexpr std::string_view kOldSelf = "oldSelf";

// Fills s.x_rules from s.x_validations (properties/items must already be decoded, for fieldPath).
// `p` is the node's path in the CRD; one note per rule that will not be evaluated:
//   <path>.x-kubernetes-validations[0]: rule "..." is not evaluated by the embedded API server: <reason>
void compile_rules(Schema& s, const validation::FieldPath& p, std::vector<std::string>& not_evaluated);

// ValidFieldPath: a rule's fieldPath (".a.b", ".m['key']") against the node's schema, as the
// field.Path string it adds to the node's path; nullopt with `error` when it names no field.
std::optional<std::string> normalize_field_path(std::string_view json_path, const Schema& s, std::string* error);

// Every rule in the tree that is not evaluated, with its reason (for logging on registration).
void collect_unevaluated(const Schema& s, std::vector<const CelRule*>& out);

}  // namespace capstan::apiserver::schema
