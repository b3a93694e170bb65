// The PromQL syntax tree (one Node type with a kind, children and the fields of each kind) and
// its printing, in Prometheus's canonical form (printer.go): `sum by (job) (rate(x[5m]))`,
// `a + on (b) group_left (c) d`, `x offset -5m @ start()`.
#pragma once

#include "apis/monitoring/promql/token.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::promql {

enum class ValueType { kNone, kScalar, kVector, kMatrix, kString };
// DocumentedType: "scalar", "instant vector", "range vector", "string", "none".
std::string_view documented_type(ValueType t);
// ValueType.String(): "scalar", "vector", "matrix", "string", "none".
std::string_view type_name(ValueType t);

enum class NodeKind { kNumber, kString, kVectorSelector, kMatrixSelector, kSubquery, kCall, kAggregate, kBinary, kUnary, kParen };
enum class MatchOp { kEqual, kNotEqual, kRegex, kNotRegex };
std::string_view match_op_text(MatchOp op);
enum class AtKind { kNone, kTimestamp, kStart, kEnd };
enum class Cardinality { kOneToOne, kManyToOne, kOneToMany, kManyToMany };

struct Matcher {
  std::string name;
  MatchOp op = MatchOp::kEqual;
  std::string value;
};

struct Function;

struct Node {
  NodeKind kind = NodeKind::kNumber;
  std::size_t pos = 0;    // byte offset where the node starts
  std::size_t depth = 1;  // 1 + the deepest child

  double number = 0;     // kNumber
  std::string text;      // kString: the value; kVectorSelector: the metric name ("" when none)
  std::vector<Matcher> matchers;  // kVectorSelector: the matchers inside the braces

  // Modifiers of a vector selector (also of a matrix selector's inner selector) and a subquery.
  std::int64_t offset_ms = 0;
  AtKind at = AtKind::kNone;
  double at_seconds = 0;
  std::int64_t range_ms = 0;  // kMatrixSelector, kSubquery
  std::int64_t step_ms = 0;   // kSubquery (0: the default step)

  const Function* func = nullptr;  // kCall
  Tok op = Tok::kEof;              // kBinary, kUnary, kAggregate
  std::size_t op_pos = 0;          // kBinary: where the operator is

  // kBinary: bool and vector matching.
  bool return_bool = false;
  bool on = false;
  std::vector<std::string> matching_labels;  // on(...) / ignoring(...)
  Cardinality card = Cardinality::kOneToOne;
  std::vector<std::string> include;  // group_left(...) / group_right(...)

  // kAggregate: by/without.
  std::vector<std::string> grouping;
  bool without = false;
  bool has_param = false;  // children = {param, expr} when true, {expr} otherwise

  // kBinary {lhs, rhs}; kUnary, kParen, kSubquery, kMatrixSelector {expr}; kCall: arguments.
  std::vector<std::unique_ptr<Node>> children;

  ValueType type() const;
  // The canonical PromQL text of the node.
  std::string str() const;
};

}  // namespace capstan::promql
