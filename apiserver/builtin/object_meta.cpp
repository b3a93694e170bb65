// ValidateObjectMeta's format checks: generateName, name, labels and annotations.
#include "apiserver/builtin/object_meta.h"

#include "apiserver/builtin/names.h"
#include "apiserver/builtin/strategy.h"

#include <algorithm>
#include <cctype>

namespace capstan::apiserver::builtin {

using validation::FieldPath;

void validate_label_map(const json::Object& labels, const FieldPath& path, std::vector<validation::Cause>& out) {
  for (const auto& kv : labels) {
    json::Value key = json::String(kv.key());
    for (auto& m : names::qualified_name(kv.key())) out.push_back(validation::field_invalid(path, key, m));
    if (!kv.value().is_string()) continue;
    for (auto& m : names::label_value(kv.value().get_string())) out.push_back(validation::field_invalid(path, kv.value(), m));
  }
}

void validate_annotation_map(const json::Object& annotations, const FieldPath& path, std::vector<validation::Cause>& out) {
  std::int64_t total = 0;
  for (const auto& kv : annotations) {
    std::string lower(kv.key());
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    json::Value key = json::String(kv.key());
    for (auto& m : names::qualified_name(lower)) out.push_back(validation::field_invalid(path, key, m));
    total += static_cast<std::int64_t>(kv.key().size());
    if (kv.value().is_string()) total += static_cast<std::int64_t>(kv.value().get_string().size());
  }
  if (total > kTotalAnnotationSizeLimit) out.push_back(validation::field_too_long(path, kTotalAnnotationSizeLimit));
}

std::vector<validation::Cause> validate_object_meta(const json::Value& obj, std::string_view name_rule, bool create) {
  std::vector<validation::Cause> out;
  auto md = FieldPath("metadata");
  if (create) {
    std::string_view generate = json::get_string(obj, {"metadata", "generateName"});
    if (!generate.empty())
      for (auto& c : validate_name(generate, name_rule, true)) out.push_back(std::move(c));
    for (auto& c : validate_name(json::get_string(obj, {"metadata", "name"}), name_rule, false)) out.push_back(std::move(c));
  }
  if (const auto* labels = json::get_object(obj, {"metadata", "labels"})) validate_label_map(*labels, md.child("labels"), out);
  if (const auto* annotations = json::get_object(obj, {"metadata", "annotations"}))
    validate_annotation_map(*annotations, md.child("annotations"), out);
  return out;
}

}  // namespace capstan::apiserver::builtin
