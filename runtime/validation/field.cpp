#include "runtime/validation/field.h"

#include "runtime/gofmt/gofmt.h"

namespace capstan::validation {

FieldPath FieldPath::child(std::string_view name) const {
  FieldPath r;
  r.nil_ = false;
  if (nil_) {
    r.s_ = std::string(name);
  } else {
    r.s_ = s_;
    if (!name.empty()) {
      r.s_ += '.';
      r.s_ += name;
    }
  }
  return r;
}

FieldPath FieldPath::index(std::size_t i) const {
  FieldPath r;
  r.nil_ = false;
  r.s_ = (nil_ ? std::string() : s_) + "[" + std::to_string(i) + "]";
  return r;
}

FieldPath FieldPath::key(std::string_view k) const {
  FieldPath r;
  r.nil_ = false;
  r.s_ = (nil_ ? std::string() : s_) + "[" + std::string(k) + "]";
  return r;
}

std::string_view reason_string(std::string_view r) {
  if (r == reason::kNotFound) return "Not found";
  if (r == reason::kRequired) return "Required value";
  if (r == reason::kDuplicate) return "Duplicate value";
  if (r == reason::kInvalid) return "Invalid value";
  if (r == reason::kNotSupported) return "Unsupported value";
  if (r == reason::kForbidden) return "Forbidden";
  if (r == reason::kTooLong) return "Too long";
  if (r == reason::kTooMany) return "Too many";
  if (r == reason::kInternal) return "Internal error";
  if (r == reason::kTypeInvalid) return "Invalid value";
  return "Invalid value";
}

std::string error_body(std::string_view r, const BadValue& bad, std::string_view detail) {
  std::string s;
  // Required, Forbidden, TooLong and Internal never print the value.
  if (r == reason::kRequired || r == reason::kForbidden || r == reason::kTooLong ||
      r == reason::kInternal || bad.omit) {
    s = std::string(reason_string(r));
  } else {
    s = std::string(reason_string(r)) + ": ";
    const json::Value& v = bad.value;
    switch (v.kind()) {
      case boost::json::kind::null: s += "null"; break;  // json.Marshal(nil) since apimachinery 0.34
      case boost::json::kind::string: s += gofmt::quote(v.get_string()); break;
      case boost::json::kind::object:
      case boost::json::kind::array: s += gofmt::json_marshal(v); break;  // json.Marshal since apimachinery 0.34
      default: s += gofmt::format_v(v); break;
    }
  }
  if (!detail.empty()) {
    s += ": ";
    s += detail;
  }
  return s;
}

namespace {
Cause make(std::string_view r, const FieldPath& p, const BadValue& bad, std::string_view detail) {
  return Cause{std::string(r), p.str(), error_body(r, bad, detail)};
}
}  // namespace

Cause field_required(const FieldPath& p, std::string_view detail) {
  return make(reason::kRequired, p, BadValue{json::Value("")}, detail);
}

Cause field_forbidden(const FieldPath& p, std::string_view detail) {
  return make(reason::kForbidden, p, BadValue{json::Value("")}, detail);
}

Cause field_invalid(const FieldPath& p, const json::Value& value, std::string_view detail) {
  return make(reason::kInvalid, p, BadValue{value}, detail);
}

Cause field_type_invalid(const FieldPath& p, const json::Value& value, std::string_view detail) {
  return make(reason::kTypeInvalid, p, BadValue{value}, detail);
}

Cause field_duplicate(const FieldPath& p, const json::Value& value) {
  return make(reason::kDuplicate, p, BadValue{value}, {});
}

Cause field_not_supported(const FieldPath& p, const json::Value& value,
                          const std::vector<std::string>& valid_values) {
  std::string detail;
  if (!valid_values.empty()) {
    detail = "supported values: ";
    for (std::size_t i = 0; i < valid_values.size(); ++i) {
      if (i) detail += ", ";
      detail += gofmt::quote(valid_values[i]);
    }
  }
  return make(reason::kNotSupported, p, BadValue{value}, detail);
}

Cause field_too_long(const FieldPath& p, std::int64_t max_length) {
  std::string msg = max_length >= 0 ? "may not be more than " + std::to_string(max_length) + " bytes"
                                    : std::string("value is too long");
  return make(reason::kTooLong, p, BadValue{json::Value("<value omitted>")}, msg);
}

Cause field_too_many(const FieldPath& p, std::int64_t actual, std::int64_t max) {
  std::string msg = max >= 0 ? "must have at most " + std::to_string(max) + " items"
                             : std::string("has too many items");
  BadValue bad = actual >= 0 ? BadValue{json::Value(actual)} : BadValue::omitted();
  return make(reason::kTooMany, p, bad, msg);
}

Cause field_internal(const FieldPath& p, std::string_view detail) {
  return make(reason::kInternal, p, BadValue{json::Value()}, detail);
}

Cause field_invalid_rendered(const FieldPath& p, std::string_view rendered_value, std::string_view detail) {
  std::string body = std::string(reason_string(reason::kInvalid)) + ": " + std::string(rendered_value);
  if (!detail.empty()) body += ": " + std::string(detail);
  return Cause{std::string(reason::kInvalid), p.str(), body};
}


std::vector<std::string> errors(const std::vector<Cause>& causes) {
  std::vector<std::string> out;
  out.reserve(causes.size());
  for (const auto& c : causes) out.push_back(c.error());
  return out;
}

}  // namespace capstan::validation
