// Test helpers for apiserver/builtin: an object run through a strategy's defaults and then
// the ObjectMeta and type-specific validation, as the REST layer does on create and update.
#pragma once

#include "apiserver/builtin/strategy.h"
#include "runtime/json/yaml.h"

#include <string>
#include <vector>

namespace capstan::apiserver::builtin::testing {

using Errors = std::vector<std::string>;

// kube-apiserver's texts for the name formats, as the causes quote them.
inline const std::string kLabelMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an "
    "alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
inline const std::string kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
inline const std::string kNamePartMsg =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

inline Errors errors_of(const std::vector<validation::Cause>& causes) {
  Errors out;
  for (const auto& c : causes) out.push_back(c.error());
  return out;
}

// field.Error strings of a create of the YAML object as `group_resource` ("pods", "deployments.apps").
inline Errors create_errors(std::string_view group_resource, std::string_view yaml) {
  json::Value obj = json::from_yaml(yaml);
  auto& s = strategy_for(group_resource);
  s.prepare_create(obj);
  auto causes = validate_object_meta(obj, s.name_rule(), true);
  for (auto& c : s.validate(obj, nullptr)) causes.push_back(std::move(c));
  return errors_of(causes);
}

// The same for an update of `old_yaml` (created first) to `new_yaml`.
inline Errors update_errors(std::string_view group_resource, std::string_view old_yaml, std::string_view new_yaml) {
  auto& s = strategy_for(group_resource);
  json::Value old = json::from_yaml(old_yaml);
  s.prepare_create(old);
  json::Value obj = json::from_yaml(new_yaml);
  s.prepare_update(obj, old);
  auto causes = validate_object_meta(obj, s.name_rule(), false);
  for (auto& c : s.validate(obj, &old)) causes.push_back(std::move(c));
  return errors_of(causes);
}

}  // namespace capstan::apiserver::builtin::testing
