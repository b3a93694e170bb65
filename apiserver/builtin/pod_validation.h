// Pod spec and pod template validation (k8s.io/kubernetes/pkg/apis/core/validation, v1.32):
// containers, init containers, ports, policies, node selector, service account name.
#pragma once

#include "runtime/validation/field.h"
#include "runtime/json/json.h"

#include <vector>

namespace capstan::apiserver::builtin {

// ValidatePodSpec at `path` ("spec" for a Pod, "spec.template.spec" in a workload). An absent
// spec is validated as an empty one (Go's zero value).
void validate_pod_spec(const json::Value* spec, const validation::FieldPath& path, std::vector<validation::Cause>& out);

// ValidatePodTemplateSpec at `path` ("spec.template"): the template's labels and annotations
// (at path.labels and path.annotations, as upstream reports them), then its pod spec.
void validate_pod_template(const json::Value* tmpl, const validation::FieldPath& path, std::vector<validation::Cause>& out);

}  // namespace capstan::apiserver::builtin
