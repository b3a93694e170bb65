#include "apis/certs/v1/codec.h"

#include "runtime/meta/base64.h"

#include <cctype>
#include <cmath>
#include <limits>

namespace capstan::apis::certs::v1::codec {
namespace {

[[noreturn]] void wrong_type(std::string_view path, std::string_view expected, const json::Value& got) {
  throw DecodeError(std::string(path) + ": expected " + std::string(expected) + ", got " + std::string(json::type_name(got)));
}

}  // namespace

std::string child(std::string_view path, std::string_view name) {
  if (path.empty()) return std::string(name);
  std::string s(path);
  s += '.';
  s += name;
  return s;
}

std::string index(std::string_view path, std::size_t i) { return std::string(path) + "[" + std::to_string(i) + "]"; }

const json::Object& as_object(const json::Value& v, std::string_view path) {
  static const json::Object empty;
  if (v.is_null()) return empty;
  if (!v.is_object()) wrong_type(path, "an object", v);
  return v.get_object();
}

const json::Value* member(const json::Object& o, std::string_view key) {
  auto* v = o.if_contains(key);
  if (!v || v->is_null()) return nullptr;
  return v;
}

std::string read_string(const json::Object& o, std::string_view key, std::string_view path) {
  return read_optional_string(o, key, path).value_or(std::string());
}

std::optional<std::string> read_optional_string(const json::Object& o, std::string_view key, std::string_view path) {
  const auto* v = member(o, key);
  if (!v) return std::nullopt;
  if (!v->is_string()) wrong_type(child(path, key), "a string", *v);
  return std::string(v->get_string());
}

std::vector<std::string> read_strings(const json::Object& o, std::string_view key, std::string_view path) {
  std::vector<std::string> out;
  const auto* v = member(o, key);
  if (!v) return out;
  std::string p = child(path, key);
  if (!v->is_array()) wrong_type(p, "an array of strings", *v);
  const auto& a = v->get_array();
  out.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_string()) wrong_type(index(p, i), "a string", a[i]);
    out.emplace_back(a[i].get_string());
  }
  return out;
}

StringMap read_string_map(const json::Object& o, std::string_view key, std::string_view path) {
  StringMap out;
  const auto* v = member(o, key);
  if (!v) return out;
  std::string p = child(path, key);
  if (!v->is_object()) wrong_type(p, "an object of strings", *v);
  for (const auto& kv : v->get_object()) {
    if (!kv.value().is_string()) wrong_type(p + "[" + std::string(kv.key()) + "]", "a string", kv.value());
    out.emplace(std::string(kv.key()), std::string(kv.value().get_string()));
  }
  return out;
}

bool read_bool(const json::Object& o, std::string_view key, std::string_view path) {
  return read_optional_bool(o, key, path).value_or(false);
}

std::optional<bool> read_optional_bool(const json::Object& o, std::string_view key, std::string_view path) {
  const auto* v = member(o, key);
  if (!v) return std::nullopt;
  if (!v->is_bool()) wrong_type(child(path, key), "a boolean", *v);
  return v->get_bool();
}

std::optional<std::int64_t> read_int(const json::Object& o, std::string_view key, std::string_view path) {
  const auto* v = member(o, key);
  if (!v) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64() && v->get_uint64() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return static_cast<std::int64_t>(v->get_uint64());
  if (v->is_double()) {
    double d = v->get_double();
    if (std::trunc(d) == d && std::abs(d) < 9.2e18) return static_cast<std::int64_t>(d);
  }
  wrong_type(child(path, key), "an integer", *v);
}

std::optional<std::int32_t> read_int32(const json::Object& o, std::string_view key, std::string_view path) {
  auto v = read_int(o, key, path);
  if (!v) return std::nullopt;
  if (*v < std::numeric_limits<std::int32_t>::min() || *v > std::numeric_limits<std::int32_t>::max())
    throw DecodeError(child(path, key) + ": " + std::to_string(*v) + " does not fit in a 32-bit integer");
  return static_cast<std::int32_t>(*v);
}

std::optional<std::chrono::nanoseconds> read_duration(const json::Object& o, std::string_view key, std::string_view path) {
  auto s = read_optional_string(o, key, path);
  if (!s) return std::nullopt;
  auto d = meta::parse_go_duration(*s);
  if (!d) throw DecodeError(child(path, key) + ": " + go_duration_error(*s));
  return d;
}

std::optional<meta::TimePoint> read_time(const json::Object& o, std::string_view key, std::string_view path) {
  auto s = read_optional_string(o, key, path);
  if (!s) return std::nullopt;
  auto t = meta::parse_rfc3339(*s);
  if (!t) throw DecodeError(child(path, key) + ": invalid RFC 3339 time " + go_quote(*s));
  return t;
}

std::string read_bytes(const json::Object& o, std::string_view key, std::string_view path) {
  auto s = read_optional_string(o, key, path);
  if (!s) return {};
  auto data = meta::base64_decode(*s);
  if (!data) throw DecodeError(child(path, key) + ": illegal base64 data");
  return *data;
}

const json::Object* read_object(const json::Object& o, std::string_view key, std::string_view path) {
  const auto* v = member(o, key);
  if (!v) return nullptr;
  if (!v->is_object()) wrong_type(child(path, key), "an object", *v);
  return &v->get_object();
}

std::optional<json::Value> read_raw(const json::Object& o, std::string_view key) {
  const auto* v = member(o, key);
  if (!v) return std::nullopt;
  return *v;
}

void put_string(json::Object& o, std::string_view key, const std::string& s) {
  if (!s.empty()) o[key] = s;
}

void put_strings(json::Object& o, std::string_view key, const std::vector<std::string>& v) {
  if (v.empty()) return;
  json::Array a;
  a.reserve(v.size());
  for (const auto& s : v) a.emplace_back(s);
  o[key] = std::move(a);
}

void put_string_map(json::Object& o, std::string_view key, const StringMap& m) {
  if (m.empty()) return;
  json::Object out;
  for (const auto& [k, v] : m) out[k] = v;
  o[key] = std::move(out);
}

void put_true(json::Object& o, std::string_view key, bool b) {
  if (b) o[key] = true;
}

void put_duration(json::Object& o, std::string_view key, const std::optional<std::chrono::nanoseconds>& d) {
  if (d) o[key] = meta::format_go_duration(*d);
}

void put_time(json::Object& o, std::string_view key, const std::optional<meta::TimePoint>& t) {
  if (t) o[key] = meta::format_rfc3339(*t);
}

void put_bytes(json::Object& o, std::string_view key, const std::string& data) {
  if (!data.empty()) o[key] = meta::base64_encode(data);
}

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
  const auto quote = go_quote;
  const std::string invalid = "time: invalid duration " + quote(original);
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
    if (j == 0) return "time: missing unit in duration " + quote(original);
    std::string_view unit = s.substr(0, j);
    s.remove_prefix(j);
    if (unit != "ns" && unit != "us" && unit != "\xC2\xB5s" && unit != "\xCE\xBCs" && unit != "ms" && unit != "s" &&
        unit != "m" && unit != "h")
      return "time: unknown unit " + quote(unit) + " in duration " + quote(original);
  }
  return invalid;  // overflow or a malformed number
}

}  // namespace capstan::apis::certs::v1::codec
