#include "apiserver/schema/gofmt.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace capstan::apiserver::schema::gofmt {
namespace {

// Decodes one UTF-8 sequence at s[i]; returns the code point and advances i, or -1 (and advances
// by one byte) for an invalid sequence, like Go's utf8.DecodeRuneInString returning RuneError/1.
long decode_rune(std::string_view s, std::size_t& i) {
  auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  int len = 0;
  long cp = 0;
  long min = 0;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2;
    cp = b0 & 0x1F;
    min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3;
    cp = b0 & 0x0F;
    min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4;
    cp = b0 & 0x07;
    min = 0x10000;
  } else {
    ++i;
    return -1;
  }
  if (i + static_cast<std::size_t>(len) > s.size()) {
    ++i;
    return -1;
  }
  for (int k = 1; k < len; ++k) {
    auto b = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
    if ((b & 0xC0) != 0x80) {
      ++i;
      return -1;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return -1;
  }
  i += static_cast<std::size_t>(len);
  return cp;
}

// Approximates unicode.IsPrint for non-ASCII code points: C1 controls, line/paragraph
// separators, BOM and noncharacters are not printable; everything else is.
bool is_print(long cp) {
  if (cp < 0x20 || cp == 0x7F) return false;
  if (cp >= 0x80 && cp < 0xA0) return false;
  if (cp == 0xAD) return false;  // soft hyphen (Cf)
  if (cp == 0x2028 || cp == 0x2029) return false;
  if (cp >= 0x200B && cp <= 0x200F) return false;
  if (cp >= 0x202A && cp <= 0x202E) return false;
  if (cp >= 0x2060 && cp <= 0x206F) return false;
  if (cp == 0xFEFF) return false;
  if (cp >= 0xFFF9 && cp <= 0xFFFB) return false;
  if ((cp & 0xFFFE) == 0xFFFE) return false;
  if (cp >= 0xE000 && cp <= 0xF8FF) return false;  // private use
  return true;
}

void append_hex(std::string& out, unsigned long v, int digits) {
  static const char* hex = "0123456789abcdef";
  for (int d = digits - 1; d >= 0; --d) out += hex[(v >> (4 * d)) & 0xF];
}

struct Digits {
  std::string d;  // significant digits, no leading zeros (except "0" for zero)
  int dp = 0;     // decimal point position: value = 0.d * 10^dp
  bool neg = false;
};

// Shortest round-trip decimal digits of v (finite, non-zero handled by caller too).
Digits shortest(double v) {
  Digits r;
  r.neg = std::signbit(v);
  double a = std::fabs(v);
  if (a == 0) {
    r.d = "0";
    r.dp = 1;
    return r;
  }
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, a, std::chars_format::scientific);
  std::string s(buf, res.ptr);
  auto e = s.find('e');
  std::string mant = s.substr(0, e);
  int exp = std::stoi(s.substr(e + 1));
  mant.erase(std::remove(mant.begin(), mant.end(), '.'), mant.end());
  while (mant.size() > 1 && mant.back() == '0') mant.pop_back();
  r.d = mant;
  r.dp = exp + 1;
  return r;
}

std::string fmt_e(const Digits& dg) {
  std::string out;
  if (dg.neg) out += '-';
  out += dg.d[0];
  if (dg.d.size() > 1) {
    out += '.';
    out += dg.d.substr(1);
  }
  out += 'e';
  int exp = dg.d == "0" ? 0 : dg.dp - 1;
  out += exp < 0 ? '-' : '+';
  int ae = std::abs(exp);
  if (ae < 10) out += '0';
  out += std::to_string(ae);
  return out;
}

std::string fmt_f(const Digits& dg) {
  std::string out;
  if (dg.neg) out += '-';
  if (dg.dp <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-dg.dp), '0');
    out += dg.d;
    return out;
  }
  auto n = static_cast<int>(dg.d.size());
  if (dg.dp >= n) {
    out += dg.d;
    out.append(static_cast<std::size_t>(dg.dp - n), '0');
    return out;
  }
  out += dg.d.substr(0, static_cast<std::size_t>(dg.dp));
  out += '.';
  out += dg.d.substr(static_cast<std::size_t>(dg.dp));
  return out;
}

bool non_finite(double v, std::string& out, bool json) {
  if (std::isnan(v)) {
    out = "NaN";
    return true;
  }
  if (std::isinf(v)) {
    out = v > 0 ? (json ? "Inf" : "+Inf") : "-Inf";
    return true;
  }
  return false;
}

void json_string(std::string& out, std::string_view s) {
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t start = i;
    long cp = decode_rune(s, i);
    if (cp < 0) {
      out += "\\ufffd";
      continue;
    }
    switch (cp) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '<': out += "\\u003c"; continue;
      case '>': out += "\\u003e"; continue;
      case '&': out += "\\u0026"; continue;
      default: break;
    }
    if (cp < 0x20) {
      out += "\\u00";
      append_hex(out, static_cast<unsigned long>(cp), 2);
    } else if (cp == 0x2028 || cp == 0x2029) {
      out += "\\u";
      append_hex(out, static_cast<unsigned long>(cp), 4);
    } else {
      out.append(s.substr(start, i - start));
    }
  }
  out += '"';
}

