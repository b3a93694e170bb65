// Compile-time checks on a parsed expression ("type-checking lite"): every free identifier is
// a declared variable or a type name, every function exists in the supported subset with a
// matching arity and call style, and matches() patterns given as literals are valid RE2 (and
// compiled once here). The error names the construct that is refused.
#pragma once

#include "runtime/cel/ast.h"

#include <set>
#include <string>
#include <vector>

namespace capstan::cel {

struct CheckResult {
  std::string error;                   // empty when the expression is accepted
  std::set<std::string> free_variables;  // declared variables the expression reads
};

// May attach compiled regexes to `root`'s nodes (before the program is shared).
CheckResult check(const ExprPtr& root, const std::vector<std::string>& variables);

}  // namespace capstan::cel
