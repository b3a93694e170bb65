#include "runtime/cel/cel.h"

#include "runtime/cel/checker.h"
#include "runtime/cel/parser.h"

namespace capstan::cel {

Compiled compile(std::string_view source, const Env& env) {
  Compiled out;
  ParseLimits pl;
  pl.max_length = env.limits.max_expression_length;
  pl.max_depth = env.limits.max_depth;
  auto parsed = parse(source, pl);
  if (!parsed.expr) {
    out.error = parsed.error;
    return out;
  }
  auto checked = check(parsed.expr, env.variables);
  if (!checked.error.empty()) {
    out.error = checked.error;
    return out;
  }
  out.program = std::make_shared<const Program>(parsed.expr, std::string(source), std::move(checked.free_variables), env.limits);
  return out;
}

}  // namespace capstan::cel
