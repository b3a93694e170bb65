#include "apiserver/schema/prune.h"

#include "runtime/gofmt/gofmt.h"
#include "apiserver/schema/defaults.h"
#include "apiserver/schema/object_util.h"

#include <algorithm>
#include <string>
#include <vector>

namespace capstan::apiserver::schema {
namespace {

bool is_meta_field(std::string_view k) { return k == "apiVersion" || k == "kind" || k == "metadata"; }

// UnknownFieldPathOptions: builds "a.b[2].c" while walking.
class Tracker {
 public:
  std::vector<std::string> parent;
  std::vector<std::string> unknown;

  void record(std::string_view field) {
    auto l = parent.size();
    append_key(field);
    std::string s;
    for (const auto& p : parent) s += p;
    unknown.push_back(std::move(s));
    parent.resize(l);
  }
  void append_key(std::string_view k) {
    if (!parent.empty()) parent.emplace_back(".");
    parent.emplace_back(k);
  }
  void append_index(std::size_t i) {
    parent.emplace_back("[");
    parent.push_back(std::to_string(i));
    parent.emplace_back("]");
  }
};

void prune_rec(json::Value& x, const Schema* s, Tracker& t);

void skip_prune(json::Value& x, const Schema* s, Tracker& t) {
  if (!s) return;
  auto orig = t.parent.size();
  if (x.is_object()) {
    for (auto& kv : x.get_object()) {
      if (s->x_embedded_resource && is_meta_field(kv.key())) continue;
      if (const Schema* prop = s->property(kv.key())) {
        t.append_key(kv.key());
        prune_rec(kv.value(), prop, t);
        t.parent.resize(orig);
      } else if (s->additional_properties.present) {
        t.append_key(kv.key());
        prune_rec(kv.value(), s->additional_properties.schema.get(), t);
        t.parent.resize(orig);
      }
    }
  } else if (x.is_array()) {
    auto& a = x.get_array();
    for (std::size_t i = 0; i < a.size(); ++i) {
      t.append_index(i);
      skip_prune(a[i], s->items.get(), t);
      t.parent.resize(orig);
    }
  }
}

void prune_rec(json::Value& x, const Schema* s, Tracker& t) {
  if (s && s->preserve_unknown_fields()) {
    skip_prune(x, s, t);
    return;
  }
  auto orig = t.parent.size();
  if (x.is_object()) {
    auto& o = x.get_object();
    std::vector<std::string> drop;
    if (!s) {
      for (auto& kv : o) {
        t.record(kv.key());
        drop.emplace_back(kv.key());
      }
    } else {
      for (auto& kv : o) {
        std::string_view k = kv.key();
        if (s->x_embedded_resource && is_meta_field(k)) continue;
        if (const Schema* prop = s->property(k)) {
          t.append_key(k);
          prune_rec(kv.value(), prop, t);
          t.parent.resize(orig);
        } else if (s->additional_properties.present) {
          t.append_key(k);
          prune_rec(kv.value(), s->additional_properties.schema.get(), t);
          t.parent.resize(orig);
        } else {
          if (!is_meta_field(k) || !t.parent.empty()) t.record(k);
          drop.emplace_back(k);
        }
      }
    }
    detail::erase_keys(o, drop);
  } else if (x.is_array()) {
    auto& a = x.get_array();
    for (std::size_t i = 0; i < a.size(); ++i) {
      t.append_index(i);
      prune_rec(a[i], s ? s->items.get() : nullptr, t);
      t.parent.resize(orig);
    }
  }
}

// ---- ObjectMeta

bool is_string_or_null(const json::Value& v) { return v.is_string() || v.is_null(); }
bool is_int_or_null(const json::Value& v) { return v.is_int64() || v.is_uint64() || v.is_null(); }
bool is_bool_or_null(const json::Value& v) { return v.is_bool() || v.is_null(); }
bool is_string_map_or_null(const json::Value& v) {
  if (v.is_null()) return true;
  if (!v.is_object()) return false;
  for (const auto& kv : v.get_object())
    if (!is_string_or_null(kv.value())) return false;
  return true;
}
bool is_string_list_or_null(const json::Value& v) {
  if (v.is_null()) return true;
  if (!v.is_array()) return false;
  for (const auto& e : v.get_array())
    if (!is_string_or_null(e)) return false;
  return true;
}

// A struct-typed list element: known members with their type checks; unknown ones are dropped and
// reported as "<field>[i].<member>".
using MemberTypes = std::vector<std::pair<std::string_view, bool (*)(const json::Value&)>>;

bool is_object_or_null(const json::Value& v) { return v.is_object() || v.is_null(); }

bool struct_list(json::Value& v, const std::string& field, const MemberTypes& members, std::vector<std::string>& unknown) {
  if (v.is_null()) return true;
  if (!v.is_array()) return false;
  auto& a = v.get_array();
  std::vector<std::string> found;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].is_null()) continue;
    if (!a[i].is_object()) return false;
    auto& o = a[i].get_object();
    std::vector<std::string> drop;
    std::vector<std::string> keys;
    for (const auto& kv : o) keys.emplace_back(kv.key());
    std::sort(keys.begin(), keys.end());
    for (const auto& k : keys) {
      auto it = std::find_if(members.begin(), members.end(), [&](const auto& m) { return m.first == k; });
      if (it == members.end()) {
        found.push_back(field + "[" + std::to_string(i) + "]." + k);
        drop.push_back(k);
      } else if (!it->second(o.at(k))) {
        return false;
      }
    }
    detail::erase_keys(o, drop);
  }
  unknown.insert(unknown.end(), found.begin(), found.end());
  return true;
}

