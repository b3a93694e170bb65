// Capstan's PromQL parser: what Prometheus 2.42 (Debian's promtool) accepts as a rule expression,
// with its error messages ("1:6: parse error: expected type range vector in call to function
// \"rate\", got instant vector"). Differential-tested against `promtool check rules`
// (apis/monitoring/promql/testdata/corpus.txt).
//
// Every input is bounded: its length, how deep it nests and how many nodes it has; past a bound
// the expression is refused with a parse error that names the bound.
#pragma once

#include "apis/monitoring/promql/ast.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::promql {

struct Limits {
  std::size_t max_bytes = 512 * 1024;  // a rule ConfigMap holds no more
  std::size_t max_depth = 1000;        // nesting of the tree and of the parser
  std::size_t max_nodes = 100000;
};

struct ParseError {
  std::size_t pos = 0;  // byte offset
  std::string message;  // "unexpected end of input"
  // The name of a called function is not one of 2.42's (newer Prometheus releases add some).
  bool unknown_function = false;
  // ParseErr.Error(): "<line>:<column>: parse error: <message>" (column in bytes, from 1).
  std::string str(std::string_view input) const;
};

struct ParseResult {
  std::unique_ptr<Node> expr;  // set when there is no error
  std::optional<ParseError> error;
  bool ok() const { return !error; }
};

// Parses and type-checks `input` as promql/parser.ParseExpr does; the first error is reported.
ParseResult parse(std::string_view input, const Limits& limits = {});

// "" when `input` parses, else the error as promtool prints it ("1:5: parse error: ...").
std::string check(std::string_view input, const Limits& limits = {});

}  // namespace capstan::promql
