// PromQL tokens, as Prometheus 2.42's lexer (promql/parser/lex.go) produces them, and their
// descriptions in its syntax error messages ("unexpected identifier \"foo\"", "unexpected <by>").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace capstan::promql {

enum class Tok {
  kEof,
  kError,  // text holds the lexer's message
  kIdentifier,
  kMetricIdentifier,  // an identifier with a colon
  kNumber,
  kString,
  kDuration,
  kLeftParen,
  kRightParen,
  kLeftBrace,
  kRightBrace,
  kLeftBracket,
  kRightBracket,
  kComma,
  kEql,  // "=" (label matching; an error elsewhere)
  kColon,
  // Operators.
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
  kPow,
  kAtan2,
  kEqlc,  // ==
  kNeq,
  kLss,
  kLte,
  kGtr,
  kGte,
  kEqlRegex,
  kNeqRegex,
  kLand,
  kLor,
  kLunless,
  kAt,
  // Aggregators.
  kSum,
  kAvg,
  kCount,
  kMin,
  kMax,
  kGroup,
  kStddev,
  kStdvar,
  kTopk,
  kBottomk,
  kCountValues,
  kQuantile,
  // Keywords.
  kBool,
  kBy,
  kWithout,
  kOn,
  kIgnoring,
  kGroupLeft,
  kGroupRight,
  kOffset,
  // @ modifier preprocessors.
  kStart,
  kEnd,
};

struct Token {
  Tok type = Tok::kEof;
  std::size_t pos = 0;  // byte offset in the expression
  std::string text;     // the source text (the message for kError)
};

bool is_aggregator(Tok t);
bool is_aggregator_with_param(Tok t);  // topk, bottomk, quantile, count_values
bool is_comparison(Tok t);
bool is_set_operator(Tok t);
bool is_binary_operator(Tok t);  // what may stand between two expressions
// The operator's source spelling ("+", "and", "atan2", ...).
std::string_view operator_text(Tok t);

// Item.desc(): how a syntax error names the token it did not expect.
std::string describe(const Token& t);

}  // namespace capstan::promql
