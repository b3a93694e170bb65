// One codec for every API group: a struct lists its fields once, in a table (JSON name, member,
// OpenAPI schema, required or not), and the table gives the decoder, the encoder and the CRD
// schema, as a Go type's json tags and kubebuilder markers give controller-gen and encoding/json
// theirs.
//
//   struct IssuerReference {
//     std::string name, kind, group;
//     CAPSTAN_CODEC(IssuerReference);  // from_json(v, path), to_json(), schema()
//   };
//
//   const auto& issuer_ref_fields() {
//     static const auto table = codec::table<IssuerReference>("Reference to the issuer.",
//         codec::field("name", &IssuerReference::name, Schema::string("Name of the issuer.")).required(),
//         codec::field("kind", &IssuerReference::kind, Schema::string("Issuer or ClusterIssuer.")),
//         codec::field("group", &IssuerReference::group, Schema::string("API group of the issuer.")));
//     return table;
//   }
//   CAPSTAN_CODEC_FROM(IssuerReference, issuer_ref_fields)  // defines the three from the table
//
// Kinds that share members list them once: field<Derived>("path", &Base::path, ...) in a
// template, joined to each kind's own fields with std::tuple_cat (apis/monitoring/v1/monitors.cpp).
//
// Member types: std::string, bool, std::int32_t, std::int64_t, double, std::chrono durations (Go duration
// strings), meta::TimePoint (RFC 3339), meta::Condition, json::Value and json::Object (kept as
// written), std::optional, std::vector and std::map<std::string, _> of those, and any struct with
// from_json/to_json (its own table). A std::string whose schema has `format: byte` is base64 on the
// wire ([]byte in Go).
//
// Decoding is Go's: a missing or null member leaves the member's initial value, unknown members
// are ignored, and a member of the wrong type throws DecodeError naming its path
// ("spec.privateKey.size: expected an integer, got string"). Encoding is `omitempty`: empty
// strings, false, 0, empty lists and maps, nullopt and empty structs are left out unless the field
// is required or marked always(). A field whose schema type does not match its member's type is
// refused when the table is built (std::logic_error), so one unit test building the CRDs catches
// the mismatch.
#pragma once

#include "apis/common/openapi.h"
#include "runtime/json/json.h"
#include "runtime/meta/object.h"
#include "runtime/meta/time.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

// Declares the members a struct with a field table has: T::from_json(value, path), to_json()
// and T::schema().
#define CAPSTAN_CODEC(T)                                                      \
  static T from_json(const ::capstan::json::Value& v, std::string_view path); \
  ::capstan::json::Value to_json() const;                                     \
  static ::capstan::apis::openapi::Schema schema()

