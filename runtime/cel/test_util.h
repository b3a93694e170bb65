// Helpers for the CEL tests: compile and evaluate in one call, results as short strings.
#pragma once

#include "runtime/cel/cel.h"

#include <string>

namespace capstan::cel::testing {

// "error: <compile or eval error>" or the JSON of the result (strings quoted).
inline std::string run(std::string_view expr, std::string_view self_json = "null", std::int64_t cost_limit = -1) {
  Env env{.variables = {"self", "oldSelf"}};
  auto c = compile(expr, env);
  if (!c.ok()) return "compile error: " + c.error;
  Activation vars{{"self", Value::from_json(json::parse(self_json))}};
  auto r = c.program->eval(vars, cost_limit);
  if (!r.ok()) return "error: " + r.error;
  return json::serialize(r.value.to_json());
}

inline std::string compile_error(std::string_view expr) {
  Env env{.variables = {"self", "oldSelf"}};
  auto c = compile(expr, env);
  return c.ok() ? std::string() : c.error;
}

}  // namespace capstan::cel::testing
