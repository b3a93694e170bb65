#include "apiserver/schema/validate.h"

#include "runtime/gofmt/gofmt.h"
#include "apiserver/schema/formats.h"
#include "apiserver/schema/regex.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>

namespace capstan::apiserver::schema {
namespace {

// ---------------------------------------------------------------------------------------------
// kube-openapi errors (pkg/validation/errors) before apiextensions maps them to field errors.

enum class Code {
  InvalidType,
  Required,
  TooLong,
  TooShort,
  Pattern,
  Enum,
  MultipleOf,
  Max,
  Min,
  Unique,
  MaxItems,
  MinItems,
  TooFewProperties,
  TooManyProperties,
  Unallowed,
  MultipleOfMustBePositive,
  Composite,  // errors.New(...) from schema_messages.go: not a *Validation
};

struct OErr {
  Code code;
  std::string name;                 // kube-openapi path ("spec.replicas", ".key", "")
  std::optional<json::Value> value;  // Validation.Value (nullopt = Go nil)
  std::int64_t valid = -1;          // Validation.Valid (max length/items/properties)
  std::string message;
  std::vector<json::Value> values;  // enum values
};

struct Result {
  std::vector<OErr> errors;
  int match = 0;
  bool valid() const { return errors.empty(); }
  void merge(Result&& r) {
    for (auto& e : r.errors) errors.push_back(std::move(e));
    match += r.match;
  }
  void add(OErr e) { errors.push_back(std::move(e)); }
};

constexpr std::string_view kIn = "body";

std::string q(std::string_view s) { return gofmt::quote(s); }

// The Go reflect kind the unstructured decoder produces for a JSON value.
enum class Kind { Null, Bool, Int, Float, String, Slice, Map };

Kind kind_of(const json::Value& v) {
  switch (v.kind()) {
    case boost::json::kind::null: return Kind::Null;
    case boost::json::kind::bool_: return Kind::Bool;
    case boost::json::kind::int64: return Kind::Int;
    case boost::json::kind::uint64:  // beyond int64: json.Number.Int64 fails -> float64
    case boost::json::kind::double_: return Kind::Float;
    case boost::json::kind::string: return Kind::String;
    case boost::json::kind::array: return Kind::Slice;
    case boost::json::kind::object: return Kind::Map;
  }
  return Kind::Null;
}

// swag.IsFloat64AJSONInteger
bool is_float_json_integer(double f) {
  constexpr double kMax = 9007199254740991.0;
  if (std::isnan(f) || std::isinf(f) || f < -kMax || f > kMax) return false;
  if (f == std::trunc(f)) return true;
  if (f < 0) return false;
  double g = std::trunc(f);
  double diff = std::fabs(f - g);
  if (g == 0) return false;
  return diff / std::min(std::fabs(f) + std::fabs(g), std::numeric_limits<double>::max()) < 1e-9;
}

std::vector<std::string> type_list(const Schema& s) {
  if (s.x_int_or_string) return {"integer", "string"};
  if (!s.type.empty()) return {s.type};
  return {};
}

bool contains(const std::vector<std::string>& v, std::string_view x) {
  for (const auto& e : v)
    if (e == x) return true;
  return false;
}

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += sep;
    out += v[i];
  }
  return out;
}

std::string child_path(const std::string& path, std::string_view name) {
  return path.empty() ? std::string(name) : path + "." + std::string(name);
}

// errors.InvalidType(name, in, typeName, value) with a string value.
OErr invalid_type(const std::string& name, std::string_view type_name, std::string_view value) {
  return OErr{Code::InvalidType, name, json::Value(value), -1,
              name + " in " + std::string(kIn) + " must be of type " + std::string(type_name) + ": " + q(value), {}};
}

