// Bundle validation (trust-manager's webhook, pkg/webhook/validation.go): exactly one kind per
// source, at most one useDefaultCAs, name and key (or includeAllKeys) of every ConfigMap and
// Secret source, at least one target, target and format keys distinct and valid, a label
// selector that parses. Field paths in every message.
#pragma once

#include "runtime/json/json.h"
#include "runtime/validation/field.h"

#include <vector>

namespace capstan::apis::trust::v1alpha1 {

std::vector<validation::Cause> validate_bundle(const json::Value& obj, const json::Value* old);

}  // namespace capstan::apis::trust::v1alpha1
