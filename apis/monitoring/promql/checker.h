// The type checker run over a syntax tree that parsed without error (parse.go's checkAST):
// argument and operand types, vector matching rules, selectors that select nothing by mistake.
#pragma once

#include "apis/monitoring/promql/ast.h"
#include "apis/monitoring/promql/promql.h"

#include <vector>

namespace capstan::promql {

// Appends the errors of `n` and its children, in the order Prometheus finds them.
ValueType check_tree(const Node& n, std::vector<ParseError>& errors);

}  // namespace capstan::promql
