#include "apiserver/builtin/selector_validation.h"

#include "apiserver/builtin/names.h"
#include "apiserver/builtin/object_meta.h"

namespace capstan::apiserver::builtin {

using validation::FieldPath;

void validate_label_selector(const json::Value* selector, const FieldPath& path, std::vector<validation::Cause>& out) {
  if (!selector || !selector->is_object()) return;
  if (const auto* ml = json::get_object(*selector, {"matchLabels"})) validate_label_map(*ml, path.child("matchLabels"), out);
  const auto* exprs = json::get_array(*selector, {"matchExpressions"});
  if (!exprs) return;
  for (std::size_t i = 0; i < exprs->size(); ++i) {
    const json::Value& e = (*exprs)[i];
    auto at = path.child("matchExpressions").index(i);
    std::string_view op = json::get_string(e, {"operator"});
    const auto* values = json::get_array(e, {"values"});
    std::size_t n = values ? values->size() : 0;
    if (op == "In" || op == "NotIn") {
      if (n == 0) out.push_back(validation::field_required(at.child("values"), "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (op == "Exists" || op == "DoesNotExist") {
      if (n > 0)
        out.push_back(validation::field_forbidden(at.child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      out.push_back(validation::field_invalid(at.child("operator"), json::Value(json::String(op)), "not a valid selector operator"));
    }
    std::string_view key = json::get_string(e, {"key"});
    for (auto& m : names::qualified_name(key)) out.push_back(validation::field_invalid(at.child("key"), json::Value(json::String(key)), m));
    if (!values) continue;
    for (std::size_t j = 0; j < values->size(); ++j) {
      if (!(*values)[j].is_string()) continue;
      for (auto& m : names::label_value((*values)[j].get_string()))
        out.push_back(validation::field_invalid(at.child("values").index(j), (*values)[j], m));
    }
  }
}

bool ParsedSelector::matches(const json::Value* labels) const {
  if (nothing) return false;
  meta::Labels set;
  if (labels && labels->is_object())
    for (const auto& kv : labels->as_object())
      if (kv.value().is_string()) set.emplace(std::string(kv.key()), std::string(kv.value().get_string()));
  return selector.matches(set);
}

std::optional<ParsedSelector> label_selector_as_selector(const json::Value* selector) {
  ParsedSelector p;
  if (!selector || selector->is_null()) {
    p.nothing = true;
    return p;
  }
  // NewRequirement refuses exactly what ValidateLabelSelector reports.
  std::vector<validation::Cause> problems;
  validate_label_selector(selector, FieldPath("selector"), problems);
  if (!problems.empty()) return std::nullopt;
  try {
    p.selector = meta::LabelSelector::from_json(selector);
  } catch (const meta::SelectorError&) {
    return std::nullopt;
  }
  return p;
}

bool selector_has_terms(const json::Value& selector) {
  const auto* ml = json::get_object(selector, {"matchLabels"});
  const auto* me = json::get_array(selector, {"matchExpressions"});
  return (ml && !ml->empty()) || (me && !me->empty());
}

}  // namespace capstan::apiserver::builtin
