// ObjectMeta checks shared by every kind (apimachinery's ValidateObjectMeta pieces), usable on
// any labels/annotations map (a pod template's as well as an object's).
#pragma once

#include "runtime/validation/field.h"
#include "runtime/json/json.h"

#include <vector>

namespace capstan::apiserver::builtin {

// metav1validation.ValidateLabels: every key a qualified name, every value a label value.
void validate_label_map(const json::Object& labels, const validation::FieldPath& path, std::vector<validation::Cause>& out);
// ValidateAnnotations: keys are qualified names (case-insensitively), keys and values together
// at most 256 KiB.
void validate_annotation_map(const json::Object& annotations, const validation::FieldPath& path, std::vector<validation::Cause>& out);

inline constexpr std::int64_t kTotalAnnotationSizeLimit = 256 * 1024;

}  // namespace capstan::apiserver::builtin
