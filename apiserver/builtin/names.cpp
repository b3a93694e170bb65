// metadata.name rules (ValidateNameFunc) and the label and name checks of object metadata.
#include "apiserver/builtin/names.h"

#include "apiserver/builtin/object_meta.h"
#include "apiserver/builtin/strategy.h"

namespace capstan::apiserver::builtin {
namespace names {
namespace {

// apimachinery's maskTrailingDash, verbatim: a trailing '-' of a generateName prefix (longer
// than one character) stands for a character still to come.
std::string mask_trailing_dash(std::string_view name) {
  if (name.size() > 1 && name.back() == '-') return std::string(name.substr(0, name.size() - 2)) + "a";
  return std::string(name);
}

}  // namespace

Messages name_errors(std::string_view name, std::string_view rule, bool prefix) {
  if (rule == "path") {
    // path.IsValidPathSegmentName / IsValidPathSegmentPrefix.
    if (!prefix && (name == "." || name == "..")) return {"may not be '" + std::string(name) + "'"};
    Messages errs;
    for (auto bad : {"/", "%"})
      if (name.find(bad) != std::string_view::npos) errs.push_back("may not contain '" + std::string(bad) + "'");
    return errs;
  }
  std::string n = prefix ? mask_trailing_dash(name) : std::string(name);
  if (rule == "label") return dns1123_label(n);
  if (rule == "dns1035") return dns1035_label(n);
  return dns1123_subdomain(n);
}

}  // namespace names

std::vector<validation::Cause> validate_name(std::string_view name, std::string_view rule, bool generate_name_prefix) {
  std::vector<validation::Cause> out;
  auto path = validation::FieldPath("metadata").child(generate_name_prefix ? "generateName" : "name");
  if (name.empty() && !generate_name_prefix) {
    out.push_back(validation::field_required(path, "name or generateName is required"));
    return out;
  }
  json::Value v = json::String(name);
  for (auto& m : names::name_errors(name, rule, generate_name_prefix)) out.push_back(validation::field_invalid(path, v, m));
  return out;
}

std::vector<validation::Cause> validate_labels(const json::Value& obj) {
  std::vector<validation::Cause> out;
  if (const auto* labels = json::get_object(obj, {"metadata", "labels"}))
    validate_label_map(*labels, validation::FieldPath("metadata").child("labels"), out);
  return out;
}

}  // namespace capstan::apiserver::builtin
