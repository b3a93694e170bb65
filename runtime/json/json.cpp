#include "runtime/json/json.h"

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_stack.hpp>

#include <charconv>
#include <cmath>
#include <limits>

namespace capstan::json {
namespace {

// Boost.JSON's own parser (json::parser) with two differences in how numbers become doubles,
// both found by fuzzing (runtime/json/fuzz/json_fuzz.cpp):
//  - Boost 1.81 rounds some long numbers (more than 17 significant digits) to a neighbour of
//    the nearest double, so a value changed when serialised and read again. Doubles are read
//    again from their text with std::from_chars, which rounds correctly (as Go's
//    strconv.ParseFloat, hence kube-apiserver, does).
//  - A number beyond the double range (1e400) became infinity, which serialises as
//    `Infinity`: not JSON. One such object in a store or a watch stream broke every reader
//    after it. It is refused, as Go's encoding/json refuses it ("cannot unmarshal number 1e400").
//    Numbers too small for a double become 0, as in Go.
class Handler {
 public:
  constexpr static std::size_t max_object_size = boost::json::object::max_size();
  constexpr static std::size_t max_array_size = boost::json::array::max_size();
  constexpr static std::size_t max_key_size = boost::json::string::max_size();
  constexpr static std::size_t max_string_size = boost::json::string::max_size();

  // The stack of values being built lives in `temp` until it outgrows it.
  Handler(unsigned char* temp, std::size_t size) : st(boost::json::storage_ptr(), temp, size) {}

  boost::json::value_stack st;

  bool on_document_begin(boost::json::error_code&) { return true; }
  bool on_document_end(boost::json::error_code&) { return true; }
  bool on_object_begin(boost::json::error_code&) { return true; }
  bool on_object_end(std::size_t n, boost::json::error_code&) {
    st.push_object(n);
    return true;
  }
  bool on_array_begin(boost::json::error_code&) { return true; }
  bool on_array_end(std::size_t n, boost::json::error_code&) {
    st.push_array(n);
    return true;
  }
  bool on_key_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    st.push_chars(s);
    return true;
  }
  bool on_key(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    st.push_key(s);
    return true;
  }
  bool on_string_part(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    st.push_chars(s);
    return true;
  }
  bool on_string(boost::json::string_view s, std::size_t, boost::json::error_code&) {
    st.push_string(s);
    return true;
  }
  // A number split across write calls arrives in parts; parse() writes once, but stay correct.
  bool on_number_part(boost::json::string_view s, boost::json::error_code&) {
    number_.append(s.data(), s.size());
    return true;
  }
  bool on_int64(std::int64_t i, boost::json::string_view, boost::json::error_code&) {
    number_.clear();
    st.push_int64(i);
    return true;
  }
  bool on_uint64(std::uint64_t u, boost::json::string_view, boost::json::error_code&) {
    number_.clear();
    st.push_uint64(u);
    return true;
  }
  bool on_double(double d, boost::json::string_view s, boost::json::error_code& ec) {
    number_.append(s.data(), s.size());
    if (!std::isfinite(d)) {
      ec = boost::json::error::exponent_overflow;  // "exponent overflow"
      return false;
    }
    double exact = 0;
    auto [end, err] = std::from_chars(number_.data(), number_.data() + number_.size(), exact);
    if (err == std::errc() && end == number_.data() + number_.size()) d = exact;
    number_.clear();
    st.push_double(d);
    return true;
  }
  bool on_bool(bool b, boost::json::error_code&) {
    st.push_bool(b);
    return true;
  }
  bool on_null(boost::json::error_code&) {
    st.push_null();
    return true;
  }
  bool on_comment_part(boost::json::string_view, boost::json::error_code&) { return true; }
  bool on_comment(boost::json::string_view, boost::json::error_code&) { return true; }

 private:
  std::string number_;
};

// Boost.JSON stops at 32 levels by default; CRD schemas (pod templates) nest far deeper.
boost::json::parse_options options() {
  boost::json::parse_options o;
  o.max_depth = 10000;
  return o;
}

Value parse_value(std::string_view text, boost::system::error_code& ec, boost::json::storage_ptr storage = {}) {
  unsigned char temp[4096];
  boost::json::basic_parser<Handler> p(options(), temp, sizeof temp);
  p.handler().st.reset(std::move(storage));
  std::size_t n = p.write_some(false, text.data(), text.size(), ec);
  if (!ec && n < text.size()) ec = boost::json::error::extra_data;
  if (ec) return nullptr;
  return p.handler().st.release();
}

}  // namespace

Value parse(std::string_view text, std::string_view what) {
  boost::system::error_code ec;
  Value v = parse_value(text, ec);
  if (ec) {
    throw ParseError("parsing " + std::string(what) + ": " + ec.message());
  }
  return v;
}

std::optional<Value> try_parse(std::string_view text, std::string* error) { return try_parse(text, {}, error); }

std::optional<Value> try_parse(std::string_view text, boost::json::storage_ptr storage, std::string* error) {
  boost::system::error_code ec;
  Value v = parse_value(text, ec, std::move(storage));
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
// Only values an int64 holds exactly. Found by fuzzing (acme_fuzz, through a problem document's
// "status": 3e26): a double beyond the int64 range was converted anyway (undefined behaviour),
// and a uint64 above INT64_MAX came back negative.
std::optional<std::int64_t> int_of(const Value* f) {
  if (!f) return std::nullopt;
  if (f->is_int64()) return f->get_int64();
  if (f->is_uint64()) {
    if (f->get_uint64() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
    return static_cast<std::int64_t>(f->get_uint64());
  }
  if (f->is_double()) {
    double d = f->get_double();
    // [-2^63, 2^63): both bounds are exact doubles.
    if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == std::trunc(d)) return static_cast<std::int64_t>(d);
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
