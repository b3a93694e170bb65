#include "apiserver/typed/check.h"

#include "runtime/gofmt/gofmt.h"
#include "apiserver/typed/go_names.h"
#include "apiserver/typed/special.h"

#include <algorithm>
#include <limits>
#include <set>

namespace capstan::apiserver::typed {
namespace {

// Messages that embed metav1.TypeMeta (every kind; a PersistentVolumeClaim is also a
// StatefulSet's volumeClaimTemplates element): apiVersion and kind are fields of theirs.
bool has_type_meta(const schema::Message& m) {
  static const std::set<const schema::Message*> kinds = [] {
    std::set<const schema::Message*> s;
    for (const auto& k : schema::kinds()) s.insert(k.message);
    return s;
  }();
  return kinds.contains(&m);
}

// The field of `m` (or of a message it inlines) with this JSON name.
const schema::Field* find_field(const schema::Message& m, std::string_view json) {
  for (const auto& f : m.fields) {
    if (f.inlined()) {
      if (const auto* g = find_field(*f.message, json)) return g;
    } else if (f.json == json) {
      return &f;
    }
  }
  return nullptr;
}

void schema_order(const schema::Message& m, std::vector<std::string_view>& out) {
  for (const auto& f : m.fields) {
    if (f.inlined()) schema_order(*f.message, out);
    else out.push_back(f.json);
  }
}

std::string smd_value(const json::Value& v) {
  if (v.is_string()) return gofmt::quote(v.get_string());
  return gofmt::format_v(v);
}

class Walker {
 public:
  explicit Walker(const Options& o) : o_(o) {}

  void message(json::Value& v, const schema::Message& m) {
    auto& obj = v.as_object();
    std::vector<std::string> keys;
    keys.reserve(obj.size());
    for (const auto& kv : obj) keys.emplace_back(kv.key());
    if (o_.order == Options::Order::Sorted) {
      std::sort(keys.begin(), keys.end());
    } else if (o_.order == Options::Order::Schema) {
      std::vector<std::string_view> order;
      if (has_type_meta(m)) order = {"kind", "apiVersion"};
      schema_order(m, order);
      std::stable_sort(keys.begin(), keys.end(), [&](const std::string& a, const std::string& b) {
        auto ia = std::find(order.begin(), order.end(), a) - order.begin();
        auto ib = std::find(order.begin(), order.end(), b) - order.begin();
        return ia < ib;
      });
    }
    for (const auto& key : keys) {
      auto it = obj.find(key);
      if (it == obj.end()) continue;
      push_field(key);
      if (has_type_meta(m) && (key == "apiVersion" || key == "kind")) {
        static constexpr schema::Field kTypeMetaString = schema::str(0, "", schema::kNoFlags);
        scalar(it->value(), kTypeMetaString, m);
      } else if (const auto* f = find_field(m, key)) {
        field(it->value(), *f, m);
      } else {
        Issue i;
        i.kind = Issue::Kind::UnknownField;
        i.path = path_;
        issues_.push_back(std::move(i));
        if (o_.prune) obj.erase(it);
      }
      pop();
    }
  }

  std::vector<Issue> take() { return std::move(issues_); }

 private:
  void field(json::Value& v, const schema::Field& f, const schema::Message& owner) {
    if (v.is_null()) return;
    if (f.card == schema::Card::Repeated) {
      if (!v.is_array()) return wrong(v, Dest::Slice, f, owner, go_field_type(f, owner));
      auto& arr = v.as_array();
      lt_path_.push_back(std::string(patch::kListElement));
      patch::ListType lt = o_.list_types ? o_.list_types->at(parent_lt_path()) : patch::ListType{};
      for (std::size_t i = 0; i < arr.size(); ++i) {
        Step s{Step::Kind::Index, {}, i, {}};
        if (o_.list_types) s.label = element_label(lt, arr[i], i);
        path_.push_back(std::move(s));
        single(arr[i], f, owner);
        path_.pop_back();
      }
      lt_path_.pop_back();
      return;
    }
    if (f.card == schema::Card::Map) {
      if (!v.is_object()) return wrong(v, Dest::Map, f, owner, go_field_type(f, owner));
      for (auto& kv : v.as_object()) {
        path_.push_back(Step{Step::Kind::Key, std::string(kv.key()), 0, {}});
        lt_path_.push_back(std::string(kv.key()));
        single(kv.value(), f, owner);
        lt_path_.pop_back();
        path_.pop_back();
      }
      return;
    }
    single(v, f, owner);
  }

