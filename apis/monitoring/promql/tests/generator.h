// Generated PromQL cases for the differential test against promtool: every function with right
// and wrong argument types and counts, every aggregation with its modifiers and parameters, every
// binary operator over every operand type with each vector-matching modifier, precedence pairs,
// selectors, durations, numbers, strings, and seeded random expressions and mutations of them.
// Deterministic: the same list on every run.
#pragma once

#include <string>
#include <vector>

namespace capstan::promql::testing {

std::vector<std::string> generated_cases();

}  // namespace capstan::promql::testing
