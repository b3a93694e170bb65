#include "runtime/cel/value.h"

#include "runtime/cel/time.h"

#include <cmath>
#include <limits>

namespace capstan::cel {
namespace {

int kind_rank(Kind k) { return static_cast<int>(k); }

// Numbers as one of three representations, for heterogeneous comparison.
struct Num {
  enum { I, U, D } t;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double d = 0;
};

std::optional<Num> as_num(const Value& v) {
  switch (v.kind()) {
    case Kind::Int: return Num{Num::I, v.as_int(), 0, 0};
    case Kind::Uint: return Num{Num::U, 0, v.as_uint(), 0};
    case Kind::Double: return Num{Num::D, 0, 0, v.as_double()};
    default: return std::nullopt;
  }
}

template <typename T>
int cmp3(T a, T b) { return a < b ? -1 : (b < a ? 1 : 0); }

// int vs double as cel-go does: compare against the double's range first, then exactly.
int cmp_int_double(std::int64_t i, double d) {
  if (d < -9.223372036854775808e18) return 1;
  if (d >= 9.223372036854775808e18) return -1;
  double t = std::trunc(d);
  auto ti = static_cast<std::int64_t>(t);
  if (i != ti) return cmp3(i, ti);
  return cmp3(0.0, d - t);
}

int cmp_uint_double(std::uint64_t u, double d) {
  if (d < 0) return 1;
  if (d >= 1.8446744073709551616e19) return -1;
  double t = std::trunc(d);
  auto tu = static_cast<std::uint64_t>(t);
  if (u != tu) return cmp3(u, tu);
  return cmp3(0.0, d - t);
}

// -1/0/1, or 2 when unordered (NaN).
int cmp_num(const Num& a, const Num& b) {
  if (a.t == Num::D && b.t == Num::D) {
    if (std::isnan(a.d) || std::isnan(b.d)) return 2;
    return cmp3(a.d, b.d);
  }
  if (a.t == Num::D || b.t == Num::D) {
    bool flip = a.t == Num::D;
    const Num& x = flip ? b : a;  // the non-double
    double d = flip ? a.d : b.d;
    if (std::isnan(d)) return 2;
    int r = x.t == Num::I ? cmp_int_double(x.i, d) : cmp_uint_double(x.u, d);
    return flip ? -r : r;
  }
  if (a.t == Num::I && b.t == Num::I) return cmp3(a.i, b.i);
  if (a.t == Num::U && b.t == Num::U) return cmp3(a.u, b.u);
  if (a.t == Num::I) return a.i < 0 ? -1 : cmp3(static_cast<std::uint64_t>(a.i), b.u);
  return b.i < 0 ? 1 : cmp3(a.u, static_cast<std::uint64_t>(b.i));
}

}  // namespace

bool KeyLess::operator()(const Value& a, const Value& b) const {
  if (a.kind() != b.kind()) return kind_rank(a.kind()) < kind_rank(b.kind());
  switch (a.kind()) {
    case Kind::Bool: return a.as_bool() < b.as_bool();
    case Kind::Int: return a.as_int() < b.as_int();
    case Kind::Uint: return a.as_uint() < b.as_uint();
    case Kind::String: return a.as_string() < b.as_string();
    default: return false;  // other kinds are not valid keys; the evaluator refuses them
  }
}

Value Value::from_json(const json::Value& v, int max_depth) {
  if (max_depth <= 0) return Value::error("document nested too deeply");
  switch (v.kind()) {
    case boost::json::kind::null: return Value::null();
    case boost::json::kind::bool_: return Value::boolean(v.get_bool());
    case boost::json::kind::int64: return Value::integer(v.get_int64());
    case boost::json::kind::uint64: return Value::uinteger(v.get_uint64());
    case boost::json::kind::double_: return Value::dbl(v.get_double());
    case boost::json::kind::string: return Value::string(std::string(v.get_string()));
    case boost::json::kind::array: {
      List l;
      l.reserve(v.get_array().size());
      for (const auto& x : v.get_array()) {
        l.push_back(from_json(x, max_depth - 1));
        if (l.back().is_error()) return l.back();
      }
      return Value::list(std::move(l));
    }
    case boost::json::kind::object: {
      Map m;
      for (const auto& kv : v.get_object()) {
        Value x = from_json(kv.value(), max_depth - 1);
        if (x.is_error()) return x;
        m.insert_or_assign(Value::string(std::string(kv.key())), std::move(x));
      }
      return Value::map(std::move(m));
    }
  }
  return Value::null();
}

std::string_view Value::type_name() const {
  switch (kind()) {
    case Kind::Null: return "null_type";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Uint: return "uint";
    case Kind::Double: return "double";
    case Kind::String: return "string";
    case Kind::Bytes: return "bytes";
    case Kind::List: return "list";
    case Kind::Map: return "map";
    case Kind::Duration: return "google.protobuf.Duration";
    case Kind::Timestamp: return "google.protobuf.Timestamp";
    case Kind::Type: return "type";
    case Kind::Error: return "error";
  }
  return "unknown";
}

json::Value Value::to_json() const {
  switch (kind()) {
    case Kind::Null: return nullptr;
    case Kind::Bool: return as_bool();
    case Kind::Int: return as_int();
    case Kind::Uint: return as_uint();
    case Kind::Double: return as_double();
    case Kind::String: return json::String(as_string());
    case Kind::Bytes: return json::String(as_bytes());
    case Kind::List: {
      json::Array a;
      for (const auto& x : as_list()) a.push_back(x.to_json());
      return a;
    }
    case Kind::Map: {
      json::Object o;
      for (const auto& [k, x] : as_map()) {
        std::string key = k.kind() == Kind::String ? k.as_string() : json::serialize(k.to_json());
        o[key] = x.to_json();
      }
      return o;
    }
    case Kind::Duration: return json::String(format_duration(as_duration()));
    case Kind::Timestamp: return json::String(format_timestamp(as_timestamp()));
    case Kind::Type: return json::String(as_type());
    case Kind::Error: return json::String(error_message());
  }
  return nullptr;
}

bool equals(const Value& a, const Value& b) {
  auto na = as_num(a), nb = as_num(b);
  if (na && nb) return cmp_num(*na, *nb) == 0;
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Kind::Null: return true;
    case Kind::Bool: return a.as_bool() == b.as_bool();
    case Kind::String: return a.as_string() == b.as_string();
    case Kind::Bytes: return a.as_bytes() == b.as_bytes();
    case Kind::Duration: return a.as_duration() == b.as_duration();
    case Kind::Timestamp: return a.as_timestamp() == b.as_timestamp();
    case Kind::Type: return a.as_type() == b.as_type();
    case Kind::List: {
      const auto& x = a.as_list();
      const auto& y = b.as_list();
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i)
        if (!equals(x[i], y[i])) return false;
      return true;
    }
    case Kind::Map: {
      const auto& x = a.as_map();
      const auto& y = b.as_map();
      if (x.size() != y.size()) return false;
      for (const auto& [k, v] : x) {
        const Value* o = map_find(y, k);
        if (!o || !equals(v, *o)) return false;
      }
      return true;
    }
    default: return false;
  }
}

