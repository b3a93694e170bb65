// Service spec validation (ValidateService, v1.32) after defaulting.
#pragma once

#include "runtime/validation/field.h"
#include "runtime/json/json.h"

#include <vector>

namespace capstan::apiserver::builtin {

std::vector<validation::Cause> validate_service(const json::Value& service);

}  // namespace capstan::apiserver::builtin
