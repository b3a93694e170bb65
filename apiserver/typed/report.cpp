#include "apiserver/typed/report.h"

#include "runtime/gofmt/gofmt.h"

namespace capstan::apiserver::typed {
namespace {

bool is_integer(schema::Type t) { return t == schema::Type::Int32 || t == schema::Type::Int64; }
bool is_numeric(schema::Type t) { return is_integer(t) || t == schema::Type::Double || t == schema::Type::Float; }

// The JSON value as encoding/json names it in an UnmarshalTypeError: a number that does not fit
// an integer is "number <literal>".
std::string json_value_name(const Issue& i) {
  const auto& v = i.value;
  if (v.is_number()) {
    bool integer_dest = (i.dest == Dest::Scalar && is_integer(i.scalar)) ||
                        (i.dest == Dest::Special && i.special == schema::Special::IntOrString);
    if (integer_dest) return "number " + gofmt::json_marshal(v);
    return "number";
  }
  return std::string(json::go_type_name(v));
}

std::string go_field_path(const std::vector<Step>& path) {
  std::string out;
  for (const auto& s : path) {
    if (s.kind != Step::Kind::Field) continue;
    if (!out.empty()) out += '.';
    out += s.name;
  }
  return out;
}

std::string strict_path(const std::vector<Step>& path) {
  std::string out;
  for (const auto& s : path) {
    if (s.kind == Step::Kind::Index) {
      out += "[" + std::to_string(s.index) + "]";
    } else {
      if (!out.empty()) out += '.';
      out += s.name;
    }
  }
  return out;
}

std::string smd_path(const std::vector<Step>& path) {
  std::string out;
  for (const auto& s : path) {
    if (s.kind == Step::Kind::Index) {
      out += s.label.empty() ? "[" + std::to_string(s.index) + "]" : s.label;
    } else {
      out += '.';
      out += s.name;
    }
  }
  return out;
}

std::string type_error(const Issue& i, bool with_context) {
  std::string field = go_field_path(i.path);
  if (!with_context || (i.go_struct.empty() && field.empty()))
    return "json: cannot unmarshal " + json_value_name(i) + " into Go value of type " + i.go_type;
  return "json: cannot unmarshal " + json_value_name(i) + " into Go struct field " + i.go_struct + "." + field + " of type " +
         i.go_type;
}

std::string decode_error(const Issue& i, bool with_context) {
  return i.kind == Issue::Kind::BadValue ? i.message : type_error(i, with_context);
}

// reflect.Kind of what the unstructured map holds for a JSON value.
std::string unstructured_kind(const json::Value& v) {
  switch (v.kind()) {
    case boost::json::kind::string: return "string";
    case boost::json::kind::bool_: return "bool";
    case boost::json::kind::int64: return "int64";
    case boost::json::kind::uint64:
    case boost::json::kind::double_: return "float64";
    case boost::json::kind::object: return "map";
    case boost::json::kind::array: return "slice";
    case boost::json::kind::null: return "invalid";
  }
  return "invalid";
}

std::string scalar_kind(schema::Type t) {
  switch (t) {
    case schema::Type::String: return "string";
    case schema::Type::Bool: return "bool";
    case schema::Type::Int32: return "int32";
    case schema::Type::Int64: return "int64";
    case schema::Type::Double: return "float64";
    case schema::Type::Float: return "float32";
    case schema::Type::Bytes: return "slice";
    case schema::Type::Message: return "struct";
  }
  return "invalid";
}

// The converter's verdict on one finding: its error, or nullopt where it accepts what
// encoding/json refuses (integers out of range wrap, integral floats convert).
std::optional<std::string> converter_verdict(const Issue& i) {
  if (i.kind == Issue::Kind::UnknownField) return std::nullopt;
  if (i.dest == Dest::Special || (i.dest == Dest::Scalar && i.scalar == schema::Type::Bytes && i.value.is_string()))
    return decode_error(i, false);  // custom unmarshalers get the value re-marshalled to JSON
  const auto& v = i.value;
  std::string src = unstructured_kind(v);
  switch (i.dest) {
    case Dest::Struct: return "cannot restore struct from: " + src;
    case Dest::Slice: return "cannot restore slice from " + src;
    case Dest::Map: return "cannot restore map from " + src;
    case Dest::Special: return std::nullopt;
    case Dest::Scalar: break;
  }
  if (i.scalar == schema::Type::Bytes) return "cannot restore slice from " + src;
  std::string dst = scalar_kind(i.scalar);
  if (v.is_int64()) {
    if (is_numeric(i.scalar)) return std::nullopt;
    if (i.scalar == schema::Type::String) return "cannot convert int64 to string";
  } else if (v.is_double() || v.is_uint64()) {
    if (is_numeric(i.scalar)) {
      double d = gofmt::as_float(v);
      if (!is_integer(i.scalar) || d == static_cast<double>(static_cast<long long>(d))) return std::nullopt;
      return "cannot convert float64 to " + dst;
    }
  }
  return "unrecognized type: " + dst;
}

// structured-merge-diff's message for one finding, or nullopt where its schema accepts the value
// (untyped scalars such as Time, Quantity and IntOrString; any number for a numeric field).
std::optional<std::string> smd_verdict(const Issue& i) {
  if (i.kind == Issue::Kind::UnknownField) return std::string("field not declared in schema");
  if (i.kind == Issue::Kind::BadValue || i.dest == Dest::Special) return std::nullopt;
  const auto& v = i.value;
  switch (i.dest) {
    case Dest::Struct:
    case Dest::Map: return "expected map, got &{" + gofmt::format_v(v) + "}";
    case Dest::Slice: return "expected list, got &{" + gofmt::format_v(v) + "}";
    case Dest::Special: return std::nullopt;
    case Dest::Scalar: break;
  }
  if (is_numeric(i.scalar)) {
    if (v.is_number()) return std::nullopt;
    return "expected numeric (int or float), got " + gofmt::type_name(v);
  }
  if (i.scalar == schema::Type::Bool) return "expected boolean, got &{" + gofmt::format_v(v) + "}";
  return "expected string, got &value.valueUnstructured{Value:" + gofmt::sharp_v(v) + "}";
}

}  // namespace

std::optional<std::string> go_json_error(const std::vector<Issue>& issues) {
  const Issue* first = nullptr;
  for (const auto& i : issues) {
    if (i.kind == Issue::Kind::UnknownField) continue;
    if (i.aborts) return decode_error(i, true);
    if (!first) first = &i;
  }
  if (first) return decode_error(*first, true);
  return std::nullopt;
}

std::vector<std::string> unknown_fields(const std::vector<Issue>& issues) {
  std::vector<std::string> out;
  for (const auto& i : issues)
    if (i.kind == Issue::Kind::UnknownField) out.push_back(strict_path(i.path));
  return out;
}

std::optional<std::string> converter_error(const std::vector<Issue>& issues) {
  for (const auto& i : issues)
    if (auto e = converter_verdict(i)) return e;
  return std::nullopt;
}

std::optional<std::string> smd_errors(const std::vector<Issue>& issues) {
  std::vector<std::string> errs;
  for (const auto& i : issues)
    if (auto e = smd_verdict(i)) {
      std::string line = smd_path(i.path);
      line += ": ";
      line += *e;
      errs.push_back(std::move(line));
    }
  if (errs.empty()) return std::nullopt;
  if (errs.size() == 1) return errs[0];
  std::string out = "errors:";
  for (const auto& e : errs) out += "\n  " + e;
  return out;
}

}  // namespace capstan::apiserver::typed
