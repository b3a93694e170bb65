#include "apiserver/patch/go_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace capstan::apiserver::patch {

namespace {

// Shortest round-trip decimal digits of |d| and the decimal exponent of the first digit.
void shortest_digits(double d, std::string& digits, int& exp10) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, std::fabs(d), std::chars_format::scientific);
  std::string s(buf, res.ptr);
  auto e = s.find('e');
  std::string mant = s.substr(0, e);
  exp10 = std::atoi(s.c_str() + e + 1);
  digits.clear();
  for (char c : mant) {
    if (c != '.') digits += c;
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
}

std::string exponent_suffix(int exp10, int min_digits) {
  std::string out = exp10 < 0 ? "e-" : "e+";
  std::string n = std::to_string(std::abs(exp10));
  while (static_cast<int>(n.size()) < min_digits) n = "0" + n;
  return out + n;
}

std::string fixed_from_digits(const std::string& digits, int exp10) {
  std::string out;
  int nd = static_cast<int>(digits.size());
  int point = exp10 + 1;  // digits before the decimal point
  if (point <= 0) {
    out = "0." + std::string(static_cast<std::size_t>(-point), '0') + digits;
  } else if (point >= nd) {
    out = digits + std::string(static_cast<std::size_t>(point - nd), '0');
  } else {
    out = digits.substr(0, static_cast<std::size_t>(point)) + "." + digits.substr(static_cast<std::size_t>(point));
  }
  return out;
}

std::string scientific_from_digits(const std::string& digits, int exp10, int min_exp_digits) {
  std::string out(1, digits[0]);
  if (digits.size() > 1) out += "." + digits.substr(1);
  return out + exponent_suffix(exp10, min_exp_digits);
}

void append_go_json_string(std::string& out, std::string_view s) {
  static const char* hex = "0123456789abcdef";
  out += '"';
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '<': case '>': case '&':
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 0xf];
        continue;
      default: break;
    }
    if (c < 0x20) {
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 0xf];
      continue;
    }
    // U+2028 and U+2029 (E2 80 A8 / E2 80 A9) are escaped for JSONP safety.
    if (c == 0xE2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(s[i + 2]) == 0xA8 || static_cast<unsigned char>(s[i + 2]) == 0xA9)) {
      out += static_cast<unsigned char>(s[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
      i += 2;
      continue;
    }
    out += static_cast<char>(c);
  }
  out += '"';
}

std::string go_json_float(double d) {
  if (d == 0) return "0";
  std::string digits;
  int exp10 = 0;
  shortest_digits(d, digits, exp10);
  double a = std::fabs(d);
  std::string body = (a < 1e-6 || a >= 1e21) ? scientific_from_digits(digits, exp10, 1) : fixed_from_digits(digits, exp10);
  return d < 0 ? "-" + body : body;
}

void append_go_json(std::string& out, const json::Value& v) {
  switch (v.kind()) {
    case boost::json::kind::object: {
      const auto& o = v.get_object();
      std::vector<std::string_view> keys;
      keys.reserve(o.size());
      for (const auto& kv : o) keys.emplace_back(kv.key().data(), kv.key().size());
      std::sort(keys.begin(), keys.end());
      out += '{';
      bool first = true;
      for (auto k : keys) {
        if (!first) out += ',';
        first = false;
        append_go_json_string(out, k);
        out += ':';
        append_go_json(out, o.at(k));
      }
      out += '}';
      return;
    }
    case boost::json::kind::array: {
      out += '[';
      bool first = true;
      for (const auto& e : v.get_array()) {
        if (!first) out += ',';
        first = false;
        append_go_json(out, e);
      }
      out += ']';
      return;
    }
    case boost::json::kind::string: append_go_json_string(out, v.get_string()); return;
    case boost::json::kind::int64: out += std::to_string(v.get_int64()); return;
    case boost::json::kind::uint64: out += std::to_string(v.get_uint64()); return;
    case boost::json::kind::double_: out += go_json_float(v.get_double()); return;
    case boost::json::kind::bool_: out += v.get_bool() ? "true" : "false"; return;
    case boost::json::kind::null: out += "null"; return;
  }
}

void append_go_sprint(std::string& out, const json::Value& v) {
  switch (v.kind()) {
    case boost::json::kind::object: {
      const auto& o = v.get_object();
      std::vector<std::string_view> keys;
      for (const auto& kv : o) keys.emplace_back(kv.key().data(), kv.key().size());
      std::sort(keys.begin(), keys.end());
      out += "map[";
      bool first = true;
      for (auto k : keys) {
        if (!first) out += ' ';
        first = false;
        out += k;
        out += ':';
        append_go_sprint(out, o.at(k));
      }
      out += ']';
      return;
    }
    case boost::json::kind::array: {
      out += '[';
      bool first = true;
      for (const auto& e : v.get_array()) {
        if (!first) out += ' ';
        first = false;
        append_go_sprint(out, e);
      }
      out += ']';
      return;
    }
    case boost::json::kind::string: out += std::string_view(v.get_string()); return;
    case boost::json::kind::int64: out += go_format_float(static_cast<double>(v.get_int64())); return;
    case boost::json::kind::uint64: out += go_format_float(static_cast<double>(v.get_uint64())); return;
    case boost::json::kind::double_: out += go_format_float(v.get_double()); return;
    case boost::json::kind::bool_: out += v.get_bool() ? "true" : "false"; return;
    case boost::json::kind::null: out += "<nil>"; return;
  }
}

}  // namespace

std::string go_format_float(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  if (d == 0) return std::signbit(d) ? "-0" : "0";
  std::string digits;
  int exp10 = 0;
  shortest_digits(d, digits, exp10);
  std::string body = (exp10 < -4 || exp10 >= 6)  // %v is 'g' with the shortest digits: exponent form from 1e+06
                         ? scientific_from_digits(digits, exp10, 2)
                         : fixed_from_digits(digits, exp10);
  return d < 0 ? "-" + body : body;
}

std::string go_sprint(const json::Value& v) {
  std::string out;
  append_go_sprint(out, v);
  return out;
}

std::string go_quote(std::string_view s) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\v': out += "\\v"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += "\\x";
          out += hex[c >> 4];
          out += hex[c & 0xf];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

std::string go_type_name(const json::Value& v) {
  switch (v.kind()) {
    case boost::json::kind::object: return "map[string]interface {}";
    case boost::json::kind::array: return "[]interface {}";
    case boost::json::kind::string: return "string";
    case boost::json::kind::bool_: return "bool";
    case boost::json::kind::null: return "<nil>";
    default: return "float64";
  }
}

std::string go_json(const json::Value& v) {
  std::string out;
  append_go_json(out, v);
  return out;
}

}  // namespace capstan::apiserver::patch
