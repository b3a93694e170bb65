// Validation of the workload kinds (k8s.io/kubernetes/pkg/apis/apps/validation and
// batch/validation, v1.32) in upstream order. `old` is null on create.
#pragma once

#include "runtime/validation/field.h"
#include "runtime/json/json.h"

#include <vector>

namespace capstan::apiserver::builtin {

std::vector<validation::Cause> validate_deployment(const json::Value& obj, const json::Value* old);
std::vector<validation::Cause> validate_replica_set(const json::Value& obj, const json::Value* old);
std::vector<validation::Cause> validate_stateful_set(const json::Value& obj, const json::Value* old);
std::vector<validation::Cause> validate_daemon_set(const json::Value& obj, const json::Value* old);
std::vector<validation::Cause> validate_job(const json::Value& obj, const json::Value* old);

}  // namespace capstan::apiserver::builtin
