// Helpers for the tests of generated CRDs (header-only; tests link capstan_apiserver_schema).
#pragma once

#include "apiserver/schema/schema.h"
#include "runtime/json/json.h"

#include <string>
#include <vector>

namespace capstan::apis::testing {

inline const json::Value& crd_version(const json::Value& crd) { return crd.at("spec").at("versions").at(0); }

// What the API server's schema validation says of `obj` against `crd`'s schema (field.Error
// strings); empty when it is accepted.
inline std::vector<std::string> schema_errors(const json::Value& crd, const json::Value& obj) {
  auto parsed = apiserver::schema::parse(crd_version(crd).at("schema").at("openAPIV3Schema"));
  std::vector<std::string> out;
  for (const auto& e : parsed.errors) out.push_back("schema: " + e.error());
  if (!parsed.schema) return out;
  for (const auto& c : apiserver::schema::validate(obj, *parsed.schema)) out.push_back(c.error());
  return out;
}

// The printer columns' names, in order.
inline std::vector<std::string> column_names(const json::Value& crd) {
  std::vector<std::string> out;
  for (const auto& c : crd_version(crd).at("additionalPrinterColumns").get_array()) out.emplace_back(c.at("name").get_string());
  return out;
}

}  // namespace capstan::apis::testing
