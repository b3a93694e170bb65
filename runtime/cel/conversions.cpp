// Type conversion functions: int(), uint(), double(), string(), bytes(), bool(), duration(),
// timestamp(), type(). Failures are error values with cel-go's wording where it matters.
#include "runtime/cel/functions.h"
#include "runtime/cel/time.h"
#include "runtime/json/utf8.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace capstan::cel {
namespace {

constexpr std::int64_t kNanosPerSecond = 1'000'000'000;

// Go's strconv.FormatFloat(f, 'g', -1, 64): shortest digits, exponent form when exp < -4 || exp >= 21.
std::string format_double(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  auto e = sci.find('e');
  int exp = std::atoi(sci.c_str() + e + 1);
  std::string mant = sci.substr(0, e);
  bool neg = !mant.empty() && mant[0] == '-';
  if (neg) mant.erase(0, 1);
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  int ndigits = static_cast<int>(digits.size());
  std::string out;
  if (exp < -4 || exp >= std::max(ndigits, 21)) {
    out = digits.substr(0, 1);
    if (ndigits > 1) out += "." + digits.substr(1);
    char eb[16];
    std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
    out += eb;
  } else if (exp < 0) {
    out = "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
  } else if (exp + 1 >= ndigits) {
    out = digits + std::string(static_cast<std::size_t>(exp + 1 - ndigits), '0');
  } else {
    out = digits.substr(0, static_cast<std::size_t>(exp + 1)) + "." + digits.substr(static_cast<std::size_t>(exp + 1));
  }
  return neg ? "-" + out : out;
}

}  // namespace

Value no_such_overload(std::string_view) {
  // cel-go's types.NoSuchOverloadErr() text, which kube-apiserver matches on by prefix.
  return Value::error("no such overload");
}

Value to_int(const Value& v) {
  switch (v.kind()) {
    case Kind::Int: return v;
    case Kind::Uint:
      if (v.as_uint() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return Value::error("integer overflow");
      return Value::integer(static_cast<std::int64_t>(v.as_uint()));
    case Kind::Double: {
      double d = v.as_double();
      if (std::isnan(d) || d <= -9.223372036854775808e18 || d >= 9.223372036854775807e18) return Value::error("integer overflow");
      return Value::integer(static_cast<std::int64_t>(d));
    }
    case Kind::String: {
      const auto& s = v.as_string();
      std::int64_t out = 0;
      auto r = std::from_chars(s.data(), s.data() + s.size(), out);
      if (r.ec != std::errc() || r.ptr != s.data() + s.size())
        return Value::error("cannot convert string '" + s + "' to int");
      return Value::integer(out);
    }
    case Kind::Timestamp: {
      std::int64_t n = v.as_timestamp();
      return Value::integer(n >= 0 ? n / kNanosPerSecond : -((-n + kNanosPerSecond - 1) / kNanosPerSecond));
    }
    case Kind::Duration: return Value::integer(v.as_duration());
    default: return no_such_overload("int");
  }
}

Value to_uint(const Value& v) {
  switch (v.kind()) {
    case Kind::Uint: return v;
    case Kind::Int:
      if (v.as_int() < 0) return Value::error("unsigned integer overflow");
      return Value::uinteger(static_cast<std::uint64_t>(v.as_int()));
    case Kind::Double: {
      double d = v.as_double();
      if (std::isnan(d) || d < 0 || d >= 1.8446744073709551615e19) return Value::error("unsigned integer overflow");
      return Value::uinteger(static_cast<std::uint64_t>(d));
    }
    case Kind::String: {
      const auto& s = v.as_string();
      std::uint64_t out = 0;
      auto r = std::from_chars(s.data(), s.data() + s.size(), out);
      if (r.ec != std::errc() || r.ptr != s.data() + s.size())
        return Value::error("cannot convert string '" + s + "' to uint");
      return Value::uinteger(out);
    }
    default: return no_such_overload("uint");
  }
}

Value to_double(const Value& v) {
  switch (v.kind()) {
    case Kind::Double: return v;
    case Kind::Int: return Value::dbl(static_cast<double>(v.as_int()));
    case Kind::Uint: return Value::dbl(static_cast<double>(v.as_uint()));
    case Kind::String: {
      const auto& s = v.as_string();
      if (s.empty()) return Value::error("cannot convert string '' to double");
      char* end = nullptr;
      double d = std::strtod(s.c_str(), &end);
      if (end != s.c_str() + s.size()) return Value::error("cannot convert string '" + s + "' to double");
      return Value::dbl(d);
    }
    default: return no_such_overload("double");
  }
}

Value to_string(const Value& v) {
  switch (v.kind()) {
    case Kind::String: return v;
    case Kind::Int: return Value::string(std::to_string(v.as_int()));
    case Kind::Uint: return Value::string(std::to_string(v.as_uint()));
    case Kind::Double: return Value::string(format_double(v.as_double()));
    case Kind::Bool: return Value::string(v.as_bool() ? "true" : "false");
    case Kind::Bytes:
      if (!json::valid_utf8(v.as_bytes())) return Value::error("invalid UTF-8 in bytes, cannot convert to string");
      return Value::string(v.as_bytes());
    case Kind::Duration: return Value::string(format_duration(v.as_duration()));
    case Kind::Timestamp: return Value::string(format_timestamp(v.as_timestamp()));
    default: return no_such_overload("string");
  }
}

Value to_bytes(const Value& v) {
  if (v.kind() == Kind::Bytes) return v;
  if (v.kind() == Kind::String) return Value::bytes(v.as_string());
  return no_such_overload("bytes");
}

Value to_bool(const Value& v) {
  if (v.kind() == Kind::Bool) return v;
  if (v.kind() != Kind::String) return no_such_overload("bool");
  // Go's strconv.ParseBool.
  const auto& s = v.as_string();
  if (s == "1" || s == "t" || s == "T" || s == "true" || s == "TRUE" || s == "True") return Value::boolean(true);
  if (s == "0" || s == "f" || s == "F" || s == "false" || s == "FALSE" || s == "False") return Value::boolean(false);
  return Value::error("type conversion error from 'string' to 'bool'");
}

Value to_duration(const Value& v) {
  if (v.kind() == Kind::Duration) return v;
  if (v.kind() != Kind::String) return no_such_overload("duration");
  std::string err;
  auto d = parse_duration(v.as_string(), &err);
  if (!d) return Value::error(err);
  return Value::duration(*d);
}

Value to_timestamp(const Value& v) {
  if (v.kind() == Kind::Timestamp) return v;
  if (v.kind() == Kind::Int) {
    std::int64_t s = v.as_int();
    if (s < -62135596800LL || s > 253402300799LL) return Value::error("timestamp overflow");
    return Value::timestamp(s * kNanosPerSecond);
  }
  if (v.kind() != Kind::String) return no_such_overload("timestamp");
  std::string err;
  auto t = parse_timestamp(v.as_string(), &err);
  if (!t) return Value::error(err);
  return Value::timestamp(*t);
}

Value type_of(const Value& v) { return Value::type(std::string(v.type_name())); }

}  // namespace capstan::cel
