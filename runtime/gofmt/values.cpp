// Go's renderings of whole decoded values: %v, %#v, reflect type names and encoding/json.
#include "runtime/gofmt/detail.h"
#include "runtime/gofmt/gofmt.h"

#include <algorithm>
#include <vector>

namespace capstan::gofmt {
namespace {

// The dynamic Go type a decoded value has.
enum class GoType { Nil, Bool, Int64, Float64, String, Slice, Map };

GoType go_type(const json::Value& v, Numbers numbers) {
  switch (v.kind()) {
    case boost::json::kind::null: return GoType::Nil;
    case boost::json::kind::bool_: return GoType::Bool;
    case boost::json::kind::int64: return numbers == Numbers::kPreserveInts ? GoType::Int64 : GoType::Float64;
    case boost::json::kind::uint64:
    case boost::json::kind::double_: return GoType::Float64;
    case boost::json::kind::string: return GoType::String;
    case boost::json::kind::array: return GoType::Slice;
    case boost::json::kind::object: return GoType::Map;
  }
  return GoType::Nil;
}

// Go prints (fmt, since 1.12) and marshals maps in key order.
std::vector<const json::Object::value_type*> sorted_members(const json::Object& o) {
  std::vector<const json::Object::value_type*> members;
  members.reserve(o.size());
  for (const auto& kv : o) members.push_back(&kv);
  std::sort(members.begin(), members.end(),
            [](auto* a, auto* b) { return std::string_view(a->key()) < std::string_view(b->key()); });
  return members;
}

void append_v(std::string& out, const json::Value& v, Numbers numbers) {
  switch (go_type(v, numbers)) {
    case GoType::Nil: out += "<nil>"; return;
    case GoType::Bool: out += v.get_bool() ? "true" : "false"; return;
    case GoType::Int64: out += std::to_string(v.get_int64()); return;
    case GoType::Float64: out += format_float(as_float(v)); return;
    case GoType::String: out += std::string_view(v.get_string()); return;
    case GoType::Slice: {
      out += '[';
      bool first = true;
      for (const auto& e : v.get_array()) {
        if (!first) out += ' ';
        first = false;
        append_v(out, e, numbers);
      }
      out += ']';
      return;
    }
    case GoType::Map: {
      out += "map[";
      bool first = true;
      for (const auto* kv : sorted_members(v.get_object())) {
        if (!first) out += ' ';
        first = false;
        out += std::string_view(kv->key());
        out += ':';
        append_v(out, kv->value(), numbers);
      }
      out += ']';
      return;
    }
  }
}

void append_sharp_v(std::string& out, const json::Value& v, Numbers numbers, bool nested) {
  switch (go_type(v, numbers)) {
    case GoType::Nil: out += nested ? "interface {}(nil)" : "<nil>"; return;
    case GoType::String: out += quote(v.get_string()); return;
    case GoType::Slice: {
      out += "[]interface {}{";
      bool first = true;
      for (const auto& e : v.get_array()) {
        if (!first) out += ", ";
        first = false;
        append_sharp_v(out, e, numbers, true);
      }
      out += '}';
      return;
    }
    case GoType::Map: {
      out += "map[string]interface {}{";
      bool first = true;
      for (const auto* kv : sorted_members(v.get_object())) {
        if (!first) out += ", ";
        first = false;
        out += quote(kv->key());
        out += ':';
        append_sharp_v(out, kv->value(), numbers, true);
      }
      out += '}';
      return;
    }
    default: append_v(out, v, numbers); return;  // bool, int64, float64 print as with %v
  }
}

void append_json(std::string& out, const json::Value& v, Numbers numbers) {
  switch (go_type(v, numbers)) {
    case GoType::Nil: out += "null"; return;
    case GoType::Bool: out += v.get_bool() ? "true" : "false"; return;
    case GoType::Int64: out += std::to_string(v.get_int64()); return;
    case GoType::Float64: detail::append_json_float(out, as_float(v)); return;
    case GoType::String: detail::append_json_string(out, v.get_string()); return;
    case GoType::Slice: {
      out += '[';
      bool first = true;
      for (const auto& e : v.get_array()) {
        if (!first) out += ',';
        first = false;
        append_json(out, e, numbers);
      }
      out += ']';
      return;
    }
    case GoType::Map: {
      out += '{';
      bool first = true;
      for (const auto* kv : sorted_members(v.get_object())) {
        if (!first) out += ',';
        first = false;
        detail::append_json_string(out, kv->key());
        out += ':';
        append_json(out, kv->value(), numbers);
      }
      out += '}';
      return;
    }
  }
}

}  // namespace

std::string format_v(const json::Value& v, Numbers numbers) {
  std::string out;
  append_v(out, v, numbers);
  return out;
}

std::string sharp_v(const json::Value& v, Numbers numbers) {
  std::string out;
  append_sharp_v(out, v, numbers, false);
  return out;
}

std::string type_name(const json::Value& v, Numbers numbers) {
  switch (go_type(v, numbers)) {
    case GoType::Nil: return "<nil>";
    case GoType::Bool: return "bool";
    case GoType::Int64: return "int64";
    case GoType::Float64: return "float64";
    case GoType::String: return "string";
    case GoType::Slice: return "[]interface {}";
    case GoType::Map: return "map[string]interface {}";
  }
  return "<nil>";
}

std::string json_marshal(const json::Value& v, Numbers numbers) {
  std::string out;
  append_json(out, v, numbers);
  return out;
}

}  // namespace capstan::gofmt