// Go reflect.DeepEqual on decoded JSON (int64 and float64 are distinct types).
bool deep_equal(const json::Value& a, const json::Value& b) {
  Kind ka = kind_of(a), kb = kind_of(b);
  if (ka != kb) return false;
  switch (ka) {
    case Kind::Null: return true;
    case Kind::Bool: return a.get_bool() == b.get_bool();
    case Kind::Int: return a.get_int64() == b.get_int64();
    case Kind::Float: return gofmt::as_float(a) == gofmt::as_float(b);
    case Kind::String: return a.get_string() == b.get_string();
    case Kind::Slice: {
      const auto& x = a.get_array();
      const auto& y = b.get_array();
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i)
        if (!deep_equal(x[i], y[i])) return false;
      return true;
    }
    case Kind::Map: {
      const auto& x = a.get_object();
      const auto& y = b.get_object();
      if (x.size() != y.size()) return false;
      for (const auto& kv : x) {
        auto it = y.find(kv.key());
        if (it == y.end() || !deep_equal(kv.value(), it->value())) return false;
      }
      return true;
    }
  }
  return false;
}

// Enum values are decoded by encoding/json into interface{}: every number is a float64.
bool deep_equal_enum(const json::Value& data, const json::Value& ev) {
  Kind kd = kind_of(data), ke = kind_of(ev);
  if (ke == Kind::Int) ke = Kind::Float;
  if (kd == Kind::Float && ke == Kind::Float) return gofmt::as_float(data) == gofmt::as_float(ev);
  if (kd != ke) return false;
  switch (kd) {
    case Kind::Slice: {
      const auto& x = data.get_array();
      const auto& y = ev.get_array();
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i)
        if (!deep_equal_enum(x[i], y[i])) return false;
      return true;
    }
    case Kind::Map: {
      const auto& x = data.get_object();
      const auto& y = ev.get_object();
      if (x.size() != y.size()) return false;
      for (const auto& kv : x) {
        auto it = y.find(kv.key());
        if (it == y.end() || !deep_equal_enum(kv.value(), it->value())) return false;
      }
      return true;
    }
    default: return deep_equal(data, ev);
  }
}

// basicCommonValidator: reflect conversion to the enum value's type, then DeepEqual.
bool enum_matches(const json::Value& data, const json::Value& ev) {
  Kind kd = kind_of(data), ke = kind_of(ev);
  if (kd == Kind::Null) return false;  // reflect.ValueOf(nil) is not valid: never matches
  if (ke == Kind::Int || ke == Kind::Float) {
    if (kd == Kind::Int || kd == Kind::Float) return gofmt::as_float(data) == gofmt::as_float(ev);
    return false;
  }
  if (ke == Kind::String && kd == Kind::Int) {
    // Go converts an integer to a string as a rune.
    std::int64_t r = data.get_int64();
    std::u32string w(1, (r < 0 || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) ? char32_t(0xFFFD) : char32_t(r));
    return u32_to_utf8(w) == ev.get_string();
  }
  return deep_equal_enum(data, ev);
}

class Validator {
 public:
  Result node(const Schema& s, const json::Value& data, const std::string& path) {
    Result res;
    if (data.is_null()) {
      res.merge(type_check(s, data, path));
      res.merge(enum_check(s, data, path));
      return res;
    }
    Kind k = kind_of(data);
    auto apply = [&](Result&& r) {
      res.merge(std::move(r));
      res.match += 1;
    };
    if (!type_list(s).empty() || !s.effective_format.empty()) apply(type_check(s, data, path));
    apply(schema_props(s, data, path));
    if (k == Kind::String) apply(string_check(s, data.get_string(), path));
    if (k == Kind::String && !s.effective_format.empty()) apply(format_check(s, data.get_string(), path));
    if (k == Kind::Int || k == Kind::Float) apply(number_check(s, data, path));
    if (k == Kind::Slice) apply(slice_check(s, data.get_array(), path));
    apply(enum_check(s, data, path));
    if (k == Kind::Map) apply(object_check(s, data.get_object(), path));
    res.match += 1;
    return res;
  }

