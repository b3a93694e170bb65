#include "apis/common/codec.h"

#include "runtime/meta/base64.h"

#include <cctype>
#include <cmath>
#include <limits>

namespace capstan::apis::codec {

std::string child(std::string_view path, std::string_view name) {
  if (path.empty()) return std::string(name);
  std::string s(path);
  s += '.';
  s += name;
  return s;
}

std::string index(std::string_view path, std::size_t i) { return std::string(path) + "[" + std::to_string(i) + "]"; }

void wrong_type(std::string_view path, std::string_view expected, const json::Value& got) {
  throw DecodeError(std::string(path) + ": expected " + std::string(expected) + ", got " + std::string(json::type_name(got)));
}

void Codec<std::string>::decode(const json::Value& v, std::string_view path, std::string& out) {
  if (!v.is_string()) wrong_type(path, "a string", v);
  out = std::string(v.get_string());
}

void Codec<bool>::decode(const json::Value& v, std::string_view path, bool& out) {
  if (!v.is_bool()) wrong_type(path, "a boolean", v);
  out = v.get_bool();
}

void Codec<std::int64_t>::decode(const json::Value& v, std::string_view path, std::int64_t& out) {
  if (v.is_int64()) {
    out = v.get_int64();
    return;
  }
  if (v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    out = static_cast<std::int64_t>(v.get_uint64());
    return;
  }
  if (v.is_double()) {
    const double d = v.get_double();
    if (std::trunc(d) == d && std::abs(d) < 9.2e18) {
      out = static_cast<std::int64_t>(d);
      return;
    }
  }
  wrong_type(path, "an integer", v);
}

void Codec<std::int32_t>::decode(const json::Value& v, std::string_view path, std::int32_t& out) {
  std::int64_t n = 0;
  Codec<std::int64_t>::decode(v, path, n);
  if (n < std::numeric_limits<std::int32_t>::min() || n > std::numeric_limits<std::int32_t>::max())
    throw DecodeError(std::string(path) + ": " + std::to_string(n) + " does not fit in a 32-bit integer");
  out = static_cast<std::int32_t>(n);
}

void Codec<double>::decode(const json::Value& v, std::string_view path, double& out) {
  if (v.is_double()) out = v.get_double();
  else if (v.is_int64()) out = static_cast<double>(v.get_int64());
  else if (v.is_uint64()) out = static_cast<double>(v.get_uint64());
  else wrong_type(path, "a number", v);
  if (!std::isfinite(out)) wrong_type(path, "a finite number", v);
}

void decode_duration(const json::Value& v, std::string_view path, std::chrono::nanoseconds& out) {
  std::string s;
  Codec<std::string>::decode(v, path, s);
  auto d = meta::parse_go_duration(s);
  if (!d) throw DecodeError(std::string(path) + ": " + go_duration_error(s));
  out = *d;
}

void Codec<meta::TimePoint>::decode(const json::Value& v, std::string_view path, meta::TimePoint& out) {
  std::string s;
  Codec<std::string>::decode(v, path, s);
  auto t = meta::parse_rfc3339(s);
  if (!t) throw DecodeError(std::string(path) + ": invalid RFC 3339 time " + go_quote(s));
  out = *t;
}

void Codec<meta::Condition>::decode(const json::Value& v, std::string_view path, meta::Condition& out) {
  const auto& o = detail::as_object(v, path);
  auto read = [&](std::string_view name, auto& member) {
    if (const auto* m = detail::member(o, name)) Codec<std::decay_t<decltype(member)>>::decode(*m, child(path, name), member);
  };
  read("type", out.type);
  read("status", out.status);
  read("reason", out.reason);
  read("message", out.message);
  read("observedGeneration", out.observed_generation);
  read("lastTransitionTime", out.last_transition_time);
}

json::Value Codec<meta::Condition>::encode(const meta::Condition& c) {
  json::Object o;
  o["type"] = c.type;
  o["status"] = c.status;
  if (!c.last_transition_time.empty()) o["lastTransitionTime"] = c.last_transition_time;
  if (!c.reason.empty()) o["reason"] = c.reason;
  if (!c.message.empty()) o["message"] = c.message;
  if (c.observed_generation != 0) o["observedGeneration"] = c.observed_generation;
  return o;
}

void Codec<json::Object>::decode(const json::Value& v, std::string_view path, json::Object& out) {
  out = detail::as_object(v, path);
}

namespace detail {

bool check_schema(std::string_view field, const openapi::Schema& schema, std::string_view expected) {
  const auto& o = schema.json().get_object();
  const auto* type = o.if_contains("type");
  if (!expected.empty() && (!type || !type->is_string() || type->get_string() != expected))
    throw std::logic_error("field " + std::string(field) + ": its schema's type is " +
                           (type ? json::serialize(*type) : std::string("not set")) + ", its member's is " + std::string(expected));
  const auto* format = o.if_contains("format");
  return format && format->is_string() && format->get_string() == "byte";
}

void decode_bytes(const json::Value& v, std::string_view path, std::string& out) {
  std::string text;
  Codec<std::string>::decode(v, path, text);
  auto data = meta::base64_decode(text);
  if (!data) throw DecodeError(std::string(path) + ": illegal base64 data");
  out = std::move(*data);
}

json::Value encode_bytes(const std::string& data) { return json::Value(meta::base64_encode(data)); }

const json::Value* member(const json::Object& o, std::string_view name) {
  const auto* v = o.if_contains(name);
  if (!v || v->is_null()) return nullptr;
  return v;
}

const json::Object& as_object(const json::Value& v, std::string_view path) {
  static const json::Object empty;
  if (v.is_null()) return empty;
  if (!v.is_object()) wrong_type(path, "an object", v);
  return v.get_object();
}

}  // namespace detail

std::string go_quote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

std::string go_duration_error(std::string_view original) {
  if (meta::parse_go_duration(original)) return {};
  const std::string invalid = "time: invalid duration " + go_quote(original);
  std::string_view s = original;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
  if (s.empty()) return invalid;
  auto is_num = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; };
  while (!s.empty()) {
    std::size_t i = 0;
    while (i < s.size() && is_num(s[i])) ++i;
    if (i == 0 || s.substr(0, i) == ".") return invalid;
    s.remove_prefix(i);
    std::size_t j = 0;
    while (j < s.size() && !is_num(s[j])) ++j;
    if (j == 0) return "time: missing unit in duration " + go_quote(original);
    std::string_view unit = s.substr(0, j);
    s.remove_prefix(j);
    if (unit != "ns" && unit != "us" && unit != "\xC2\xB5s" && unit != "\xCE\xBCs" && unit != "ms" && unit != "s" &&
        unit != "m" && unit != "h")
      return "time: unknown unit " + go_quote(unit) + " in duration " + go_quote(original);
  }
  return invalid;  // overflow or a malformed number
}

}  // namespace capstan::apis::codec