const MemberTypes& owner_reference_members() {
  static const MemberTypes m = {{"apiVersion", is_string_or_null}, {"kind", is_string_or_null},
                                {"name", is_string_or_null},       {"uid", is_string_or_null},
                                {"controller", is_bool_or_null},   {"blockOwnerDeletion", is_bool_or_null}};
  return m;
}

const MemberTypes& managed_fields_members() {
  static const MemberTypes m = {{"manager", is_string_or_null},    {"operation", is_string_or_null},
                                {"apiVersion", is_string_or_null}, {"time", is_string_or_null},
                                {"fieldsType", is_string_or_null}, {"fieldsV1", is_object_or_null},
                                {"subresource", is_string_or_null}};
  return m;
}

// Returns false when the value cannot be decoded into the ObjectMeta field (it is then dropped).
bool check_meta_field(std::string_view k, json::Value& v, std::vector<std::string>& unknown, bool& known) {
  known = true;
  if (k == "name" || k == "generateName" || k == "namespace" || k == "selfLink" || k == "uid" ||
      k == "resourceVersion" || k == "creationTimestamp" || k == "deletionTimestamp") {
    return is_string_or_null(v);
  }
  if (k == "generation" || k == "deletionGracePeriodSeconds") return is_int_or_null(v);
  if (k == "labels" || k == "annotations") return is_string_map_or_null(v);
  if (k == "finalizers") return is_string_list_or_null(v);
  if (k == "ownerReferences") return struct_list(v, "ownerReferences", owner_reference_members(), unknown);
  if (k == "managedFields") return struct_list(v, "managedFields", managed_fields_members(), unknown);
  known = false;
  return false;
}

// objectmeta.CoerceWithOptions over embedded resources (not the root): reports
// "<path>.metadata.<field>" for unknown metadata fields.
void coerce_embedded(json::Value& x, const Schema* s, const std::string& path, std::vector<std::string>& unknown) {
  if (!s) return;
  auto child = [&](std::string_view k) { return path.empty() ? std::string(k) : path + "." + std::string(k); };
  if (x.is_object()) {
    auto& o = x.get_object();
    if (s->x_embedded_resource) {
      // dropInvalidMetadata: non-string apiVersion/kind are dropped.
      std::vector<std::string> bad;
      for (std::string_view k : {"apiVersion", "kind"}) {
        auto* v = o.if_contains(k);
        if (v && !v->is_string()) bad.emplace_back(k);
      }
      detail::erase_keys(o, bad);
      auto it = o.find("metadata");
      if (it != o.end() && it->value().is_object()) {
        for (const auto& u : prune_object_meta(it->value())) unknown.push_back(child("metadata") + "." + u);
      }
    }
    for (auto& kv : o) {
      if (const Schema* prop = s->property(kv.key())) {
        coerce_embedded(kv.value(), prop, child(kv.key()), unknown);
      } else if (s->additional_properties.present) {
        coerce_embedded(kv.value(), s->additional_properties.schema.get(),
                        (path.empty() ? std::string() : path) + "[" + std::string(kv.key()) + "]", unknown);
      }
    }
  } else if (x.is_array()) {
    auto& a = x.get_array();
    for (std::size_t i = 0; i < a.size(); ++i) coerce_embedded(a[i], s->items.get(), path + "[" + std::to_string(i) + "]", unknown);
  }
}

}  // namespace

