#include "apiserver/system/gc_controller.h"

#include "apiserver/system/event_resource.h"
#include "apiserver/system/service_writes.h"
#include "runtime/meta/object.h"

#include <algorithm>

namespace capstan::apiserver::system {
namespace {

using namespace std::chrono_literals;

constexpr std::string_view kForegroundFinalizer = "foregroundDeletion";
constexpr std::string_view kOrphanFinalizer = "orphan";
// While an owner waits for blocking dependents, events drive progress; this is a safety net.
constexpr auto kBlockedRecheck = 5000ms;
// A reference to a kind that is not served (yet: a CRD may be coming) is looked at again.
constexpr auto kUnresolvableRecheck = 30000ms;
constexpr auto kConflictRetry = 20ms;

// Upstream's default ignoredResources: events never take part in garbage collection.
bool ignored_resource(std::string_view resource) { return resource == "events" || resource == "events.events.k8s.io"; }

bool contains(const std::vector<std::string>& v, std::string_view s) { return std::find(v.begin(), v.end(), s) != v.end(); }

std::vector<std::string> owner_uids(const json::Value& obj) {
  std::vector<std::string> out;
  if (const auto* refs = json::get_array(obj, {"metadata", "ownerReferences"}))
    for (const auto& ref : *refs) {
      std::string_view uid = json::get_string(ref, {"uid"});
      if (!uid.empty() && !contains(out, uid)) out.emplace_back(uid);
    }
  return out;
}

const json::Value* owner_refs_value(const json::Value& obj) { return json::find(obj, {"metadata", "ownerReferences"}); }

bool same_owner_refs(const json::Value& a, const json::Value& b) {
  const auto* x = owner_refs_value(a);
  const auto* y = owner_refs_value(b);
  if (!x || !y) return x == y;
  return *x == *y;
}

bool deleting_with(const json::Value& obj, std::string_view finalizer) {
  return meta::is_deleting(obj) && meta::has_finalizer(obj, finalizer);
}

// Removes every ownerReference whose uid is in `uids`; an emptied list is dropped.
bool remove_owner_refs(json::Value& obj, const std::vector<std::string>& uids) {
  auto* md = json::find(obj, {"metadata"});
  if (!md || !md->is_object()) return false;
  auto& mdo = md->as_object();
  auto it = mdo.find("ownerReferences");
  if (it == mdo.end() || !it->value().is_array()) return false;
  auto& refs = it->value().as_array();
  std::size_t before = refs.size();
  json::Array kept;
  for (auto& ref : refs)
    if (!contains(uids, json::get_string(ref, {"uid"}))) kept.push_back(ref);
  if (kept.size() == before) return false;
  if (kept.empty()) mdo.erase("ownerReferences");
  else it->value() = std::move(kept);
  return true;
}

// Sets blockOwnerDeletion=false on every blocking reference (upstream's cycle breaker).
bool unblock_owner_refs(json::Value& obj) {
  auto* refs = json::find(obj, {"metadata", "ownerReferences"});
  if (!refs || !refs->is_array()) return false;
  bool changed = false;
  for (auto& ref : refs->as_array()) {
    if (ref.is_object() && json::get_bool(ref, {"blockOwnerDeletion"})) {
      ref.as_object()["blockOwnerDeletion"] = false;
      changed = true;
    }
  }
  return changed;
}

bool blocks_owner(const json::Value& dependent, std::string_view owner_uid) {
  if (const auto* refs = json::get_array(dependent, {"metadata", "ownerReferences"}))
    for (const auto& ref : *refs)
      if (json::get_string(ref, {"uid"}) == owner_uid && json::get_bool(ref, {"blockOwnerDeletion"})) return true;
  return false;
}

}  // namespace

GcController::GcController(rest::Service& service)
    : service_(service),
      log_({{"controller", "garbagecollector"}}),
      loop_("garbagecollector", service.store(), [this](const Key& k) { return reconcile(k); }) {}

GcController::~GcController() { stop(); }

void GcController::start() {
  loop_.watch("*", [this](const storage::Event& e) { return observe(e); });
  loop_.start();
}

void GcController::stop() { loop_.stop(); }

std::vector<Key> GcController::observe(const storage::Event& e) {
  if (!e.object) return {};
  std::string resource = event_resource(service_.registry(), e);
  if (resource.empty() || ignored_resource(resource)) return {};
  const json::Value& obj = *e.object.value;
  std::string uid(meta::uid_of(obj));
  if (uid.empty()) return {};
  Key key{std::move(resource), std::string(meta::namespace_of(obj)), std::string(meta::name_of(obj))};
  std::vector<Key> out;

  std::lock_guard<std::mutex> l(mu_);
  auto unlink = [&](const std::string& owner) {
    auto d = dependents_.find(owner);
    if (d == dependents_.end()) return;
    d->second.erase(uid);
    if (d->second.empty()) dependents_.erase(d);
  };
  auto enqueue_if_waiting = [&](const std::string& owner) {
    auto it = nodes_.find(owner);
    if (it != nodes_.end() && it->second.deleting_dependents) out.push_back(it->second.key);
  };
  auto enqueue_dependents = [&](const std::string& owner) {
    auto d = dependents_.find(owner);
    if (d == dependents_.end()) return;
    for (const auto& dep : d->second)
      if (auto n = nodes_.find(dep); n != nodes_.end()) out.push_back(n->second.key);
  };

  if (e.type == storage::EventType::Deleted) {
    if (auto it = nodes_.find(uid); it != nodes_.end()) {
      for (const auto& owner : it->second.owners) {
        unlink(owner);
        enqueue_if_waiting(owner);  // it may have been the last blocking dependent
      }
      nodes_.erase(it);
    }
    enqueue_dependents(uid);  // their owner is gone now
    return out;
  }

  auto owners = owner_uids(obj);
  bool foreground = deleting_with(obj, kForegroundFinalizer);
  bool orphan = deleting_with(obj, kOrphanFinalizer);
  auto [it, inserted] = nodes_.try_emplace(uid);
  Node& node = it->second;
  std::vector<std::string> before = std::move(node.owners);
  bool was_foreground = node.deleting_dependents;
  node.key = key;
  node.owners = owners;
  node.deleting_dependents = foreground;

  for (const auto& owner : before) {
    if (contains(owners, owner)) continue;
    unlink(owner);
    enqueue_if_waiting(owner);
  }
  for (const auto& owner : owners)
    if (!contains(before, owner)) dependents_[owner].insert(uid);

  bool check_self = false;
  bool refs_changed = inserted || !e.previous || !same_owner_refs(*e.previous.value, obj);
  if (refs_changed) {
    if (const auto* refs = json::get_array(obj, {"metadata", "ownerReferences"})) {
      for (const auto& ref : *refs) {
        auto on = nodes_.find(std::string(json::get_string(ref, {"uid"})));
        if (on == nodes_.end()) {
          check_self = true;  // not seen (yet): perhaps absent, verify against the store
          continue;
        }
        const Key& ok = on->second.key;
        auto owner_res = resource_for_kind(service_.registry(), json::get_string(ref, {"apiVersion"}),
                                           json::get_string(ref, {"kind"}));
        if (!owner_res || owner_res->group_resource() != ok.resource || json::get_string(ref, {"name"}) != ok.name ||
            (!ok.ns.empty() && ok.ns != key.ns)) {
          check_self = true;  // the uid is known but the reference does not resolve to it
        }
        if (on->second.deleting_dependents) {
          check_self = true;
          out.push_back(ok);  // blockOwnerDeletion may have changed
        }
      }
    }
  }
  if (foreground) {
    out.push_back(key);
    if (!was_foreground) enqueue_dependents(uid);
  } else if (orphan || check_self) {
    out.push_back(key);
  }
  return out;
}

std::vector<GcController::Dependent> GcController::dependents_of(const std::string& uid) const {
  std::vector<Dependent> out;
  std::lock_guard<std::mutex> l(mu_);
  auto d = dependents_.find(uid);
  if (d == dependents_.end()) return out;
  for (const auto& dep : d->second)
    if (auto n = nodes_.find(dep); n != nodes_.end()) out.push_back(Dependent{n->second.key, dep});
  return out;
}

std::chrono::milliseconds GcController::reconcile(const Key& k) {
  auto r = service_.registry().find_group_resource(k.resource);
  if (!r) return {};
  auto cur = service_.store().get(k.resource, k.ns, k.name);
  if (!cur) return {};
  const json::Value& obj = *cur.value;
  if (meta::is_deleting(obj)) {
    if (meta::has_finalizer(obj, kOrphanFinalizer)) {
      orphan_dependents(r, cur);
      remove_finalizer(r, cur, kOrphanFinalizer);
      return {};  // the update's event brings it back if foregroundDeletion is pending too
    }
    if (meta::has_finalizer(obj, kForegroundFinalizer)) return process_deleting_dependents(r, cur);
    return {};  // "being deleted" is a one-way trip: its dependents are handled once it is gone
  }
  return attempt_to_delete(r, cur);
}

GcController::RefState GcController::classify(const registry::ResourceInfo& dependent_res, std::string_view dependent_ns,
                                              const json::Value& ref) const {
  std::string_view api_version = json::get_string(ref, {"apiVersion"});
  std::string_view kind = json::get_string(ref, {"kind"});
  std::string_view name = json::get_string(ref, {"name"});
  std::string_view uid = json::get_string(ref, {"uid"});
  auto owner_res = resource_for_kind(service_.registry(), api_version, kind);
  if (!owner_res) {
    log_.info("ownerReference names a kind that is not served; leaving the dependent alone",
              {{"dependent", dependent_res.group_resource() + " " + object_ref(dependent_ns, "")},
               {"apiVersion", api_version},
               {"kind", kind},
               {"owner", name}});
    return RefState::Unresolvable;
  }
  if (!dependent_res.namespaced && owner_res->namespaced) return RefState::Invalid;
  auto owner = service_.store().get(owner_res->group_resource(), owner_res->namespaced ? dependent_ns : std::string_view(), name);
  if (!owner || meta::uid_of(*owner.value) != uid) return RefState::Dangling;
  if (deleting_with(*owner.value, kForegroundFinalizer)) return RefState::Waiting;
  return RefState::Solid;
}

std::chrono::milliseconds GcController::attempt_to_delete(const registry::ResourcePtr& r, const storage::Object& cur) {
  const json::Value& obj = *cur.value;
  const auto* refs = json::get_array(obj, {"metadata", "ownerReferences"});
  if (!refs || refs->empty()) return {};
  std::string ns(meta::namespace_of(obj));
  std::string name(meta::name_of(obj));
  std::string uid(meta::uid_of(obj));
  std::vector<std::string> dangling, waiting;
  bool solid = false;
  for (const auto& ref : *refs) {
    switch (classify(*r, ns, ref)) {
      case RefState::Solid: solid = true; break;
      case RefState::Dangling: dangling.emplace_back(json::get_string(ref, {"uid"})); break;
      case RefState::Waiting: waiting.emplace_back(json::get_string(ref, {"uid"})); break;
      case RefState::Unresolvable: return kUnresolvableRecheck;
      case RefState::Invalid:
        log_.info("cluster-scoped object names a namespaced owner; leaving it alone",
                  {{"object", r->group_resource() + " " + name}});
        return {};
    }
  }
  log::Fields fields{{"object", r->group_resource() + " " + object_ref(ns, name)}};

  if (solid) {
    if (dangling.empty() && waiting.empty()) return {};
    // References to owners that are gone, or that wait in the Foreground for their dependents,
    // are dropped: the object lives on through its other owners.
    std::vector<std::string> drop = dangling;
    drop.insert(drop.end(), waiting.begin(), waiting.end());
    log_.debug("removing dangling and waiting ownerReferences", fields);
    update_object(service_, r, ns, name, uid, kControllerManager, [&](json::Value& v) { return remove_owner_refs(v, drop); });
    return {};
  }

  std::string policy;
  std::string rv = std::to_string(cur.rv);
  if (!waiting.empty() && !dependents_of(uid).empty()) {
    // An owner waits for this object, which has dependents of its own: delete it in the
    // Foreground so its blocking dependents go first. A dependent that itself waits in the
    // Foreground could form a cycle: unblock our references first (as upstream does).
    for (const auto& d : dependents_of(uid)) {
      auto dep = service_.store().get(d.key.resource, d.key.ns, d.key.name);
      if (dep && meta::uid_of(*dep.value) == d.uid && deleting_with(*dep.value, kForegroundFinalizer)) {
        if (update_object(service_, r, ns, name, uid, kControllerManager, unblock_owner_refs) == WriteOutcome::Written)
          rv.clear();
        break;
      }
    }
    policy = "Foreground";
  } else if (meta::has_finalizer(obj, kOrphanFinalizer)) {
    policy = "Orphan";  // honour a finalizer already there
  } else if (meta::has_finalizer(obj, kForegroundFinalizer)) {
    policy = "Foreground";
  } else {
    policy = "Background";
  }
  log_.debug("deleting object whose owners are gone", {fields[0], {"propagationPolicy", policy}});
  auto outcome = delete_object(service_, r, ns, name, uid, rv, policy);
  if (outcome == DeleteOutcome::Conflict && !rv.empty()) {
    // Changed since read: if its ownerReferences did not, the decision stands.
    auto live = service_.store().get(r->group_resource(), ns, name);
    if (!live || meta::uid_of(*live.value) != uid) return {};
    if (same_owner_refs(*live.value, obj)) outcome = delete_object(service_, r, ns, name, uid, "", policy);
  }
  return outcome == DeleteOutcome::Conflict ? std::chrono::milliseconds(kConflictRetry) : std::chrono::milliseconds(0);
}

std::chrono::milliseconds GcController::process_deleting_dependents(const registry::ResourcePtr& r,
                                                                    const storage::Object& cur) {
  const json::Value& obj = *cur.value;
  std::string uid(meta::uid_of(obj));
  std::string_view owner_ns = meta::namespace_of(obj);
  bool blocked = false;
  for (const auto& d : dependents_of(uid)) {
    auto dep = service_.store().get(d.key.resource, d.key.ns, d.key.name);
    if (!dep || meta::uid_of(*dep.value) != d.uid) continue;
    if (r->namespaced && d.key.ns != owner_ns) continue;  // a cross-namespace reference never resolves to us
    if (!blocks_owner(*dep.value, uid)) continue;
    blocked = true;
    if (!deleting_with(*dep.value, kForegroundFinalizer)) loop_.enqueue(d.key);
  }
  if (blocked) return kBlockedRecheck;
  log_.debug("no blocking dependents left; removing the foregroundDeletion finalizer",
             {{"object", r->group_resource() + " " + object_ref(owner_ns, meta::name_of(obj))}});
  remove_finalizer(r, cur, kForegroundFinalizer);
  return {};
}

void GcController::orphan_dependents(const registry::ResourcePtr& r, const storage::Object& cur) {
  std::vector<std::string> owner{std::string(meta::uid_of(*cur.value))};
  for (const auto& d : dependents_of(owner[0])) {
    auto dr = service_.registry().find_group_resource(d.key.resource);
    if (!dr) continue;
    update_object(service_, dr, d.key.ns, d.key.name, d.uid, kControllerManager,
                  [&](json::Value& v) { return remove_owner_refs(v, owner); });
  }
}

bool GcController::remove_finalizer(const registry::ResourcePtr& r, const storage::Object& cur, std::string_view finalizer) {
  const json::Value& obj = *cur.value;
  auto outcome = update_object(service_, r, meta::namespace_of(obj), meta::name_of(obj), meta::uid_of(obj), kControllerManager,
                               [&](json::Value& v) { return meta::remove_finalizer(v, finalizer); });
  return outcome == WriteOutcome::Written;
}

}  // namespace capstan::apiserver::system