  void single(json::Value& v, const schema::Field& f, const schema::Message& owner) {
    if (v.is_null()) return;
    if (f.type != schema::Type::Message) return scalar(v, f, owner);
    const auto& m = *f.message;
    if (m.special != schema::Special::None) return special(v, f, owner);
    if (!v.is_object()) return wrong(v, Dest::Struct, f, owner, go_qualified_name(m));
    message(v, m);
  }

  void scalar(const json::Value& v, const schema::Field& f, const schema::Message& owner) {
    switch (f.type) {
      case schema::Type::String:
        if (!v.is_string()) wrong(v, Dest::Scalar, f, owner, "string");
        return;
      case schema::Type::Bytes:
        if (!v.is_string()) return wrong(v, Dest::Scalar, f, owner, "[]byte");
        if (auto e = base64_error(v.get_string())) bad(v, Dest::Scalar, f, owner, *e, false);
        return;
      case schema::Type::Bool:
        if (!v.is_bool()) wrong(v, Dest::Scalar, f, owner, "bool");
        return;
      case schema::Type::Int32:
        if (!fits_int(v, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()))
          wrong(v, Dest::Scalar, f, owner, "int32");
        return;
      case schema::Type::Int64:
        if (!fits_int(v, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()))
          wrong(v, Dest::Scalar, f, owner, "int64");
        return;
      case schema::Type::Double:
      case schema::Type::Float:
        if (!v.is_number()) wrong(v, Dest::Scalar, f, owner, f.type == schema::Type::Double ? "float64" : "float32");
        return;
      case schema::Type::Message: return;
    }
  }

  static bool fits_int(const json::Value& v, std::int64_t lo, std::int64_t hi) {
    if (v.is_int64()) return v.get_int64() >= lo && v.get_int64() <= hi;
    if (v.is_uint64()) return hi == std::numeric_limits<std::int64_t>::max() ? false : v.get_uint64() <= static_cast<std::uint64_t>(hi);
    return false;  // doubles (a fraction or exponent in the literal) fail strconv.ParseInt
  }

  void special(json::Value& v, const schema::Field& f, const schema::Message& owner) {
    const auto sp = f.message->special;
    auto as_string_or = [&](std::string_view go_type) -> const json::String* {
      if (v.is_string()) return &v.get_string();
      wrong(v, Dest::Special, f, owner, std::string(go_type), true);
      return nullptr;
    };
    switch (sp) {
      case schema::Special::Time:
      case schema::Special::MicroTime:
        if (const auto* s = as_string_or("string")) {
          if (auto e = time_parse_error(sp == schema::Special::Time ? kRFC3339 : kRFC3339Micro, *s))
            bad(v, Dest::Special, f, owner, *e, true);
        }
        return;
      case schema::Special::Duration:
        if (const auto* s = as_string_or("string")) {
          if (auto e = duration_parse_error(*s)) bad(v, Dest::Special, f, owner, *e, true);
        }
        return;
      case schema::Special::Quantity: {
        // Quantity.UnmarshalJSON parses the raw JSON text (quotes stripped, spaces trimmed).
        std::string text;
        if (v.is_string()) text = std::string(v.get_string());
        else if (v.is_number()) text = gofmt::json_marshal(v);
        else text = gofmt::json_marshal(v);
        auto b = text.find_first_not_of(" \t\r\n"), e = text.find_last_not_of(" \t\r\n");
        text = b == std::string::npos ? std::string() : text.substr(b, e - b + 1);
        if (auto err = quantity_parse_error(text)) bad(v, Dest::Special, f, owner, *err, true);
        return;
      }
      case schema::Special::IntOrString:
        // IntOrString.UnmarshalJSON: a string, or else json.Unmarshal into its int32.
        if (v.is_string()) return;
        if (!fits_int(v, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()))
          wrong(v, Dest::Special, f, owner, "int32", true);
        return;
      case schema::Special::StringList:
        if (!v.is_array()) return wrong(v, Dest::Special, f, owner, go_qualified_name(*f.message), false);
        for (std::size_t i = 0; i < v.as_array().size(); ++i) {
          const auto& e = v.as_array()[i];
          if (e.is_string() || e.is_null()) continue;
          path_.push_back(Step{Step::Kind::Index, {}, i, {}});
          wrong(e, Dest::Special, f, owner, "string", false);
          path_.pop_back();
        }
        return;
      case schema::Special::RawExtension:
      case schema::Special::FieldsV1:
      case schema::Special::None: return;
    }
  }

