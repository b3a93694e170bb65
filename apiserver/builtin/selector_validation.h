// metav1 LabelSelector checks for workload specs: ValidateLabelSelector's causes and
// LabelSelectorAsSelector's outcome, as apps/batch validation combine them.
#pragma once

#include "runtime/validation/field.h"
#include "runtime/json/json.h"
#include "runtime/meta/selector.h"

#include <optional>
#include <vector>

namespace capstan::apiserver::builtin {

// ValidateLabelSelector (label values checked strictly); nothing for an absent selector.
void validate_label_selector(const json::Value* selector, const validation::FieldPath& path, std::vector<validation::Cause>& out);

// The result of LabelSelectorAsSelector: an absent selector selects nothing, {} everything.
struct ParsedSelector {
  bool nothing = false;
  meta::LabelSelector selector;
  bool empty() const { return !nothing && selector.empty(); }  // labels.Selector.Empty()
  bool matches(const json::Value* labels) const;                // against a labels map
};
// nullopt where LabelSelectorAsSelector fails (a bad operator, key, value or value count).
std::optional<ParsedSelector> label_selector_as_selector(const json::Value* selector);

// "empty selector is invalid for <kind>" when the selector has neither matchLabels nor
// matchExpressions.
bool selector_has_terms(const json::Value& selector);

}  // namespace capstan::apiserver::builtin