 private:
  // typeValidator
  Result type_check(const Schema& s, const json::Value& data, const std::string& path) {
    Result r;
    auto types = type_list(s);
    if (data.is_null()) {
      if (!types.empty() && !contains(types, "null") && !s.nullable) {
        r.add(invalid_type(path, join(types, ","), "null"));
      } else {
        r.match += 1;
      }
      return r;
    }
    Kind k = kind_of(data);
    std::string sch_type, fmt;
    switch (k) {
      case Kind::Bool: sch_type = "boolean"; break;
      case Kind::String: sch_type = "string"; break;
      case Kind::Int: sch_type = "integer"; fmt = "int64"; break;
      case Kind::Float: sch_type = "number"; fmt = "float64"; break;
      case Kind::Slice: sch_type = "array"; break;
      case Kind::Map: sch_type = "object"; break;
      case Kind::Null: break;
    }
    const std::string& tf = s.effective_format;
    bool is_lower_int = tf == "int64" && fmt == "int32";
    bool is_lower_float = tf == "float64" && fmt == "float32";
    bool is_float_int = sch_type == "number" && is_float_json_integer(gofmt::as_float(data)) && contains(types, "integer");
    bool is_int_float = sch_type == "integer" && contains(types, "number");
    if (k != Kind::String && k != Kind::Slice && !tf.empty() &&
        !(contains(types, sch_type) || fmt == tf || is_float_int || is_int_float || is_lower_int || is_lower_float)) {
      r.add(invalid_type(path, tf, fmt));
      return r;
    }
    if (!(contains(types, "number") || contains(types, "integer")) && !tf.empty() &&
        (k == Kind::String || k == Kind::Slice)) {
      r.match += 1;
      return r;
    }
    if (!(contains(types, sch_type) || is_float_int || is_int_float)) {
      r.add(invalid_type(path, join(types, ","), sch_type));
      return r;
    }
    r.match += 1;
    return r;
  }

  // schemaPropsValidator: anyOf, oneOf, allOf, not
  Result schema_props(const Schema& s, const json::Value& data, const std::string& path) {
    Result main;
    if (!s.any_of.empty()) {
      std::optional<Result> best, first_success;
      bool succeeded = false;
      for (const auto& alt : s.any_of) {
        Result r = node(*alt, data, path);
        if (r.valid()) {
          succeeded = true;
          best.reset();
          if (!first_success) first_success = std::move(r);
          break;
        }
        if (!best || r.match > best->match) best = std::move(r);
      }
      if (!succeeded) main.add(OErr{Code::Composite, path, std::nullopt, -1, q(path) + " must validate at least one schema (anyOf)", {}});
      if (best) {
        main.merge(std::move(*best));
      } else if (first_success) {
        main.merge(std::move(*first_success));
      }
    }
    if (!s.one_of.empty()) {
      std::optional<Result> best, first_success;
      int validated = 0;
      for (const auto& alt : s.one_of) {
        Result r = node(*alt, data, path);
        if (r.valid()) {
          ++validated;
          best.reset();
          if (!first_success) first_success = std::move(r);
          continue;
        }
        if (validated == 0 && (!best || r.match > best->match)) best = std::move(r);
      }
      if (validated != 1) {
        std::string extra = validated == 0 ? "Found none valid" : "Found " + std::to_string(validated) + " valid alternatives";
        main.add(OErr{Code::Composite, path, std::nullopt, -1,
                      q(path) + " must validate one and only one schema (oneOf). " + extra, {}});
        if (best) main.merge(std::move(*best));
      } else if (first_success) {
        main.merge(std::move(*first_success));
      }
    }
    if (!s.all_of.empty()) {
      std::size_t validated = 0;
      for (const auto& alt : s.all_of) {
        Result r = node(*alt, data, path);
        if (r.valid()) ++validated;
        main.merge(std::move(r));
      }
      if (validated != s.all_of.size()) {
        std::string extra = validated == 0 ? ". None validated" : "";
        main.add(OErr{Code::Composite, path, std::nullopt, -1, q(path) + " must validate all the schemas (allOf)" + extra, {}});
      }
    }
    if (s.not_schema) {
      Result r = node(*s.not_schema, data, path);
      if (r.valid()) main.add(OErr{Code::Composite, path, std::nullopt, -1, q(path) + " must not validate the schema (not)", {}});
    }
    main.match += 1;
    return main;
  }