  void wrong(const json::Value& v, Dest dest, const schema::Field& f, const schema::Message& owner, std::string go_type,
             bool aborts = false) {
    Issue i;
    i.kind = Issue::Kind::WrongType;
    fill(i, v, dest, f, owner);
    i.go_type = std::move(go_type);
    i.aborts = aborts;
    issues_.push_back(std::move(i));
  }

  void bad(const json::Value& v, Dest dest, const schema::Field& f, const schema::Message& owner, std::string message,
           bool aborts) {
    Issue i;
    i.kind = Issue::Kind::BadValue;
    fill(i, v, dest, f, owner);
    i.message = std::move(message);
    i.aborts = aborts;
    issues_.push_back(std::move(i));
  }

  void fill(Issue& i, const json::Value& v, Dest dest, const schema::Field& f, const schema::Message& owner) {
    i.path = path_;
    i.value = v;
    i.dest = dest;
    i.scalar = f.type;
    if (f.type == schema::Type::Message) i.special = f.message->special;
    i.go_struct = std::string(go_struct_name(owner));
  }

  void push_field(const std::string& name) {
    path_.push_back(Step{Step::Kind::Field, name, 0, {}});
    lt_path_.push_back(name);
  }
  void pop() {
    path_.pop_back();
    lt_path_.pop_back();
  }
  patch::FieldPath parent_lt_path() const { return patch::FieldPath(lt_path_.begin(), lt_path_.end() - 1); }

  // structured-merge-diff's PathElement for a list element: key fields for associative lists,
  // the index otherwise.
  static std::string element_label(const patch::ListType& lt, const json::Value& e, std::size_t i) {
    if (lt.kind != patch::ListKind::Map || lt.keys.empty() || !e.is_object()) return "[" + std::to_string(i) + "]";
    std::string out = "[";
    for (std::size_t k = 0; k < lt.keys.size(); ++k) {
      const auto& key = lt.keys[k];
      const json::Value* kv = e.as_object().if_contains(key);
      if (!kv) kv = lt.key_defaults.if_contains(key);
      if (k) out += ",";
      out += key + "=" + (kv ? smd_value(*kv) : std::string("null"));
    }
    return out + "]";
  }

  const Options& o_;
  std::vector<Step> path_;
  std::vector<std::string> lt_path_;  // the same path as patch::FieldPath (elements as "[]")
  std::vector<Issue> issues_;
};

}  // namespace

std::vector<Issue> check(json::Value& obj, const schema::Message& m, const Options& o) {
  if (!obj.is_object()) return {};
  Walker w(o);
  w.message(obj, m);
  return w.take();
}

namespace {
// A kind without a table: only its metadata is known.
using schema::Message;
PB_MESSAGE(kMetadataOnly, "k8s.io.api.unknown.v1.Object", schema::msg(1, "metadata", schema::kObjectMeta));
}  // namespace

std::vector<Issue> check_metadata(json::Value& obj, std::string_view kind, const Options& o) {
  auto* top = obj.if_object();
  if (!top) return {};
  auto it = top->find("metadata");
  if (it == top->end()) return {};
  json::Value holder = json::Object{{"metadata", std::move(it->value())}};
  Walker w(o);
  w.message(holder, kMetadataOnly);
  it = top->find("metadata");
  it->value() = std::move(holder.as_object()["metadata"]);
  auto issues = w.take();
  for (auto& i : issues)
    if (i.go_struct == "Object") i.go_struct = std::string(kind);
  return issues;
}

const schema::Message* kind_message(std::string_view api_version, std::string_view kind) {
  if (kind == "DeleteOptions") return nullptr;
  return schema::find_kind(api_version, kind);
}

}  // namespace capstan::apiserver::typed