namespace capstan::apis::codec {

// A member has the wrong JSON type or an unparsable value (Go duration, RFC 3339 time, base64).
// The message starts with the field path: `spec.duration: time: unknown unit "d" in duration "90d"`.
// Objects admitted by the webhooks and CRD schemas never throw; a controller reports an object
// that does (it was written around them) on that object and goes on with the others.
class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Field paths as the API server writes them: "spec.issuerRef.name", "spec.dnsNames[2]".
std::string child(std::string_view path, std::string_view name);
std::string index(std::string_view path, std::size_t i);
[[noreturn]] void wrong_type(std::string_view path, std::string_view expected, const json::Value& got);

// strconv.Quote for the texts we produce: double quotes, backslash escapes for quotes, backslashes
// and control characters; printable UTF-8 kept.
std::string go_quote(std::string_view s);
// Why Go's time.ParseDuration rejects `s` ("time: unknown unit \"d\" in duration \"90d\""), or
// empty when it parses.
std::string go_duration_error(std::string_view s);

// How one member type travels: decode (v is neither missing nor null), encode, emptiness for
// omitempty (empty(value), or kEmptyWhenEncodedEmpty), and the OpenAPI type its schema must have
// ("" = any).
template <class T>
struct Codec {  // structs with their own table
  static void decode(const json::Value& v, std::string_view path, T& out) { out = T::from_json(v, path); }
  static json::Value encode(const T& t) { return t.to_json(); }
  // Empty when its encoding is {}: judged on the encoding, so it is encoded only once
  // (detail::encode_unless_empty).
  static constexpr bool kEmptyWhenEncodedEmpty = true;
  static constexpr std::string_view kType = "object";
};

template <>
struct Codec<std::string> {
  static void decode(const json::Value& v, std::string_view path, std::string& out);
  static json::Value encode(const std::string& s) { return json::Value(s); }
  static bool empty(const std::string& s) { return s.empty(); }
  static constexpr std::string_view kType = "string";
};

template <>
struct Codec<bool> {
  static void decode(const json::Value& v, std::string_view path, bool& out);
  static json::Value encode(bool b) { return json::Value(b); }
  static bool empty(bool b) { return !b; }
  static constexpr std::string_view kType = "boolean";
};

template <>
struct Codec<std::int64_t> {
  static void decode(const json::Value& v, std::string_view path, std::int64_t& out);
  static json::Value encode(std::int64_t n) { return json::Value(n); }
  static bool empty(std::int64_t n) { return n == 0; }
  static constexpr std::string_view kType = "integer";
};

template <>
struct Codec<std::int32_t> {
  static void decode(const json::Value& v, std::string_view path, std::int32_t& out);
  static json::Value encode(std::int32_t n) { return json::Value(n); }
  static bool empty(std::int32_t n) { return n == 0; }
  static constexpr std::string_view kType = "integer";
};

template <>
struct Codec<double> {
  static void decode(const json::Value& v, std::string_view path, double& out);
  static json::Value encode(double d) { return json::Value(d); }
  static bool empty(double d) { return d == 0; }
  static constexpr std::string_view kType = "number";
};

void decode_duration(const json::Value& v, std::string_view path, std::chrono::nanoseconds& out);

template <class Rep, class Period>
struct Codec<std::chrono::duration<Rep, Period>> {
  using D = std::chrono::duration<Rep, Period>;
  static void decode(const json::Value& v, std::string_view path, D& out) {
    std::chrono::nanoseconds ns{};
    decode_duration(v, path, ns);
    out = std::chrono::duration_cast<D>(ns);
  }
  static json::Value encode(const D& d) {
    return json::Value(meta::format_go_duration(std::chrono::duration_cast<std::chrono::nanoseconds>(d)));
  }
  static bool empty(const D& d) { return d.count() == 0; }
  static constexpr std::string_view kType = "string";
};

template <>
struct Codec<meta::TimePoint> {
  static void decode(const json::Value& v, std::string_view path, meta::TimePoint& out);
  static json::Value encode(const meta::TimePoint& t) { return json::Value(meta::format_rfc3339(t)); }
  static bool empty(const meta::TimePoint& t) { return t.time_since_epoch().count() == 0; }
  static constexpr std::string_view kType = "string";
};

// metav1.Condition: {type, status, lastTransitionTime, reason, message, observedGeneration};
// observedGeneration 0 is left out.
template <>
struct Codec<meta::Condition> {
  static void decode(const json::Value& v, std::string_view path, meta::Condition& out);
  static json::Value encode(const meta::Condition& c);
  static bool empty(const meta::Condition&) { return false; }
  static constexpr std::string_view kType = "object";
};

template <>
struct Codec<json::Value> {  // kept as written (open schemas, int-or-string)
  static void decode(const json::Value& v, std::string_view, json::Value& out) { out = v; }
  static json::Value encode(const json::Value& v) { return v; }
  static bool empty(const json::Value& v) { return v.is_null(); }
  static constexpr std::string_view kType = "";
};

template <>
struct Codec<json::Object> {
  static void decode(const json::Value& v, std::string_view path, json::Object& out);
  static json::Value encode(const json::Object& o) { return json::Value(o); }
  static bool empty(const json::Object& o) { return o.empty(); }
  static constexpr std::string_view kType = "object";
};

template <class T>
struct Codec<std::optional<T>> {  // Go's pointer fields: present even when zero
  static void decode(const json::Value& v, std::string_view path, std::optional<T>& out) {
    T t{};
    Codec<T>::decode(v, path, t);
    out = std::move(t);
  }
  static json::Value encode(const std::optional<T>& t) { return t ? Codec<T>::encode(*t) : json::Value(); }
  static bool empty(const std::optional<T>& t) { return !t.has_value(); }
  static constexpr std::string_view kType = Codec<T>::kType;
};

template <class T>
struct Codec<std::vector<T>> {
  static void decode(const json::Value& v, std::string_view path, std::vector<T>& out) {
    if (!v.is_array()) wrong_type(path, "an array", v);
    const auto& a = v.get_array();
    out.clear();
    out.reserve(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      T t{};
      if (!a[i].is_null()) Codec<T>::decode(a[i], index(path, i), t);
      out.push_back(std::move(t));
    }
  }
  static json::Value encode(const std::vector<T>& v) {
    json::Array a;
    a.reserve(v.size());
    for (const auto& t : v) a.push_back(Codec<T>::encode(t));
    return a;
  }
  static bool empty(const std::vector<T>& v) { return v.empty(); }
  static constexpr std::string_view kType = "array";
};

template <class T>
struct Codec<std::map<std::string, T>> {
  static void decode(const json::Value& v, std::string_view path, std::map<std::string, T>& out) {
    if (!v.is_object()) wrong_type(path, "an object", v);
    out.clear();
    for (const auto& kv : v.get_object()) {
      T t{};
      if (!kv.value().is_null()) Codec<T>::decode(kv.value(), std::string(path) + "[" + std::string(kv.key()) + "]", t);
      out.emplace(std::string(kv.key()), std::move(t));
    }
  }
  static json::Value encode(const std::map<std::string, T>& m) {
    json::Object o;
    for (const auto& [k, t] : m) o[k] = Codec<T>::encode(t);
    return o;
  }
  static bool empty(const std::map<std::string, T>& m) { return m.empty(); }
  static constexpr std::string_view kType = "object";
};

namespace detail {
// Checks that `schema`'s type is `expected` (throws std::logic_error naming the field otherwise)
// and returns whether it is a base64 (`format: byte`) string.
bool check_schema(std::string_view field, const openapi::Schema& schema, std::string_view expected);
void decode_bytes(const json::Value& v, std::string_view path, std::string& out);
json::Value encode_bytes(const std::string& data);
// The member encoded, or nullopt when omitempty leaves it out.
template <class M>
std::optional<json::Value> encode_unless_empty(const M& m) {
  if constexpr (requires { Codec<M>::kEmptyWhenEncodedEmpty; }) {
    json::Value v = Codec<M>::encode(m);
    if (v.is_object() && v.get_object().empty()) return std::nullopt;
    return v;
  } else {
    if (Codec<M>::empty(m)) return std::nullopt;
    return Codec<M>::encode(m);
  }
}
// The member of an object, or nullptr when it is missing or null.
const json::Value* member(const json::Object& o, std::string_view name);
const json::Object& as_object(const json::Value& v, std::string_view path);
}  // namespace detail

// One field of struct S: member `member` is `name` on the wire, described by `schema`.
template <class S, class M>
class Field {
 public:
  Field(std::string_view name, M S::*member, openapi::Schema schema)
      : name_(name), member_(member), schema_(std::move(schema)) {
    base64_ = detail::check_schema(name_, schema_, Codec<M>::kType);
    if (base64_ && !std::is_same_v<M, std::string>) throw std::logic_error(std::string(name_) + ": format byte needs a std::string member");
  }
  // Listed in the schema's `required`, and encoded even when empty.
  Field&& required() && {
    required_ = true;
    return std::move(*this);
  }