  // stringValidator: maxLength, minLength, pattern; the first failure wins.
  Result string_check(const Schema& s, std::string_view data, const std::string& path) {
    Result r;
    std::string in = std::string(kIn);
    if (s.max_length) {
      auto len = static_cast<std::int64_t>(rune_count(data));
      if (len > *s.max_length) {
        r.add(OErr{Code::TooLong, path, json::Value(data), *s.max_length,
                   path + " in " + in + " should be at most " + std::to_string(*s.max_length) + " chars long", {}});
        return r;
      }
    }
    if (s.min_length) {
      auto len = static_cast<std::int64_t>(rune_count(data));
      if (len < *s.min_length) {
        r.add(OErr{Code::TooShort, path, json::Value(data), *s.min_length,
                   path + " in " + in + " should be at least " + std::to_string(*s.min_length) + " chars long", {}});
        return r;
      }
    }
    if (s.pattern && !s.pattern->empty()) {
      if (s.pattern_re) {
        if (!s.pattern_re->match(data)) {
          r.add(OErr{Code::Pattern, path, json::Value(data), -1,
                     path + " in " + in + " should match '" + *s.pattern + "'", {}});
        }
      } else {
        std::string err;
        Pattern::compile(*s.pattern, &err);
        r.add(OErr{Code::Pattern, path, json::Value(data), -1,
                   path + " in " + in + " should match '" + *s.pattern + ", but pattern is invalid: " + err + "'", {}});
      }
    }
    return r;
  }

  Result format_check(const Schema& s, std::string_view data, const std::string& path) {
    Result r;
    if (!format_valid(s.effective_format, data)) {
      OErr e = invalid_type(path, s.format, data);
      r.add(std::move(e));
    }
    return r;
  }

  static std::int64_t to_int64(double d) {
    // Go's float64->int64 conversion of out-of-range values yields the minimum int64 on amd64.
    if (std::isnan(d) || d >= 9.2233720368547758e18 || d < -9.2233720368547758e18) return std::numeric_limits<std::int64_t>::min();
    return static_cast<std::int64_t>(d);
  }

  // numberValidator: multipleOf, minimum, maximum (merged in that order).
  Result number_check(const Schema& s, const json::Value& data, const std::string& path) {
    Result multiple, minimum, maximum;
    std::string in = std::string(kIn);
    bool is_int = kind_of(data) == Kind::Int;
    double f = gofmt::as_float(data);
    if (s.multiple_of) {
      if (is_int) {
        std::int64_t factor = to_int64(*s.multiple_of);
        std::int64_t v = data.get_int64();
        if (factor < 0) {
          multiple.add(OErr{Code::MultipleOfMustBePositive, path, json::Value(factor), -1,
                            "factor MultipleOf declared for " + path + " must be positive: " + std::to_string(factor), {}});
        } else if (factor != 0 && (v / factor) * factor != v) {
          multiple.add(OErr{Code::MultipleOf, path, data, -1,
                            path + " in " + in + " should be a multiple of " + std::to_string(factor), {}});
        }
      } else {
        double factor = *s.multiple_of;
        if (factor < 0) {
          multiple.add(OErr{Code::MultipleOfMustBePositive, path, json::Value(factor), -1,
                            "factor MultipleOf declared for " + path + " must be positive: " + gofmt::format_float(factor), {}});
        } else {
          double mult = factor < 1 ? 1 / factor * f : f / factor;
          if (!is_float_json_integer(mult)) {
            multiple.add(OErr{Code::MultipleOf, path, data, -1,
                              path + " in " + in + " should be a multiple of " + gofmt::format_float(factor), {}});
          }
        }
      }
    }
    if (s.minimum) {
      bool ex = s.exclusive_minimum;
      if (is_int) {
        std::int64_t min = to_int64(*s.minimum);
        std::int64_t v = data.get_int64();
        if ((!ex && v < min) || (ex && v <= min)) {
          minimum.add(OErr{Code::Min, path, data, -1,
                           path + " in " + in + (ex ? " should be greater than " : " should be greater than or equal to ") +
                               std::to_string(min), {}});
        }
      } else {
        double min = *s.minimum;
        if ((!ex && f < min) || (ex && f <= min)) {
          minimum.add(OErr{Code::Min, path, data, -1,
                           path + " in " + in + (ex ? " should be greater than " : " should be greater than or equal to ") +
                               gofmt::format_float(min), {}});
        }
      }
    }
    if (s.maximum) {
      bool ex = s.exclusive_maximum;
      if (is_int) {
        std::int64_t max = to_int64(*s.maximum);
        std::int64_t v = data.get_int64();
        if ((!ex && v > max) || (ex && v >= max)) {
          maximum.add(OErr{Code::Max, path, data, -1,
                           path + " in " + in + (ex ? " should be less than " : " should be less than or equal to ") +
                               std::to_string(max), {}});
        }
      } else {
        double max = *s.maximum;
        if ((!ex && f > max) || (ex && f >= max)) {
          maximum.add(OErr{Code::Max, path, data, -1,
                           path + " in " + in + (ex ? " should be less than " : " should be less than or equal to ") +
                               gofmt::format_float(max), {}});
        }
      }
    }
    Result r;
    r.merge(std::move(multiple));
    r.merge(std::move(minimum));
    r.merge(std::move(maximum));
    r.match += 1;
    return r;
  }

