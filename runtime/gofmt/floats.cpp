// Go's float64 renderings: strconv's shortest 'g' (fmt's %v) and encoding/json's number form.
#include "runtime/gofmt/detail.h"
#include "runtime/gofmt/gofmt.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace capstan::gofmt {
namespace {

// The shortest decimal digits that round-trip, as strconv's shortest mode finds them.
struct Decimal {
  bool negative = false;
  std::string digits;  // no leading or trailing zeros; "0" for zero
  int exp = 0;         // exponent of the first digit: |v| = d.ddd * 10^exp
};

Decimal shortest(double v) {
  Decimal d;
  d.negative = std::signbit(v);
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  std::string_view s(buf, static_cast<std::size_t>(res.ptr - buf));
  auto e = s.find('e');
  for (char c : s.substr(0, e))
    if (c != '.') d.digits += c;
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
  d.exp = std::atoi(std::string(s.substr(e + 1)).c_str());
  return d;
}

// %e with the shortest digits; the exponent has at least two digits, as in Go.
std::string exponent_form(const Decimal& d) {
  std::string out = d.negative ? "-" : "";
  out += d.digits[0];
  if (d.digits.size() > 1) {
    out += '.';
    out.append(d.digits, 1, std::string::npos);
  }
  out += d.exp < 0 ? "e-" : "e+";
  int a = std::abs(d.exp);
  if (a < 10) out += '0';
  return out + std::to_string(a);
}

// %f with exactly the shortest digits.
std::string fixed_form(const Decimal& d) {
  std::string out = d.negative ? "-" : "";
  const int n = static_cast<int>(d.digits.size());
  const int point = d.exp + 1;  // digits before the decimal point
  if (point <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-point), '0');
    out += d.digits;
  } else if (point >= n) {
    out += d.digits;
    out.append(static_cast<std::size_t>(point - n), '0');
  } else {
    out.append(d.digits, 0, static_cast<std::size_t>(point));
    out += '.';
    out.append(d.digits, static_cast<std::size_t>(point), std::string::npos);
  }
  return out;
}

std::string non_finite(double v) {
  if (std::isnan(v)) return "NaN";
  return v > 0 ? "+Inf" : "-Inf";
}

}  // namespace

std::string format_float(double v) {
  if (!std::isfinite(v)) return non_finite(v);
  Decimal d = shortest(v);
  // 'g' with the shortest precision decides as if the precision were 6.
  if (d.exp < -4 || d.exp >= 6) return exponent_form(d);
  return fixed_form(d);
}

double as_float(const json::Value& v) {
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64());
  if (v.is_double()) return v.get_double();
  return 0;
}

namespace detail {

void append_json_float(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += non_finite(v);  // json.Marshal fails with UnsupportedValueError; keep something readable
    return;
  }
  Decimal d = shortest(v);
  double a = std::fabs(v);
  if (a == 0 || (a >= 1e-6 && a < 1e21)) {
    out += fixed_form(d);
    return;
  }
  std::string e = exponent_form(d);
  // encoding/json cleans up e-09 to e-9 (positive exponents here are >= 21 anyway).
  auto n = e.size();
  if (n >= 4 && e[n - 4] == 'e' && e[n - 3] == '-' && e[n - 2] == '0') e.erase(n - 2, 1);
  out += e;
}

}  // namespace detail
}  // namespace capstan::gofmt