  // Encoded even when empty, without being required (a Go field without omitempty).
  Field&& always() && {
    always_ = true;
    return std::move(*this);
  }

  std::string_view name() const { return name_; }
  bool is_required() const { return required_; }
  const openapi::Schema& schema() const { return schema_; }

  void decode(const json::Object& o, std::string_view path, S& s) const {
    const json::Value* v = detail::member(o, name_);
    if (!v) return;
    if constexpr (std::is_same_v<M, std::string>) {
      if (base64_) return detail::decode_bytes(*v, child(path, name_), s.*member_);
    }
    Codec<M>::decode(*v, child(path, name_), s.*member_);
  }
  void encode(const S& s, json::Object& o) const {
    const M& m = s.*member_;
    const bool keep = required_ || always_;
    if constexpr (std::is_same_v<M, std::string>) {
      if (base64_) {
        if (keep || !m.empty()) o[name_] = detail::encode_bytes(m);
        return;
      }
    }
    if (keep) o[name_] = Codec<M>::encode(m);
    else if (auto v = detail::encode_unless_empty(m)) o[name_] = std::move(*v);
  }

 private:
  std::string_view name_;
  M S::*member_;
  openapi::Schema schema_;
  bool required_ = false;
  bool always_ = false;
  bool base64_ = false;
};

template <class S, class M>
Field<S, M> field(std::string_view name, M S::*member, openapi::Schema schema) {
  return Field<S, M>(name, member, std::move(schema));
}

// A field of S that a base of S declares: field<Derived>("path", &Base::path, ...), so that
// kinds sharing members (a ServiceMonitor's and a PodMonitor's endpoints) list them once.
template <class S, class M, class B>
  requires(std::is_base_of_v<B, S> && !std::is_same_v<B, S>)
Field<S, M> field(std::string_view name, M B::*member, openapi::Schema schema) {
  return Field<S, M>(name, static_cast<M S::*>(member), std::move(schema));
}

// The fields of struct S, in wire and schema order.
template <class S, class... F>
class Table {
 public:
  Table(std::string_view description, F... fields) : description_(description), fields_(std::move(fields)...) {}

