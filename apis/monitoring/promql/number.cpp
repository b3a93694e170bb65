#include "apis/monitoring/promql/number.h"

#include "apis/monitoring/promql/strings.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace capstan::promql {
namespace {

bool lower_equal(std::string_view s, std::string_view word) {
  if (s.size() != word.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((s[i] | 0x20) != word[i]) return false;
  return true;
}

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') return (c | 0x20) - 'a' + 10;
  return 99;
}

// strconv.ParseInt(s, 0, 64) for what the lexer can produce (no sign, no underscores).
std::optional<std::int64_t> go_parse_int(std::string_view s) {
  int base = 10;
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  } else if (s.size() >= 2 && s[0] == '0') {
    base = 8;
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  unsigned long long v = 0;
  for (char c : s) {
    int d = digit_value(c);
    if (d >= base) return std::nullopt;
    if (v > (static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max()) - static_cast<unsigned>(d)) / static_cast<unsigned>(base))
      return std::nullopt;  // out of range: Go falls back to ParseFloat
    v = v * static_cast<unsigned>(base) + static_cast<unsigned>(d);
  }
  return static_cast<std::int64_t>(v);
}

// The syntax strconv.ParseFloat accepts for decimal input: digits with one optional point (at
// least one digit), then an optional exponent with at least one digit. Hexadecimal floats need a
// 'p' exponent, which a PromQL number token never has.
bool go_float_syntax(std::string_view s) {
  std::size_t i = 0, digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t exp = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exp;
    if (exp == 0) return false;
  }
  return i == s.size();
}

}  // namespace

std::optional<double> parse_number(std::string_view text, std::string* error) {
  if (auto i = go_parse_int(text)) return static_cast<double>(*i);
  if (lower_equal(text, "inf") || lower_equal(text, "infinity")) return std::numeric_limits<double>::infinity();
  if (lower_equal(text, "nan")) return std::numeric_limits<double>::quiet_NaN();
  std::string prefix = "strconv.ParseFloat: parsing " + go_quote(text) + ": ";
  if (!go_float_syntax(text)) {
    if (error) *error = prefix + "invalid syntax";
    return std::nullopt;
  }
  std::string copy(text);
  double v = std::strtod(copy.c_str(), nullptr);
  if (std::isinf(v)) {
    if (error) *error = prefix + "value out of range";
    return std::nullopt;
  }
  return v;
}

std::optional<std::int64_t> parse_duration(std::string_view text, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<std::int64_t> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  if (text == "0") return 0;
  if (text.empty()) return fail("empty duration string");
  struct Unit {
    std::string_view name;
    std::int64_t ms;
  };
  static constexpr Unit kUnits[] = {{"y", 1000LL * 60 * 60 * 24 * 365}, {"w", 1000LL * 60 * 60 * 24 * 7},
                                    {"d", 1000LL * 60 * 60 * 24},       {"h", 1000LL * 60 * 60},
                                    {"m", 1000LL * 60},                 {"s", 1000},
                                    {"ms", 1}};
  std::size_t i = 0, next_unit = 0;
  std::uint64_t total_ns = 0;  // wraps like Go's time.Duration arithmetic
  bool overflow = false;
  const std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  while (i < text.size()) {
    std::size_t d0 = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    if (i == d0) return fail("not a valid duration string: " + go_quote(text));
    std::string_view digits = text.substr(d0, i - d0);
    std::size_t u0 = i;
    while (i < text.size() && text[i] >= 'a' && text[i] <= 'z') ++i;
    std::string_view unit = text.substr(u0, i - u0);
    std::size_t k = next_unit;
    while (k < std::size(kUnits) && kUnits[k].name != unit) ++k;
    if (k == std::size(kUnits)) return fail("not a valid duration string: " + go_quote(text));
    next_unit = k + 1;
    // strconv.Atoi: out of range clamps to the int64 maximum.
    std::int64_t n = 0;
    for (char c : digits) {
      if (n > (kMax - (c - '0')) / 10) {
        n = kMax;
        break;
      }
      n = n * 10 + (c - '0');
    }
    if (n > kMax / kUnits[k].ms / 1000000) overflow = true;
    total_ns += static_cast<std::uint64_t>(n) * 1000000u * static_cast<std::uint64_t>(kUnits[k].ms);
    if (static_cast<std::int64_t>(total_ns) < 0) overflow = true;
  }
  if (overflow) return fail("duration out of range");
  return static_cast<std::int64_t>(total_ns) / 1000000;
}

std::string format_duration(std::int64_t ms) {
  if (ms == 0) return "0s";
  std::string r;
  auto f = [&](const char* unit, std::int64_t mult, bool exact) {
    if (exact && ms % mult != 0) return;
    if (std::int64_t v = ms / mult; v > 0) {
      r += std::to_string(v) + unit;
      ms -= v * mult;
    }
  };
  f("y", 1000LL * 60 * 60 * 24 * 365, true);
  f("w", 1000LL * 60 * 60 * 24 * 7, true);
  f("d", 1000LL * 60 * 60 * 24, false);
  f("h", 1000LL * 60 * 60, false);
  f("m", 1000LL * 60, false);
  f("s", 1000, false);
  f("ms", 1, false);
  return r;
}

namespace {
// How Go prints the values that have no digits.
const char* non_finite(double v) { return std::isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf"; }
}  // namespace

std::string go_format_f(double v) {
  if (!std::isfinite(v)) return non_finite(v);
  char buf[400];
  std::snprintf(buf, sizeof buf, "%f", v);
  return buf;
}

std::string format_number(double v) {
  if (!std::isfinite(v)) return non_finite(v);
  char buf[400];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  return std::string(buf, r.ptr);
}

}  // namespace capstan::promql
