// The PromQL functions of Prometheus 2.42 (promql/parser/functions.go of that release, checked
// against Debian's promtool 2.42): argument types, optional/variadic arguments, return type.
// Later additions (histogram_avg/stddev/stdvar, sort_by_label, mad_over_time, limitk, info...)
// are unknown here, as they are to that promtool.
#pragma once

#include "apis/monitoring/promql/ast.h"

#include <span>
#include <string_view>

namespace capstan::promql {

struct Function {
  std::string_view name;
  std::span<const ValueType> args;
  // 0: exactly args.size() arguments; 1: the last argument is optional; -1: the last argument
  // repeats (at least args.size() - 1 arguments).
  int variadic = 0;
  ValueType returns = ValueType::kVector;
};

const Function* find_function(std::string_view name);
std::span<const Function> functions();

}  // namespace capstan::promql
