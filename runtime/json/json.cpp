#include "runtime/json/json.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace capstan::json {
namespace {
// Boost.JSON stops at 32 levels by default; CRD schemas (pod templates) nest far deeper.
boost::json::parse_options options() {
  boost::json::parse_options o;
  o.max_depth = 10000;
  return o;
}
}  // namespace

Value parse(std::string_view text, std::string_view what) {
  boost::system::error_code ec;
  Value v = boost::json::parse(text, ec, {}, options());
  if (ec) {
    throw ParseError("parsing " + std::string(what) + ": " + ec.message());
  }
  return v;
}

std::optional<Value> try_parse(std::string_view text, std::string* error) {
  boost::system::error_code ec;
  Value v = boost::json::parse(text, ec, {}, options());
  if (ec) {
    if (error) *error = ec.message();
    return std::nullopt;
  }
  return v;
}

std::string serialize(const Value& v) { return boost::json::serialize(v); }

namespace {
void pretty(std::string& out, const Value& v, int indent) {
  auto pad = [&](int n) { out.append(static_cast<std::size_t>(n) * 2, ' '); };
  switch (v.kind()) {
    case boost::json::kind::object: {
      const auto& o = v.get_object();
      if (o.empty()) {
        out += "{}";
        return;
      }
      out += "{\n";
      bool first = true;
      for (const auto& kv : o) {
        if (!first) out += ",\n";
        first = false;
        pad(indent + 1);
        out += boost::json::serialize(Value(kv.key()));
        out += ": ";
        pretty(out, kv.value(), indent + 1);
      }
      out += "\n";
      pad(indent);
      out += "}";
      return;
    }
    case boost::json::kind::array: {
      const auto& a = v.get_array();
      if (a.empty()) {
        out += "[]";
        return;
      }
      out += "[\n";
      bool first = true;
      for (const auto& e : a) {
        if (!first) out += ",\n";
        first = false;
        pad(indent + 1);
        pretty(out, e, indent + 1);
      }
      out += "\n";
      pad(indent);
      out += "]";
      return;
    }
    default:
      out += boost::json::serialize(v);
  }
}
}  // namespace

std::string serialize_pretty(const Value& v) {
  std::string out;
  pretty(out, v, 0);
  return out;
}

const Value* find(const Value& v, Path path) {
  const Value* cur = &v;
  for (auto key : path) {
    const auto* obj = cur->if_object();
    if (!obj) return nullptr;
    auto it = obj->find(key);
    if (it == obj->end()) return nullptr;
    cur = &it->value();
  }
  return cur;
}

Value* find(Value& v, Path path) { return const_cast<Value*>(find(static_cast<const Value&>(v), path)); }

const Value* find(const Object& o, Path path) {
  if (path.size() == 0) return nullptr;
  auto first = path.begin();
  auto it = o.find(*first);
  if (it == o.end()) return nullptr;
  const Value* cur = &it->value();
  for (auto k = first + 1; k != path.end(); ++k) {
    const auto* obj = cur->if_object();
    if (!obj) return nullptr;
    auto f = obj->find(*k);
    if (f == obj->end()) return nullptr;
    cur = &f->value();
  }
  return cur;
}

namespace {
std::string_view string_of(const Value* f, std::string_view fallback) {
  if (!f || !f->is_string()) return fallback;
  const auto& s = f->get_string();
  return {s.data(), s.size()};
}
std::optional<std::int64_t> int_of(const Value* f) {
  if (!f) return std::nullopt;
  if (f->is_int64()) return f->get_int64();
  if (f->is_uint64()) return static_cast<std::int64_t>(f->get_uint64());
  if (f->is_double()) {
    double d = f->get_double();
    if (d == static_cast<double>(static_cast<std::int64_t>(d))) return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}
}  // namespace

std::string_view get_string(const Object& o, Path path, std::string_view fallback) { return string_of(find(o, path), fallback); }
std::optional<std::int64_t> get_int(const Object& o, Path path) { return int_of(find(o, path)); }
bool get_bool(const Object& o, Path path, bool fallback) {
  const Value* f = find(o, path);
  return f && f->is_bool() ? f->get_bool() : fallback;
}
const Object* get_object(const Object& o, Path path) {
  const Value* f = find(o, path);
  return f ? f->if_object() : nullptr;
}
const Array* get_array(const Object& o, Path path) {
  const Value* f = find(o, path);
  return f ? f->if_array() : nullptr;
}

std::string_view get_string(const Value& v, Path path, std::string_view fallback) { return string_of(find(v, path), fallback); }

std::optional<std::int64_t> get_int(const Value& v, Path path) { return int_of(find(v, path)); }

bool get_bool(const Value& v, Path path, bool fallback) {
  const Value* f = find(v, path);
  if (!f || !f->is_bool()) return fallback;
  return f->get_bool();
}

const Object* get_object(const Value& v, Path path) {
  const Value* f = find(v, path);
  return f ? f->if_object() : nullptr;
}

const Array* get_array(const Value& v, Path path) {
  const Value* f = find(v, path);
  return f ? f->if_array() : nullptr;
}

Object& ensure_object(Value& v, Path path) {
  Value* cur = &v;
  if (!cur->is_object()) *cur = Object{};
  for (auto key : path) {
    auto& obj = cur->get_object();
    Value& next = obj[key];
    if (!next.is_object()) next = Object{};
    cur = &next;
  }
  return cur->get_object();
}

bool erase(Value& v, Path path) {
  if (path.size() == 0) return false;
  Value* cur = &v;
  auto last = path.end() - 1;
  for (auto it = path.begin(); it != last; ++it) {
    auto* obj = cur->if_object();
    if (!obj) return false;
    auto f = obj->find(*it);
    if (f == obj->end()) return false;
    cur = &f->value();
  }
  auto* obj = cur->if_object();
  return obj && obj->erase(*last) > 0;
}

std::string pointer_escape(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string pointer_unescape(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size()) {
      if (token[i + 1] == '0') { out += '~'; ++i; continue; }
      if (token[i + 1] == '1') { out += '/'; ++i; continue; }
    }
    out += token[i];
  }
  return out;
}

std::optional<double> as_number(const Value& v) {
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64());
  if (v.is_double()) return v.get_double();
  return std::nullopt;
}

std::string_view type_name(const Value& v) {
  switch (v.kind()) {
    case boost::json::kind::null: return "null";
    case boost::json::kind::bool_: return "boolean";
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
    case boost::json::kind::double_: return "number";
    case boost::json::kind::string: return "string";
    case boost::json::kind::array: return "array";
    case boost::json::kind::object: return "object";
  }
  return "unknown";
}

std::string_view go_type_name(const Value& v) { return v.is_bool() ? "bool" : type_name(v); }

}  // namespace capstan::json
