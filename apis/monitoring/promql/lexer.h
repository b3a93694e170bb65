// The PromQL lexer: Prometheus 2.42's state machine (promql/parser/lex.go) re-implemented, quirks
// included, since what it accepts decides what promtool accepts: keywords are case-insensitive,
// `Inf`/`NaN` are numbers, durations are lexed apart from numbers (`5m`, `1h30m`), inside
// brackets any letter after the range reads as the subquery colon (`foo[5m x]` is `foo[5m:]`),
// and the first lexical error ends the token stream with a kError token.
#pragma once

#include "apis/monitoring/promql/token.h"

#include <string_view>
#include <vector>

namespace capstan::promql {

// Every token of `input` up to and including the final kEof or kError. Comments are dropped.
std::vector<Token> lex(std::string_view input);

}  // namespace capstan::promql