std::optional<int> compare(const Value& a, const Value& b) {
  auto na = as_num(a), nb = as_num(b);
  if (na && nb) return cmp_num(*na, *nb);
  if (a.kind() != b.kind()) return std::nullopt;
  switch (a.kind()) {
    case Kind::Bool: return cmp3(a.as_bool(), b.as_bool());
    case Kind::String: return cmp3(a.as_string(), b.as_string());
    case Kind::Bytes: return cmp3(a.as_bytes(), b.as_bytes());
    case Kind::Duration: return cmp3(a.as_duration(), b.as_duration());
    case Kind::Timestamp: return cmp3(a.as_timestamp(), b.as_timestamp());
    default: return std::nullopt;
  }
}

const Value* map_find(const Map& m, const Value& key) {
  auto it = m.find(key);
  if (it != m.end()) return &it->second;
  // Numeric keys are equal across int, uint and double when their values are.
  auto try_key = [&](const Value& k) -> const Value* {
    auto j = m.find(k);
    return j == m.end() ? nullptr : &j->second;
  };
  switch (key.kind()) {
    case Kind::Int:
      if (key.as_int() >= 0) return try_key(Value::uinteger(static_cast<std::uint64_t>(key.as_int())));
      return nullptr;
    case Kind::Uint:
      if (key.as_uint() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return try_key(Value::integer(static_cast<std::int64_t>(key.as_uint())));
      return nullptr;
    case Kind::Double: {
      double d = key.as_double();
      if (d != std::trunc(d)) return nullptr;
      if (d >= -9.223372036854775808e18 && d < 9.223372036854775808e18)
        if (const Value* v = try_key(Value::integer(static_cast<std::int64_t>(d)))) return v;
      if (d >= 0 && d < 1.8446744073709551616e19) return try_key(Value::uinteger(static_cast<std::uint64_t>(d)));
      return nullptr;
    }
    default: return nullptr;
  }
}

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

}  // namespace capstan::cel
