// CEL parser: source text to an AST with the precedence of cel-spec's grammar
//   Expr = ConditionalOr ["?" ConditionalOr ":" Expr]
//   ConditionalOr = [ConditionalOr "||"] ConditionalAnd;  ConditionalAnd = [.. "&&"] Relation
//   Relation = [Relation Relop] Addition  (< <= >= > == != in)
//   Addition = [Addition ("+"|"-")] Multiplication;  Multiplication = [.. ("*"|"/"|"%")] Unary
//   Unary = Member | "!" {"!"} Member | "-" {"-"} Member
//   Member = Primary | Member "." IDENT ["(" args ")"] | Member "[" Expr "]"
// Macros (has, all, exists, exists_one, map, filter) are recognised here. && and || chains are
// built balanced, as cel-go does, so long conjunctions stay shallow.
#pragma once

#include "runtime/cel/ast.h"

#include <string>
#include <string_view>

namespace capstan::cel {

struct ParseLimits {
  std::size_t max_length = 32 * 1024;  // bytes of source
  int max_depth = 64;                  // AST depth (also bounds the parser's recursion)
};

struct ParseResult {
  ExprPtr expr;       // null on error
  std::string error;  // "syntax error at 1:7: ..." or a limit being exceeded
};

ParseResult parse(std::string_view source, const ParseLimits& limits = {});

}  // namespace capstan::cel
