// Where kustomize puts labels and annotations (its commonLabels, templateLabels and
// commonAnnotations field specs for the built-in kinds): the object's metadata, and, depending on
// the field, the pod templates and the selectors that must keep selecting those pods.
#pragma once

#include "runtime/json/json.h"

#include <map>
#include <string>

namespace capstan::gitops::kustomize {

enum class LabelReach {
  kMetadata,   // labels[] without includeSelectors nor includeTemplates
  kTemplates,  // labels[].includeTemplates: also the pod (and job) templates
  kSelectors,  // commonLabels, labels[].includeSelectors: also selectors and claim templates
};

void add_labels(json::Value& obj, const std::map<std::string, std::string>& labels, LabelReach reach);

// commonAnnotations: the object's and its pod (and job) templates'.
void add_annotations(json::Value& obj, const std::map<std::string, std::string>& annotations);

}  // namespace capstan::gitops::kustomize