  // schemaSliceValidator: items first, then minItems, maxItems, uniqueItems.
  Result slice_check(const Schema& s, const json::Array& data, const std::string& path) {
    Result r;
    std::string in = std::string(kIn);
    if (s.items) {
      for (std::size_t i = 0; i < data.size(); ++i) {
        r.merge(node(*s.items, data[i], path + "[" + std::to_string(i) + "]"));
      }
    }
    auto size = static_cast<std::int64_t>(data.size());
    if (s.min_items && size < *s.min_items) {
      r.add(OErr{Code::MinItems, path, json::Value(size), -1,
                 path + " in " + in + " should have at least " + std::to_string(*s.min_items) + " items", {}});
    }
    if (s.max_items && size > *s.max_items) {
      r.add(OErr{Code::MaxItems, path, json::Value(size), *s.max_items,
                 path + " in " + in + " should have at most " + std::to_string(*s.max_items) + " items", {}});
    }
    if (s.unique_items) {
      bool dup = false;
      for (std::size_t i = 0; i < data.size() && !dup; ++i)
        for (std::size_t j = 0; j < i && !dup; ++j)
          if (deep_equal(data[i], data[j])) dup = true;
      if (dup) r.add(OErr{Code::Unique, path, std::nullopt, -1, path + " in " + in + " shouldn't contain duplicates", {}});
    }
    r.match += 1;
    return r;
  }

  Result enum_check(const Schema& s, const json::Value& data, const std::string& path) {
    Result r;
    if (s.enum_values.empty()) return r;
    for (const auto& ev : s.enum_values)
      if (enum_matches(data, ev)) return r;
    std::string list = "[";
    for (std::size_t i = 0; i < s.enum_values.size(); ++i) {
      if (i) list += ' ';
      list += gofmt::format_v(s.enum_values[i]);
    }
    list += ']';
    r.add(OErr{Code::Enum, path, data.is_null() ? std::optional<json::Value>() : std::optional<json::Value>(data), -1,
               path + " in " + std::string(kIn) + " should be one of " + list, s.enum_values});
    return r;
  }

