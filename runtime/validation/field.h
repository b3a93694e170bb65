// Field-level validation errors, rendered exactly as k8s.io/apimachinery/pkg/util/validation/field
// (v0.32) does: Error() = "<field>: <body>", body = "<type string>[: <bad value>][: <detail>]".
// A Status cause carries reason = the error type, field = the path, message = the body.
#pragma once

#include "runtime/json/json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::validation {

// metav1.CauseType values (field.ErrorType).
namespace reason {
inline constexpr std::string_view kNotFound = "FieldValueNotFound";
inline constexpr std::string_view kRequired = "FieldValueRequired";
inline constexpr std::string_view kDuplicate = "FieldValueDuplicate";
inline constexpr std::string_view kInvalid = "FieldValueInvalid";
inline constexpr std::string_view kNotSupported = "FieldValueNotSupported";
inline constexpr std::string_view kForbidden = "FieldValueForbidden";
inline constexpr std::string_view kTooLong = "FieldValueTooLong";
inline constexpr std::string_view kTooMany = "FieldValueTooMany";
inline constexpr std::string_view kInternal = "InternalError";
inline constexpr std::string_view kTypeInvalid = "FieldValueTypeInvalid";
}  // namespace reason

struct Cause {
  std::string reason;   // "FieldValueInvalid", ...
  std::string field;    // "spec.items[2].name"; "<nil>" when upstream has no path
  std::string message;  // field.Error.ErrorBody(): `Invalid value: "x": spec.x in body should match '^a$'`

  // field.Error.Error(): "<field>: <message>"; this is what the 422 Status message aggregates.
  std::string error() const { return field + ": " + message; }
  bool operator==(const Cause&) const = default;
};

// Each cause's error() (the lines of a denial or a condition message), in order.
std::vector<std::string> errors(const std::vector<Cause>& causes);

// field.Path rendering: Child appends ".name" (no dot at the root), Index/Key append "[i]"/"[k]".
// An empty Path stands for Go's nil *field.Path and prints "<nil>".
class FieldPath {
 public:
  FieldPath() = default;
  explicit FieldPath(std::string_view root) : s_(root), nil_(false) {}
  FieldPath child(std::string_view name) const;
  FieldPath index(std::size_t i) const;
  FieldPath key(std::string_view k) const;
  bool is_nil() const { return nil_; }
  std::string str() const { return nil_ ? "<nil>" : s_; }

 private:
  std::string s_;
  bool nil_ = true;
};

// A bad value as field.Error.BadValue holds it. `omit` is field's omitValue (prints nothing).
struct BadValue {
  json::Value value;  // null prints as "null" (quoted), like ErrorBody does for nil
  bool omit = false;
  static BadValue omitted() { return BadValue{json::Value(), true}; }
};

// The field.* constructors. Values are JSON values as the apiextensions decoder holds them
// (int64 -> Go int64, double/uint64 -> float64).
Cause field_required(const FieldPath& p, std::string_view detail = {});
Cause field_forbidden(const FieldPath& p, std::string_view detail);
Cause field_invalid(const FieldPath& p, const json::Value& value, std::string_view detail);
Cause field_type_invalid(const FieldPath& p, const json::Value& value, std::string_view detail);
Cause field_duplicate(const FieldPath& p, const json::Value& value);
Cause field_not_supported(const FieldPath& p, const json::Value& value,
                          const std::vector<std::string>& valid_values);
// field.TooLong (1.32 merged TooLongMaxLength into it): "may not be more than N bytes", or
// "value is too long" when max < 0.
Cause field_too_long(const FieldPath& p, std::int64_t max_length);
// field.TooMany: "Too many: <actual>: must have at most N items" (actual < 0 omits the value).
Cause field_too_many(const FieldPath& p, std::int64_t actual, std::int64_t max);
Cause field_internal(const FieldPath& p, std::string_view detail);
// field.Invalid with a bad value already rendered the Go way (e.g. `[]string{"a", "b"}` for a
// []string, which JSON values cannot express).
Cause field_invalid_rendered(const FieldPath& p, std::string_view rendered_value, std::string_view detail);

// field.Error.ErrorBody() for a given type, bad value and detail.
std::string error_body(std::string_view reason, const BadValue& value, std::string_view detail);
// ErrorType.String(): "Invalid value", "Required value", ...
std::string_view reason_string(std::string_view reason);

}  // namespace capstan::validation
