#include "runtime/meta/quantity.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace capstan::meta {
namespace {

struct Suffix {
  std::string_view name;
  long double multiplier;
};

constexpr Suffix kSuffixes[] = {{"Ki", 1024.0L}, {"Mi", 1048576.0L}, {"Gi", 1073741824.0L}, {"Ti", 1099511627776.0L},
                                {"Pi", 1125899906842624.0L}, {"Ei", 1152921504606846976.0L}, {"m", 1e-3L}, {"k", 1e3L},
                                {"M", 1e6L}, {"G", 1e9L}, {"T", 1e12L}, {"P", 1e15L}, {"E", 1e18L}};

bool digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::optional<long double> quantity_value(std::string_view q) {
  if (q.size() > 64) return std::nullopt;
  if (!q.empty() && q.front() == '+') q.remove_prefix(1);
  // The number: digits with at most one '.', at least one digit.
  std::size_t i = 0, digits = 0;
  bool dot = false;
  for (; i < q.size(); ++i) {
    if (digit(q[i])) ++digits;
    else if (q[i] == '.' && !dot) dot = true;
    else break;
  }
  if (digits == 0) return std::nullopt;
  const long double n = std::strtold(std::string(q.substr(0, i)).c_str(), nullptr);
  const std::string_view suffix = q.substr(i);
  if (suffix.empty()) return n;
  for (const auto& s : kSuffixes)
    if (suffix == s.name) return n * s.multiplier;
  // An exponent: e or E, an optional sign, 1-3 digits.
  if (suffix.front() != 'e' && suffix.front() != 'E') return std::nullopt;
  std::string_view exp = suffix.substr(1);
  const bool negative = !exp.empty() && exp.front() == '-';
  if (!exp.empty() && (exp.front() == '-' || exp.front() == '+')) exp.remove_prefix(1);
  if (exp.empty() || exp.size() > 3) return std::nullopt;
  int e = 0;
  for (char c : exp) {
    if (!digit(c)) return std::nullopt;
    e = e * 10 + (c - '0');
  }
  return n * std::pow(10.0L, negative ? -e : e);
}

}  // namespace capstan::meta