  // objectValidator
  Result object_check(const Schema& s, const json::Object& data, const std::string& path) {
    Result r;
    std::string in = std::string(kIn);
    auto num_keys = static_cast<std::int64_t>(data.size());
    if (s.min_properties && num_keys < *s.min_properties) {
      r.add(OErr{Code::TooFewProperties, path, json::Value(num_keys), *s.min_properties,
                 path + " in " + in + " should have at least " + std::to_string(*s.min_properties) + " properties", {}});
      return r;
    }
    if (s.max_properties && num_keys > *s.max_properties) {
      r.add(OErr{Code::TooManyProperties, path, json::Value(num_keys), *s.max_properties,
                 path + " in " + in + " should have at most " + std::to_string(*s.max_properties) + " properties", {}});
      return r;
    }
    const auto& ap = s.additional_properties;
    if (ap.present && !ap.allows && !ap.schema) {
      for (const auto& kv : data) {
        if (s.properties.count(std::string(kv.key()))) continue;
        r.add(OErr{Code::Unallowed, path, json::Value(kv.key()), -1,
                   path + "." + std::string(kv.key()) + " in " + in + " is a forbidden property", {}});
      }
    } else if (ap.schema) {
      for (const auto& kv : data) {
        if (s.properties.count(std::string(kv.key()))) continue;
        r.merge(node(*ap.schema, kv.value(), path + "." + std::string(kv.key())));
      }
    }
    for (const auto& [name, prop] : s.properties) {
      auto it = data.find(name);
      if (it == data.end()) continue;
      r.merge(node(*prop, it->value(), child_path(path, name)));
    }
    for (const auto& k : s.required) {
      if (data.find(k) == data.end()) {
        r.add(OErr{Code::Required, path + "." + k, std::nullopt, -1, path + "." + k + " in " + in + " is required", {}});
      }
    }
    return r;
  }
};