  // Null decodes as S{}; anything but an object throws.
  S decode(const json::Value& v, std::string_view path) const {
    S s{};
    decode_into(v, path, s);
    return s;
  }
  // Decodes over `s`, keeping what `v` does not set.
  void decode_into(const json::Value& v, std::string_view path, S& s) const {
    const json::Object& o = detail::as_object(v, path);
    std::apply([&](const auto&... f) { (f.decode(o, path, s), ...); }, fields_);
  }
  json::Value encode(const S& s) const {
    json::Object o;
    std::apply([&](const auto&... f) { (f.encode(s, o), ...); }, fields_);
    return o;
  }
  // What the object's schema has beyond its fields: CEL rules across them, a bound on its members.
  Table&& object(std::function<void(openapi::Schema&)> extras) && {
    extras_ = std::move(extras);
    return std::move(*this);
  }
  // An object with the fields as properties and the required ones listed.
  openapi::Schema schema() const {
    auto schema = openapi::Schema::object(description_);
    std::apply([&](const auto&... f) { (schema.property(f.name(), f.schema()), ...); }, fields_);
    std::apply([&](const auto&... f) { ((f.is_required() ? (void)schema.required({f.name()}) : (void)0), ...); }, fields_);
    if (extras_) extras_(schema);
    return schema;
  }

 private:
  std::string_view description_;
  std::tuple<F...> fields_;
  std::function<void(openapi::Schema&)> extras_;
};

// Defines T's from_json, to_json and schema from the table `fields()` returns.
#define CAPSTAN_CODEC_FROM(T, fields)                                                                               \
  T T::from_json(const ::capstan::json::Value& v, std::string_view path) { return fields().decode(v, path); }     \
  ::capstan::json::Value T::to_json() const { return fields().encode(*this); }                                     \
  ::capstan::apis::openapi::Schema T::schema() { return fields().schema(); }

template <class S, class... M>
Table<S, Field<S, M>...> table(std::string_view description, Field<S, M>... fields) {
  return Table<S, Field<S, M>...>(description, std::move(fields)...);
}

// The same from a tuple of fields (std::tuple_cat of the ones kinds share and their own).
template <class S, class... M>
Table<S, Field<S, M>...> table(std::string_view description, std::tuple<Field<S, M>...> fields) {
  return std::apply([&](auto&&... f) { return Table<S, Field<S, M>...>(description, std::move(f)...); }, std::move(fields));
}

// A whole object of a kind: kind and metadata kept as written, spec and status typed. apiVersion
// is not checked when decoding (the informer or the AdmissionReview has); kind is kept for kinds
// that share a type (Issuer and ClusterIssuer).
template <class Spec, class Status>
struct Resource {
  std::string kind;  // "" when absent
  json::Object metadata;
  Spec spec;
  Status status;

  static Resource from_json(const json::Value& obj) {
    const json::Object& o = detail::as_object(obj, "object");
    Resource r;
    if (const auto* k = detail::member(o, "kind")) Codec<std::string>::decode(*k, "kind", r.kind);
    if (const auto* m = detail::member(o, "metadata")) Codec<json::Object>::decode(*m, "metadata", r.metadata);
    if (const auto* s = detail::member(o, "spec")) r.spec = Spec::from_json(*s, "spec");
    if (const auto* s = detail::member(o, "status")) r.status = Status::from_json(*s, "status");
    return r;
  }
  // {apiVersion, kind (`default_kind` when kind is empty), metadata, spec, status}; the status
  // is left out when empty.
  json::Value to_json(std::string_view api_version, std::string_view default_kind) const {
    json::Object o{{"apiVersion", api_version}, {"kind", kind.empty() ? default_kind : std::string_view(kind)}, {"metadata", metadata},
                   {"spec", spec.to_json()}};
    if (auto s = detail::encode_unless_empty(status)) o["status"] = std::move(*s);
    return o;
  }
  std::string_view name() const { return string_member("name"); }
  std::string_view namespace_() const { return string_member("namespace"); }

 private:
  std::string_view string_member(std::string_view key) const {
    const auto* v = metadata.if_contains(key);
    return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
  }
};

}  // namespace capstan::apis::codec