std::vector<const json::Object::value_type*> sorted_members(const json::Object& o) {
  std::vector<const json::Object::value_type*> v;
  v.reserve(o.size());
  for (const auto& kv : o) v.push_back(&kv);
  std::sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->key() < b->key(); });
  return v;
}

void marshal(std::string& out, const json::Value& v) {
  switch (v.kind()) {
    case boost::json::kind::null: out += "null"; return;
    case boost::json::kind::bool_: out += v.get_bool() ? "true" : "false"; return;
    case boost::json::kind::int64: out += std::to_string(v.get_int64()); return;
    case boost::json::kind::uint64:
    case boost::json::kind::double_: {
      double f = as_float(v);
      std::string s;
      if (non_finite(f, s, true)) {
        out += s;  // Go would fail to marshal; keep something readable
        return;
      }
      Digits dg = shortest(f);
      double a = std::fabs(f);
      if (a != 0 && (a < 1e-6 || a >= 1e21)) {
        std::string e = fmt_e(dg);
        // encoding/json cleans e-09 to e-9.
        auto n = e.size();
        if (n >= 4 && e[n - 4] == 'e' && e[n - 3] == '-' && e[n - 2] == '0') e.erase(n - 2, 1);
        out += e;
      } else {
        out += fmt_f(dg);
      }
      return;
    }
    case boost::json::kind::string: json_string(out, v.get_string()); return;
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
      out += '{';
      bool first = true;
      for (const auto* kv : sorted_members(v.get_object())) {
        if (!first) out += ',';
        first = false;
        json_string(out, kv->key());
        out += ':';
        marshal(out, kv->value());
      }
      out += '}';
      return;
    }
  }
}

void sharp(std::string& out, const json::Value& v, bool nested) {
  switch (v.kind()) {
    case boost::json::kind::null: out += nested ? "interface {}(nil)" : "<nil>"; return;
    case boost::json::kind::bool_: out += v.get_bool() ? "true" : "false"; return;
    case boost::json::kind::int64: out += std::to_string(v.get_int64()); return;
    case boost::json::kind::uint64:
    case boost::json::kind::double_: out += format_float(as_float(v)); return;
    case boost::json::kind::string: out += quote(v.get_string()); return;
    case boost::json::kind::array: {
      out += "[]interface {}{";
      bool first = true;
      for (const auto& e : v.get_array()) {
        if (!first) out += ", ";
        first = false;
        sharp(out, e, true);
      }
      out += '}';
      return;
    }
    case boost::json::kind::object: {
      out += "map[string]interface {}{";
      bool first = true;
      for (const auto* kv : sorted_members(v.get_object())) {
        if (!first) out += ", ";
        first = false;
        out += quote(kv->key());
        out += ':';
        sharp(out, kv->value(), true);
      }
      out += '}';
      return;
    }
  }
}

}  // namespace

bool is_go_int(const json::Value& v) { return v.is_int64(); }

double as_float(const json::Value& v) {
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64());
  if (v.is_double()) return v.get_double();
  return 0;
}

std::string quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t start = i;
    long cp = decode_rune(s, i);
    if (cp < 0) {
      out += "\\x";
      append_hex(out, static_cast<unsigned char>(s[start]), 2);
      continue;
    }
    switch (cp) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\a': out += "\\a"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\v': out += "\\v"; continue;
      default: break;
    }
    if (is_print(cp)) {
      out.append(s.substr(start, i - start));
    } else if (cp < 0x80) {
      out += "\\x";
      append_hex(out, static_cast<unsigned long>(cp), 2);
    } else if (cp < 0x10000) {
      out += "\\u";
      append_hex(out, static_cast<unsigned long>(cp), 4);
    } else {
      out += "\\U";
      append_hex(out, static_cast<unsigned long>(cp), 8);
    }
  }
  out += '"';
  return out;
}

std::string format_float(double v) {
  std::string s;
  if (non_finite(v, s, false)) return s;
  Digits dg = shortest(v);
  int exp = dg.d == "0" ? 0 : dg.dp - 1;
  if (exp < -4 || exp >= 6) {
    return fmt_e(dg);
  }
  return fmt_f(dg);
}

std::string format_v(const json::Value& v) {
  switch (v.kind()) {
    case boost::json::kind::null: return "<nil>";
    case boost::json::kind::bool_: return v.get_bool() ? "true" : "false";
    case boost::json::kind::int64: return std::to_string(v.get_int64());
    case boost::json::kind::uint64:
    case boost::json::kind::double_: return format_float(as_float(v));
    case boost::json::kind::string: return std::string(v.get_string());
    default: return sharp_v(v);
  }
}

std::string sharp_v(const json::Value& v) {
  std::string out;
  sharp(out, v, false);
  return out;
}

std::string json_marshal(const json::Value& v) {
  std::string out;
  marshal(out, v);
  return out;
}

}  // namespace capstan::apiserver::schema::gofmt