std::vector<std::string> prune_object_meta(json::Value& metadata) {
  std::vector<std::string> unknown;
  if (!metadata.is_object()) return unknown;
  auto& o = metadata.get_object();
  std::vector<std::string> keys;
  for (const auto& kv : o) keys.emplace_back(kv.key());
  std::sort(keys.begin(), keys.end());  // Go marshals the map sorted before the strict decode
  std::vector<std::string> drop;
  for (const auto& k : keys) {
    bool known = false;
    bool ok = check_meta_field(k, o.at(k), unknown, known);
    if (!known) {
      unknown.push_back(k);
      drop.push_back(k);
    } else if (!ok) {
      drop.push_back(k);  // malformed: dropped (DropMalformedFields), not reported as unknown
    }
  }
  if (auto* ts = o.if_contains("creationTimestamp"); ts && ts->is_null()) drop.emplace_back("creationTimestamp");
  detail::erase_keys(o, drop);
  return unknown;
}

std::vector<std::string> prune(json::Value& obj, const Schema& schema, bool is_root) {
  std::vector<std::string> out;
  if (is_root && obj.is_object()) {
    auto* md = obj.get_object().if_contains("metadata");
    if (md && md->is_object()) {
      for (const auto& u : prune_object_meta(*md)) out.push_back("metadata." + u);
    }
  }
  Tracker t;
  if (is_root && !schema.x_embedded_resource) {
    Schema clone = schema;
    clone.x_embedded_resource = true;
    prune_rec(obj, &clone, t);
  } else {
    prune_rec(obj, &schema, t);
  }
  std::sort(t.unknown.begin(), t.unknown.end());
  out.insert(out.end(), t.unknown.begin(), t.unknown.end());
  if (is_root) {
    std::vector<std::string> embedded;
    coerce_embedded(obj, &schema, "", embedded);
    std::sort(embedded.begin(), embedded.end());
    out.insert(out.end(), embedded.begin(), embedded.end());
  }
  return out;
}

std::vector<std::string> prune_and_default(json::Value& obj, const Schema& schema) {
  auto unknown = prune(obj, schema, true);
  prune_non_nullable_nulls_without_defaults(obj, schema);
  apply_defaults(obj, schema);
  return unknown;
}

std::string unknown_field_message(std::string_view path) { return "unknown field \"" + std::string(path) + "\""; }

std::vector<std::string> unknown_field_warnings(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  out.reserve(paths.size());
  for (const auto& p : paths) out.push_back(unknown_field_message(p));
  return out;
}

std::string strict_decoding_error(const std::vector<std::string>& paths) {
  std::vector<std::string> errors;
  for (const auto& p : paths) errors.push_back(unknown_field_message(p));
  return strict_decoding_error_of(errors);
}

std::string strict_decoding_error_of(const std::vector<std::string>& errors) {
  std::string s = "strict decoding error: ";
  for (std::size_t i = 0; i < errors.size(); ++i) {
    if (i) s += ", ";
    s += errors[i];
  }
  return s;
}

std::string strict_decoding_error_for_object(std::string_view kind, std::string_view version,
                                             const std::vector<std::string>& paths) {
  return std::string(kind) + " in version " + gofmt::quote(version) + " cannot be handled as a " + std::string(kind) +
         ": " + strict_decoding_error(paths);
}

}  // namespace capstan::apiserver::schema
