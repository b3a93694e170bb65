#include "apiserver/table/go_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace capstan::apiserver::table {
namespace {

// Shortest round-trip decimal digits of |d| and the exponent of the first digit
// (d = 0.d1d2d3... * 10^(exp+1)), as strconv's shortest mode computes them.
struct Digits {
  bool negative = false;
  std::string digits;  // no leading zeros, at least one digit
  int exp = 0;
};

Digits shortest_digits(double d) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string_view s(buf, static_cast<std::size_t>(res.ptr - buf));
  Digits out;
  if (!s.empty() && s[0] == '-') {
    out.negative = true;
    s.remove_prefix(1);
  }
  auto e = s.find('e');
  std::string_view mant = s.substr(0, e);
  for (char c : mant)
    if (c != '.') out.digits += c;
  out.exp = std::atoi(std::string(s.substr(e + 1)).c_str());
  // to_chars never emits trailing zeros in shortest mode except for the single digit "0".
  return out;
}

std::string exponent_suffix(int exp, bool at_least_two_digits) {
  std::string out = "e";
  out += exp < 0 ? '-' : '+';
  int a = std::abs(exp);
  std::string num = std::to_string(a);
  if (at_least_two_digits && num.size() < 2) num = "0" + num;
  return out + num;
}

std::string format_e(const Digits& g, bool two_digit_exp) {
  std::string out = g.negative ? "-" : "";
  out += g.digits[0];
  if (g.digits.size() > 1) {
    out += '.';
    out.append(g.digits, 1, std::string::npos);
  }
  return out + exponent_suffix(g.exp, two_digit_exp);
}

std::string format_f(const Digits& g) {
  std::string out = g.negative ? "-" : "";
  const int nd = static_cast<int>(g.digits.size());
  if (g.exp >= 0) {
    int int_digits = g.exp + 1;
    if (nd <= int_digits) {
      out += g.digits;
      out.append(static_cast<std::size_t>(int_digits - nd), '0');
    } else {
      out.append(g.digits, 0, static_cast<std::size_t>(int_digits));
      out += '.';
      out.append(g.digits, static_cast<std::size_t>(int_digits), std::string::npos);
    }
  } else {
    out += "0.";
    out.append(static_cast<std::size_t>(-g.exp - 1), '0');
    out += g.digits;
  }
  return out;
}

std::string special_float(double d) {
  if (std::isnan(d)) return "NaN";
  return d > 0 ? "+Inf" : "-Inf";
}

void marshal_string(std::string& out, std::string_view s) {
  static const char* hex = "0123456789abcdef";
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '<':
        case '>':
        case '&':
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 0xF];
          break;
        default:
          if (c < 0x20) {
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 0xF];
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    // Multi-byte UTF-8: validate, pass through, escape U+2028/U+2029, replace invalid bytes.
    int len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = len > 0 && i + static_cast<std::size_t>(len) <= s.size();
    char32_t cp = 0;
    if (ok) {
      cp = len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
      for (int k = 1; k < len; ++k) {
        unsigned char cc = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
        if ((cc >> 6) != 0x2) {
          ok = false;
          break;
        }
        cp = (cp << 6) | (cc & 0x3F);
      }
    }
    if (ok) {
      static constexpr char32_t min_for_len[] = {0, 0, 0x80, 0x800, 0x10000};
      if (cp < min_for_len[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) ok = false;
    }
    if (!ok) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    if (cp == 0x2028 || cp == 0x2029) {
      out += cp == 0x2028 ? "\\u2028" : "\\u2029";
    } else {
      out.append(s, i, static_cast<std::size_t>(len));
    }
    i += static_cast<std::size_t>(len);
  }
  out += '"';
}

std::string json_float(double d) {
  if (!std::isfinite(d)) return special_float(d);  // json.Marshal would fail; never in JSON input
  if (d == 0) return std::signbit(d) ? "-0" : "0";
  Digits g = shortest_digits(d);
  double a = std::fabs(d);
  if (a < 1e-6 || a >= 1e21) {
    std::string out = format_e(g, true);
    // Go cleans up "e-09" to "e-9" (negative exponents only).
    auto n = out.size();
    if (n >= 4 && out[n - 4] == 'e' && out[n - 3] == '-' && out[n - 2] == '0') out.erase(n - 2, 1);
    return out;
  }
  return format_f(g);
}

void marshal(std::string& out, const json::Value& v) {
  switch (v.kind()) {
    case boost::json::kind::null: out += "null"; return;
    case boost::json::kind::bool_: out += v.get_bool() ? "true" : "false"; return;
    case boost::json::kind::int64: out += std::to_string(v.get_int64()); return;
    case boost::json::kind::uint64: out += std::to_string(v.get_uint64()); return;
    case boost::json::kind::double_: out += json_float(v.get_double()); return;
    case boost::json::kind::string: marshal_string(out, v.get_string()); return;
    case boost::json::kind::array: {
      out += '[';
      bool first = true;
      for (const auto& e : v.get_array()) {
        if (!first) out += ',';
        first = false;
        marshal(out, e);
      }
      out += ']';
      return;
    }
    case boost::json::kind::object: {
      const auto& o = v.get_object();
      std::vector<const boost::json::key_value_pair*> members;
      members.reserve(o.size());
      for (const auto& kv : o) members.push_back(&kv);
      std::sort(members.begin(), members.end(),
                [](auto* a, auto* b) { return std::string_view(a->key()) < std::string_view(b->key()); });
      out += '{';
      bool first = true;
      for (const auto* kv : members) {
        if (!first) out += ',';
        first = false;
        marshal_string(out, kv->key());
        out += ':';
        marshal(out, kv->value());
      }
      out += '}';
      return;
    }
  }
}

}  // namespace

std::string go_format_float(double d) {
  if (!std::isfinite(d)) return special_float(d);
  if (d == 0) return std::signbit(d) ? "-0" : "0";
  Digits g = shortest_digits(d);
  if (g.exp < -4 || g.exp >= 6) return format_e(g, true);
  return format_f(g);
}

std::string go_json_marshal(const json::Value& v) {
  std::string out;
  marshal(out, v);
  return out;
}

std::string go_print_value(const json::Value& v) {
  switch (v.kind()) {
    case boost::json::kind::null: return "<nil>";
    case boost::json::kind::bool_: return v.get_bool() ? "true" : "false";
    case boost::json::kind::int64: return std::to_string(v.get_int64());
    case boost::json::kind::uint64: return std::to_string(v.get_uint64());
    case boost::json::kind::double_: return go_format_float(v.get_double());
    case boost::json::kind::string: return std::string(v.get_string());
    case boost::json::kind::array:
    case boost::json::kind::object: return go_json_marshal(v);
  }
  return {};
}

}  // namespace capstan::apiserver::table
