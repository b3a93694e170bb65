// CEL runtime values (https://github.com/google/cel-spec, langdef.md "Values"): null, bool,
// int, uint, double, string, bytes, list, map, duration, timestamp, type, plus an error value
// that flows through evaluation so && and || can absorb it as CEL's commutative operators do.
// Lists and maps are immutable and shared, so binding a large document to a variable is cheap.
#pragma once

#include "runtime/json/json.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace capstan::cel {

enum class Kind { Null, Bool, Int, Uint, Double, String, Bytes, List, Map, Duration, Timestamp, Type, Error };

class Value;
using List = std::vector<Value>;

// Map keys are bool, int, uint or string; keys order by kind then value (iteration order).
struct KeyLess {
  bool operator()(const Value& a, const Value& b) const;
};
using Map = std::map<Value, Value, KeyLess>;

struct Bytes { std::string data; };
struct Duration { std::int64_t nanos = 0; };
struct Timestamp { std::int64_t nanos = 0; };  // since the Unix epoch, UTC
struct TypeName { std::string name; };
struct ErrorValue { std::string message; };

class Value {
 public:
  Value() = default;  // null
  static Value null() { return Value(); }
  static Value boolean(bool b) { return Value(Rep(b)); }
  static Value integer(std::int64_t i) { return Value(Rep(i)); }
  static Value uinteger(std::uint64_t u) { return Value(Rep(u)); }
  static Value dbl(double d) { return Value(Rep(d)); }
  static Value string(std::string s) { return Value(Rep(std::move(s))); }
  static Value bytes(std::string b) { return Value(Rep(Bytes{std::move(b)})); }
  static Value list(List l) { return Value(Rep(std::make_shared<const List>(std::move(l)))); }
  static Value map(Map m) { return Value(Rep(std::make_shared<const Map>(std::move(m)))); }
  static Value duration(std::int64_t nanos) { return Value(Rep(Duration{nanos})); }
  static Value timestamp(std::int64_t nanos) { return Value(Rep(Timestamp{nanos})); }
  static Value type(std::string name) { return Value(Rep(TypeName{std::move(name)})); }
  static Value error(std::string message) { return Value(Rep(ErrorValue{std::move(message)})); }

  // A JSON document as CEL sees an untyped value: int64 -> int, uint64 -> uint, double -> double,
  // objects -> map(string, dyn), arrays -> list(dyn). Nesting deeper than max_depth is an error value.
  static Value from_json(const json::Value& v, int max_depth = 128);

  Kind kind() const { return static_cast<Kind>(rep_.index()); }
  bool is_error() const { return kind() == Kind::Error; }
  bool is_null() const { return kind() == Kind::Null; }

  // Accessors; the kind must match (checked by the caller).
  bool as_bool() const { return std::get<bool>(rep_); }
  std::int64_t as_int() const { return std::get<std::int64_t>(rep_); }
  std::uint64_t as_uint() const { return std::get<std::uint64_t>(rep_); }
  double as_double() const { return std::get<double>(rep_); }
  const std::string& as_string() const { return std::get<std::string>(rep_); }
  const std::string& as_bytes() const { return std::get<Bytes>(rep_).data; }
  const List& as_list() const { return *std::get<std::shared_ptr<const List>>(rep_); }
  const Map& as_map() const { return *std::get<std::shared_ptr<const Map>>(rep_); }
  std::int64_t as_duration() const { return std::get<Duration>(rep_).nanos; }
  std::int64_t as_timestamp() const { return std::get<Timestamp>(rep_).nanos; }
  const std::string& as_type() const { return std::get<TypeName>(rep_).name; }
  const std::string& error_message() const { return std::get<ErrorValue>(rep_).message; }

  // The CEL type name: "int", "list", "google.protobuf.Duration", ...
  std::string_view type_name() const;

  // Back to JSON (durations and timestamps as their string forms, bytes as base64); errors
  // and types become their text.
  json::Value to_json() const;

 private:
  using Rep = std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::string, Bytes,
                           std::shared_ptr<const List>, std::shared_ptr<const Map>, Duration, Timestamp, TypeName,
                           ErrorValue>;
  explicit Value(Rep r) : rep_(std::move(r)) {}
  Rep rep_;
};

// CEL equality (==): numbers compare across int/uint/double by value, lists and maps deeply,
// values of different kinds are unequal. Never an error for the kinds above.
bool equals(const Value& a, const Value& b);

// CEL ordering (<, <=, ...) for comparable kinds: -1, 0, 1; nullopt when the kinds are not
// comparable ("no such overload"). NaN compares as unordered: returns 2.
std::optional<int> compare(const Value& a, const Value& b);

// Map lookup with CEL's numeric key equivalence (1, 1u and 1.0 find the same entry).
const Value* map_find(const Map& m, const Value& key);

// Byte length of a UTF-8 string in code points (CEL string size()).
std::size_t code_points(std::string_view s);

}  // namespace capstan::cel
