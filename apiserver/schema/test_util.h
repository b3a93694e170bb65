// Helpers shared by the schema tests.
#pragma once

#include "apiserver/schema/schema.h"
#include "runtime/json/json.h"

#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::schema::testing {

inline SchemaPtr S(std::string_view json_text) { return parse_or_throw(json::parse(json_text, "test schema")); }

inline json::Value J(std::string_view json_text) { return json::parse(json_text, "test object"); }

inline std::vector<std::string> errors_of(const std::vector<validation::Cause>& causes) {
  std::vector<std::string> out;
  for (const auto& c : causes) out.push_back(c.error());
  return out;
}

// validate() rendered as "field: message" strings.
inline std::vector<std::string> V(std::string_view schema_json, std::string_view obj_json) {
  return errors_of(validate(J(obj_json), *S(schema_json)));
}

inline std::vector<std::string> parse_errors(std::string_view schema_json, ParseOptions opts = {}) {
  return errors_of(parse(J(schema_json), opts).errors);
}

}  // namespace capstan::apiserver::schema::testing
