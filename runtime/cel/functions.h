// The built-in functions (not operators or macros): which exist with which arities, for the
// checker, and their implementations, for the evaluator.
#pragma once

#include "runtime/cel/value.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace capstan::cel {

struct FunctionInfo {
  std::string_view name;
  std::vector<int> global_arities;  // name(args...)
  std::vector<int> member_arities;  // target.name(args...), not counting the target
};

// nullptr for a function outside the supported subset.
const FunctionInfo* find_function(std::string_view name);

// Charged by functions for the work they do beyond one step (string and list sizes).
struct Budget {
  std::int64_t spent = 0;
  void charge_size(std::size_t n) { spent += static_cast<std::int64_t>(n / 64); }
};

// Calls `name` with the evaluated receiver (null for a global call) and arguments, none of
// which is an error value. `regex` is the precompiled pattern of matches() when it was a literal.
Value call_function(std::string_view name, const Value* target, const std::vector<Value>& args,
                    const re2::RE2* regex, Budget& budget);

// Conversions (conversions.cpp).
Value to_int(const Value& v);
Value to_uint(const Value& v);
Value to_double(const Value& v);
Value to_string(const Value& v);
Value to_bytes(const Value& v);
Value to_bool(const Value& v);
Value to_duration(const Value& v);
Value to_timestamp(const Value& v);
Value type_of(const Value& v);

// The "no such overload" error cel-go reports when no overload of a function fits the arguments
// (the name is for readers of the call site; cel-go does not print it).
Value no_such_overload(std::string_view function);

}  // namespace capstan::cel
