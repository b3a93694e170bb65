// A Common Expression Language (CEL) implementation for the subset Kubernetes CRD validation
// rules, Flux health checks and similar configuration use: compile once, evaluate many times
// against variables bound by name. Include this header only.
//
//   cel::Env env{.variables = {"self", "oldSelf"}};
//   auto compiled = cel::compile("self.replicas <= self.size", env);
//   if (!compiled.ok()) ... compiled.error names the construct that is not supported
//   cel::Activation vars{{"self", cel::Value::from_json(obj)}};
//   auto r = compiled.program->eval(vars);   // r.value, or r.error ("no such key: size")
//
// Supported: literals (int, uint, double, string with escapes and raw/triple-quoted forms,
// bytes, bool, null, lists, maps), field selection, indexing, has(), the operators with CEL's
// precedence and commutative &&/||, heterogeneous int/uint/double comparison, overflow-checked
// arithmetic, size, in, the conversions int/uint/double/string/bytes/bool/dyn/type/duration/
// timestamp, the string functions of cel-go and Kubernetes (contains, startsWith, endsWith,
// matches (RE2), lowerAscii, upperAscii, trim, split, join, indexOf, lastIndexOf, substring,
// replace, charAt), Kubernetes list functions (isSorted, sum, min, max, indexOf, lastIndexOf),
// and the macros all, exists, exists_one, map (2 and 3 arguments), filter on lists and maps.
// Everything else is refused at compile time with an error naming it (see checker.cpp).
//
// Bounds: source length and AST depth at compile time, an evaluation cost budget at run time
// (one unit per node visited and per macro iteration, plus the size of strings and lists built),
// so no expression runs long or allocates without bound. Nothing here throws to the caller
// except std::bad_alloc.
#pragma once

#include "runtime/cel/ast.h"
#include "runtime/cel/value.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::cel {

struct Limits {
  std::size_t max_expression_length = 32 * 1024;
  int max_depth = 64;
  // Cost units one evaluation may spend; kube-apiserver's per-expression limit is 1,000,000.
  std::int64_t cost_limit = 1'000'000;
};

// The variables an expression may reference; any other free identifier is a compile error.
struct Env {
  std::vector<std::string> variables;
  Limits limits;
};

// The error text cel-go uses when an evaluation exceeds its cost limit; callers match on it.
inline constexpr std::string_view kCostLimitExceeded = "operation cancelled: actual cost limit exceeded";

using Activation = std::map<std::string, Value, std::less<>>;

struct EvalResult {
  Value value;            // the result when error is empty
  std::string error;      // "no such key: x", "division by zero", kCostLimitExceeded, ...
  std::int64_t cost = 0;  // units spent
  bool cost_exceeded = false;
  bool ok() const { return error.empty(); }
};

class Program {
 public:
  Program(ExprPtr root, std::string source, std::set<std::string> free_variables, Limits limits)
      : root_(std::move(root)), source_(std::move(source)), free_(std::move(free_variables)), limits_(limits) {}
  // Evaluates against `vars`; `cost_limit` < 0 uses the compile-time limit.
  EvalResult eval(const Activation& vars, std::int64_t cost_limit = -1) const;
  // Whether the expression reads this variable (e.g. "oldSelf" makes a transition rule).
  bool references(std::string_view variable) const { return free_.count(std::string(variable)) > 0; }
  const std::string& source() const { return source_; }

 private:
  ExprPtr root_;
  std::string source_;
  std::set<std::string> free_;
  Limits limits_;
};

struct Compiled {
  std::shared_ptr<const Program> program;  // null when error is set
  std::string error;  // syntax error, limit exceeded, undeclared reference or unsupported construct
  bool ok() const { return program != nullptr; }
};

Compiled compile(std::string_view source, const Env& env);

}  // namespace capstan::cel