// kubeOpenAPIResultToFieldErrors
std::vector<validation::Cause> to_causes(const std::vector<OErr>& errs, const validation::FieldPath& prefix) {
  std::vector<validation::Cause> out;
  out.reserve(errs.size());
  for (const auto& e : errs) {
    if (e.code == Code::Composite) {
      out.push_back(validation::field_invalid(prefix, json::Value(""), e.message));
      continue;
    }
    validation::FieldPath p = prefix;
    if (!e.name.empty() && e.name != ".") {
      std::string_view n = e.name;
      if (n.front() == '.') n.remove_prefix(1);
      p = prefix.child(n);
    }
    json::Value value = e.value ? *e.value : json::Value("");
    switch (e.code) {
      case Code::Required:
        out.push_back(validation::field_required(p));
        break;
      case Code::Enum: {
        std::vector<std::string> values;
        for (const auto& v : e.values) {
          if (v.is_string()) {
            values.emplace_back(v.get_string());
          } else {
            json::Value f = v.is_int64() ? json::Value(static_cast<double>(v.get_int64())) : v;
            values.push_back(gofmt::json_marshal(f));
          }
        }
        out.push_back(validation::field_not_supported(p, e.value ? *e.value : json::Value(), values));
        break;
      }
      case Code::TooLong:
        out.push_back(validation::field_too_long(p, e.valid));
        break;
      case Code::MaxItems:
      case Code::TooManyProperties: {
        std::int64_t actual = e.value && e.value->is_int64() ? e.value->get_int64() : -1;
        out.push_back(validation::field_too_many(p, actual, e.valid));
        break;
      }
      case Code::InvalidType:
        out.push_back(validation::field_type_invalid(p, value, e.message));
        break;
      default:
        out.push_back(validation::field_invalid(p, value, e.message));
        break;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Embedded resources (objectmeta.Validate)

// ^[a-z]([-a-z0-9]*[a-z0-9])?$
bool dns1035_label(std::string_view v) {
  if (v.empty() || !(v.front() >= 'a' && v.front() <= 'z')) return false;
  if (v.back() == '-') return false;
  for (char c : v)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

void validate_embedded_resource(const validation::FieldPath& pth, const json::Object& x, std::vector<validation::Cause>& out) {
  if (x.find("apiVersion") == x.end()) out.push_back(validation::field_required(pth.child("apiVersion")));
  if (x.find("kind") == x.end()) out.push_back(validation::field_required(pth.child("kind")));
  for (const auto& kv : x) {
    std::string_view k = kv.key();
    const json::Value& v = kv.value();
    if (k == "apiVersion") {
      if (!v.is_string()) {
        out.push_back(validation::field_invalid(pth.child("apiVersion"), v, "must be a string"));
      } else if (v.get_string().empty()) {
        out.push_back(validation::field_invalid(pth.child("apiVersion"), v, "must not be empty"));
      } else {
        std::string_view gv = v.get_string();
        if (gv != "/" && std::count(gv.begin(), gv.end(), '/') > 1) {
          out.push_back(validation::field_invalid(pth.child("apiVersion"), v, "unexpected GroupVersion string: " + std::string(gv)));
        }
      }
    } else if (k == "kind") {
      if (!v.is_string()) {
        out.push_back(validation::field_invalid(pth.child("kind"), v, "must be a string"));
      } else if (v.get_string().empty()) {
        out.push_back(validation::field_invalid(pth.child("kind"), v, "must not be empty"));
      } else {
        std::string lower(v.get_string());
        for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        std::vector<std::string> errs;
        if (lower.size() > 63) errs.push_back("must be no more than 63 characters");
        if (!dns1035_label(lower)) {
          errs.push_back(
              "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
              "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
              "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
        }
        if (!errs.empty()) {
          out.push_back(validation::field_invalid(pth.child("kind"), v, "may have mixed case, but should otherwise match: " + join(errs, ",")));
        }
      }
    } else if (k == "metadata") {
      if (!v.is_object() && !v.is_null()) {
        out.push_back(validation::field_invalid(pth.child("metadata"), v, "must be an object"));
      }
    }
  }
}

void embedded_walk(const validation::FieldPath& pth, const json::Value& x, const Schema* s, std::vector<validation::Cause>& out) {
  if (!s) return;
  if (x.is_object()) {
    const auto& o = x.get_object();
    if (s->x_embedded_resource) validate_embedded_resource(pth, o, out);
    for (const auto& kv : o) {
      if (const Schema* p = s->property(kv.key())) {
        embedded_walk(pth.child(kv.key()), kv.value(), p, out);
      } else if (s->additional_properties.schema) {
        embedded_walk(pth.key(kv.key()), kv.value(), s->additional_properties.schema.get(), out);
      }
    }
  } else if (x.is_array()) {
    const auto& a = x.get_array();
    for (std::size_t i = 0; i < a.size(); ++i) embedded_walk(pth.index(i), a[i], s->items.get(), out);
  }
}

// ---------------------------------------------------------------------------------------------
// List types (listtype.ValidateListSetsAndMaps)

// Returns the indices of the first repeated appearance of every non-unique element.
std::vector<std::size_t> non_unique(const std::vector<json::Value>& xs) {
  std::vector<std::size_t> out;
  if (xs.size() <= 1) return out;
  std::map<std::string, int> seen;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const json::Value& x = xs[i];
    // Scalars compare with Go == on interface{} (int64 and float64 differ); compounds by JSON.
    std::string key;
    switch (kind_of(x)) {
      case Kind::Map:
      case Kind::Slice: key = "c" + gofmt::json_marshal(x); break;
      case Kind::Int: key = "i" + std::to_string(x.get_int64()); break;
      case Kind::Float: key = "f" + gofmt::format_float(gofmt::as_float(x)); break;
      case Kind::String: key = "s" + std::string(x.get_string()); break;
      case Kind::Bool: key = x.get_bool() ? "bt" : "bf"; break;
      case Kind::Null: key = "n"; break;
    }
    int times = seen[key]++;
    if (times == 1) out.push_back(i);
  }
  return out;
}

void list_walk(const validation::FieldPath& p, const Schema* s, const json::Value& obj, std::vector<validation::Cause>& out);

void list_walk_object(const validation::FieldPath& p, const Schema* s, const json::Object& obj, std::vector<validation::Cause>& out) {
  if (!s) return;
  if (s->additional_properties.schema) {
    for (const auto& kv : obj) list_walk(p.key(kv.key()), s->additional_properties.schema.get(), kv.value(), out);
  }
  if (!s->properties.empty()) {
    for (const auto& kv : obj)
      if (const Schema* sub = s->property(kv.key())) list_walk(p.child(kv.key()), sub, kv.value(), out);
  }
}

void list_walk_array(const validation::FieldPath& p, const Schema* s, const json::Array& arr, std::vector<validation::Cause>& out) {
  if (s->x_list_type) {
    if (*s->x_list_type == "set") {
      std::vector<json::Value> xs(arr.begin(), arr.end());
      for (auto i : non_unique(xs)) out.push_back(validation::field_duplicate(p.index(i), arr[i]));
    } else if (*s->x_list_type == "map") {
      bool bad = false;
      for (std::size_t i = 0; i < arr.size(); ++i) {
        if (!arr[i].is_null() && !arr[i].is_object()) {
          out.push_back(validation::field_invalid(p.index(i), arr[i], "must be an object for an array of list-type map"));
          bad = true;
          break;
        }
      }
      if (!bad && arr.size() > 1) {
        std::vector<json::Value> keys;
        keys.reserve(arr.size());
        for (const auto& x : arr) {
          json::Object key;
          if (x.is_object()) {
            for (const auto& k : s->x_list_map_keys) {
              auto it = x.get_object().find(k);
              if (it != x.get_object().end()) key[k] = it->value();
            }
          }
          keys.emplace_back(std::move(key));
        }
        if (s->x_list_map_keys.size() == 1) {
          // Single key: compare the key values themselves (unspecified keys are equal).
          std::vector<json::Value> single;
          const std::string& kf = s->x_list_map_keys[0];
          std::vector<bool> unspecified;
          for (const auto& k : keys) {
            auto it = k.get_object().find(kf);
            unspecified.push_back(it == k.get_object().end());
            single.push_back(it == k.get_object().end() ? json::Value(json::Object{{"\x01unspecified", true}}) : it->value());
          }
          for (auto i : non_unique(single)) out.push_back(validation::field_duplicate(p.index(i), unspecified[i] ? json::Value(json::Object{}) : keys[i]));
        } else {
          for (auto i : non_unique(keys)) out.push_back(validation::field_duplicate(p.index(i), keys[i]));
        }
      }
    }
  }
  if (s->items) {
    for (std::size_t i = 0; i < arr.size(); ++i) list_walk(p.index(i), s->items.get(), arr[i], out);
  }
}

void list_walk(const validation::FieldPath& p, const Schema* s, const json::Value& obj, std::vector<validation::Cause>& out) {
  if (!s) return;
  if (obj.is_array()) list_walk_array(p, s, obj.get_array(), out);
  else if (obj.is_object()) list_walk_object(p, s, obj.get_object(), out);
}

}  // namespace

std::vector<validation::Cause> validate(const json::Value& obj, const Schema& schema, const validation::FieldPath& prefix) {
  Validator v;
  Result r = v.node(schema, obj, "");
  return to_causes(r.errors, prefix);
}

std::vector<validation::Cause> validate_embedded_resources(const json::Value& obj, const Schema& schema, const validation::FieldPath& prefix,
                                               bool is_resource_root) {
  std::vector<validation::Cause> out;
  if (is_resource_root && !schema.x_embedded_resource) {
    Schema clone = schema;
    clone.x_embedded_resource = true;
    embedded_walk(prefix, obj, &clone, out);
  } else {
    embedded_walk(prefix, obj, &schema, out);
  }
  return out;
}

std::vector<validation::Cause> validate_list_sets_and_maps(const json::Value& obj, const Schema& schema, const validation::FieldPath& prefix) {
  std::vector<validation::Cause> out;
  if (obj.is_object()) list_walk_object(prefix, &schema, obj.get_object(), out);
  return out;
}

bool has_validation_rules(const Schema& s) {
  if (!s.x_validations.empty()) return true;
  for (const auto& [_, p] : s.properties)
    if (p && has_validation_rules(*p)) return true;
  if (s.items && has_validation_rules(*s.items)) return true;
  if (s.additional_properties.schema && has_validation_rules(*s.additional_properties.schema)) return true;
  return false;
}

validation::Cause rules_not_checked() {
  return validation::field_invalid(validation::FieldPath("<nil>"), json::Value(nullptr),
                       "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation");
}

std::vector<validation::Cause> validate_custom_resource(const json::Value& obj, const Schema& schema) {
  std::vector<validation::Cause> out = validate(obj, schema);
  auto embedded = validate_embedded_resources(obj, schema);
  out.insert(out.end(), embedded.begin(), embedded.end());
  auto lists = validate_list_sets_and_maps(obj, schema);
  out.insert(out.end(), lists.begin(), lists.end());
  return out;
}

}  // namespace capstan::apiserver::schema
