#include "runtime/meta/object.h"

namespace capstan::meta {

std::string_view name_of(const json::Value& obj) { return json::get_string(obj, {"metadata", "name"}); }
std::string_view namespace_of(const json::Value& obj) { return json::get_string(obj, {"metadata", "namespace"}); }
std::string_view uid_of(const json::Value& obj) { return json::get_string(obj, {"metadata", "uid"}); }
std::string_view resource_version_of(const json::Value& obj) {
  return json::get_string(obj, {"metadata", "resourceVersion"});
}
std::int64_t generation_of(const json::Value& obj) { return json::get_int(obj, {"metadata", "generation"}).value_or(0); }
bool is_deleting(const json::Value& obj) { return json::find(obj, {"metadata", "deletionTimestamp"}) != nullptr; }

std::string_view annotation(const json::Value& obj, std::string_view key) {
  const auto* a = json::get_object(obj, {"metadata", "annotations"});
  if (!a) return {};
  auto it = a->find(key);
  if (it == a->end() || !it->value().is_string()) return {};
  return it->value().get_string();
}

std::string_view label(const json::Value& obj, std::string_view key) {
  const auto* a = json::get_object(obj, {"metadata", "labels"});
  if (!a) return {};
  auto it = a->find(key);
  if (it == a->end() || !it->value().is_string()) return {};
  return it->value().get_string();
}

std::string make_key(std::string_view ns, std::string_view name) {
  if (ns.empty()) return std::string(name);
  std::string k;
  k.reserve(ns.size() + name.size() + 1);
  k += ns;
  k += '/';
  k += name;
  return k;
}

std::string key_of(const json::Value& obj) { return make_key(namespace_of(obj), name_of(obj)); }

std::pair<std::string, std::string> split_key(std::string_view key) {
  auto slash = key.find('/');
  if (slash == std::string_view::npos) return {"", std::string(key)};
  return {std::string(key.substr(0, slash)), std::string(key.substr(slash + 1))};
}

json::Value OwnerReference::to_json() const {
  json::Object o;
  o["apiVersion"] = api_version;
  o["kind"] = kind;
  o["name"] = name;
  o["uid"] = uid;
  if (controller) o["controller"] = true;
  if (block_owner_deletion) o["blockOwnerDeletion"] = true;
  return o;
}

OwnerReference OwnerReference::from_json(const json::Value& v) {
  OwnerReference r;
  r.api_version = json::get_string(v, {"apiVersion"});
  r.kind = json::get_string(v, {"kind"});
  r.name = json::get_string(v, {"name"});
  r.uid = json::get_string(v, {"uid"});
  r.controller = json::get_bool(v, {"controller"});
  r.block_owner_deletion = json::get_bool(v, {"blockOwnerDeletion"});
  return r;
}

std::vector<OwnerReference> owner_references(const json::Value& obj) {
  std::vector<OwnerReference> out;
  if (const auto* refs = json::get_array(obj, {"metadata", "ownerReferences"}))
    for (const auto& r : *refs) out.push_back(OwnerReference::from_json(r));
  return out;
}

std::optional<OwnerReference> controller_of(const json::Value& obj) {
  for (auto& r : owner_references(obj))
    if (r.controller) return r;
  return std::nullopt;
}

OwnerReference controller_reference(const json::Value& owner) {
  OwnerReference r;
  r.api_version = json::get_string(owner, {"apiVersion"});
  r.kind = json::get_string(owner, {"kind"});
  r.name = name_of(owner);
  r.uid = uid_of(owner);
  r.controller = true;
  r.block_owner_deletion = true;
  return r;
}

bool has_finalizer(const json::Value& obj, std::string_view f) {
  if (const auto* fs = json::get_array(obj, {"metadata", "finalizers"}))
    for (const auto& x : *fs)
      if (x.is_string() && x.get_string() == f) return true;
  return false;
}

bool add_finalizer(json::Value& obj, std::string_view f) {
  if (has_finalizer(obj, f)) return false;
  auto& md = json::ensure_object(obj, {"metadata"});
  auto& fs = md["finalizers"];
  if (!fs.is_array()) fs = json::Array{};
  fs.get_array().emplace_back(f);
  return true;
}

bool remove_finalizer(json::Value& obj, std::string_view f) {
  auto* fs = json::find(obj, {"metadata", "finalizers"});
  if (!fs || !fs->is_array()) return false;
  auto& arr = fs->get_array();
  bool changed = false;
  for (auto it = arr.begin(); it != arr.end();) {
    if (it->is_string() && it->get_string() == f) {
      it = arr.erase(it);
      changed = true;
    } else {
      ++it;
    }
  }
  if (arr.empty()) json::erase(obj, {"metadata", "finalizers"});
  return changed;
}

bool condition_true(const json::Value& obj, std::string_view type) {
  if (const auto* conds = json::get_array(obj, {"status", "conditions"}))
    for (const auto& c : *conds)
      if (json::get_string(c, {"type"}) == type) return json::get_string(c, {"status"}) == "True";
  return false;
}

std::optional<Condition> find_condition(const json::Value& obj, std::string_view type) {
  const auto* conds = json::get_array(obj, {"status", "conditions"});
  if (!conds) return std::nullopt;
  for (const auto& c : *conds) {
    if (json::get_string(c, {"type"}) != type) continue;
    Condition out;
    out.type = type;
    out.status = json::get_string(c, {"status"});
    out.reason = json::get_string(c, {"reason"});
    out.message = json::get_string(c, {"message"});
    out.observed_generation = json::get_int(c, {"observedGeneration"}).value_or(0);
    out.last_transition_time = json::get_string(c, {"lastTransitionTime"});
    return out;
  }
  return std::nullopt;
}

bool set_condition(json::Value& obj, Condition c, TimePoint now) {
  auto& status = json::ensure_object(obj, {"status"});
  auto& conds = status["conditions"];
  if (!conds.is_array()) conds = json::Array{};
  auto& arr = conds.get_array();
  json::Object* existing = nullptr;
  for (auto& e : arr)
    if (e.is_object() && json::get_string(e, {"type"}) == c.type) existing = &e.get_object();
  std::string ltt = format_rfc3339(now);
  if (existing && json::get_string(*existing, {"status"}) == c.status) {
    auto prev = json::get_string(*existing, {"lastTransitionTime"});
    if (!prev.empty()) ltt = std::string(prev);
  }
  if (!c.last_transition_time.empty()) ltt = c.last_transition_time;
  json::Object next;
  next["type"] = c.type;
  next["status"] = c.status;
  if (c.observed_generation) next["observedGeneration"] = c.observed_generation;
  next["lastTransitionTime"] = ltt;
  next["reason"] = c.reason;
  next["message"] = c.message;
  if (existing) {
    if (*existing == next) return false;
    *existing = std::move(next);
  } else {
    arr.push_back(std::move(next));
  }
  return true;
}

}  // namespace capstan::meta
