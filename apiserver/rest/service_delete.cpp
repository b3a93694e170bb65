// DELETE and DELETE collection: preconditions, finalizers, propagation policies (the
// orphan and foregroundDeletion finalizers the garbage collector acts on), namespaces.
#include "apiserver/rest/service.h"
#include "runtime/meta/object.h"
#include "runtime/meta/time.h"

namespace capstan::apiserver::rest {
namespace {

constexpr int kMaxAttempts = 16;

json::Value success_status(const registry::ResourceInfo& r, const json::Value& obj) {
  json::Object details;
  details["name"] = json::get_string(obj, {"metadata", "name"});
  if (!r.group.empty()) details["group"] = r.group;
  details["kind"] = r.resource;
  details["uid"] = json::get_string(obj, {"metadata", "uid"});
  return json::Object{{"kind", "Status"}, {"apiVersion", "v1"}, {"metadata", json::Object{}}, {"status", "Success"},
                      {"details", std::move(details)}};
}

}  // namespace

Service::DeleteResult Service::remove(const Target& t, const DeleteOptions& o) {
  const auto& r = *t.res;
  if (!t.subresource.empty()) throw method_not_allowed();
  if (!o.propagation.empty() && o.propagation != "Orphan" && o.propagation != "Background" && o.propagation != "Foreground") {
    throw invalid_options("DeleteOptions", {validation::field_not_supported(FieldPath("propagationPolicy"), json::Value(o.propagation),
                                                                        {"Foreground", "Background", "Orphan", "nil"})});
  }
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    auto current = store_.get(r.group_resource(), t.ns, t.name);
    if (!current) throw not_found(r, t.name);
    const json::Value& cur = *current.value;
    if (!o.precondition_uid.empty() && o.precondition_uid != meta::uid_of(cur)) {
      throw precondition_failed(r, t.name, "the UID in the precondition (" + o.precondition_uid + ") does not match the UID in record (" +
                                               std::string(meta::uid_of(cur)) + "). The object might have been deleted and then recreated");
    }
    if (!o.precondition_rv.empty() && o.precondition_rv != std::to_string(current.rv)) {
      throw precondition_failed(r, t.name, "the ResourceVersion in the precondition (" + o.precondition_rv +
                                               ") does not match the ResourceVersion in record (" + std::to_string(current.rv) +
                                               "). The object might have been modified");
    }
    json::Value old = to_version(r, cur, t.version);
    if (admission_) {
      AdmissionAttributes a;
      a.resource = &r;
      a.version = t.version;
      a.operation = "DELETE";
      a.ns = t.ns;
      a.name = t.name;
      a.old_object = &old;
      a.user = &o.user;
      a.dry_run = o.dry_run;
      json::Object opts{{"kind", "DeleteOptions"}, {"apiVersion", "meta.k8s.io/v1"}};
      if (!o.propagation.empty()) opts["propagationPolicy"] = o.propagation;
      a.options = std::move(opts);
      std::vector<std::string> warnings;
      admission_->mutate(a, nullptr, warnings);
      admission_->validate(a, nullptr, warnings);
    }
    try {
      return finalize_delete(t, current, o);
    } catch (const storage::StaleError&) {
      continue;
    } catch (const storage::NotFoundError&) {
      throw not_found(r, t.name);
    }
  }
  throw optimistic_lock_conflict(r, t.name);
}

Service::DeleteResult Service::finalize_delete(const Target& t, const storage::Object& current, const DeleteOptions& o) {
  const auto& r = *t.res;
  json::Value next = *current.value;
  bool deleting = meta::is_deleting(next);
  std::string now = meta::format_rfc3339(meta::Clock::now());

  if (r.group_resource() == "namespaces") {
    // The namespace controller empties it, then removes the "kubernetes" finalizer.
    if (!deleting) {
      auto& md = json::ensure_object(next, {"metadata"});
      md["deletionTimestamp"] = now;
      md["deletionGracePeriodSeconds"] = 0;
      json::ensure_object(next, {"status"})["phase"] = "Terminating";
      if (o.dry_run) return {to_version(r, std::move(next), t.version), false};
      auto stored = store_.replace(r.group_resource(), std::move(next), current.rv);
      return {to_version(r, *stored.value, t.version), false};
    }
    return {to_version(r, std::move(next), t.version), false};
  }

  std::string policy = o.propagation;
  bool changed = false;
  if (policy == "Orphan") changed |= meta::add_finalizer(next, "orphan");
  if (policy == "Foreground") changed |= meta::add_finalizer(next, "foregroundDeletion");
  if (policy == "Background") {
    // An explicit Background delete of an object waiting on its dependents stops waiting.
    changed |= meta::remove_finalizer(next, "foregroundDeletion");
    changed |= meta::remove_finalizer(next, "orphan");
  }
  bool has_finalizers = json::get_array(next, {"metadata", "finalizers"}) != nullptr &&
                        !json::get_array(next, {"metadata", "finalizers"})->empty();
  if (has_finalizers) {
    if (!deleting) {
      auto& md = json::ensure_object(next, {"metadata"});
      md["deletionTimestamp"] = now;
      md["deletionGracePeriodSeconds"] = 0;
      if (r.has_generation || r.crd) md["generation"] = json::get_int(next, {"metadata", "generation"}).value_or(0) + 1;
      changed = true;
    }
    if (!changed || o.dry_run) return {to_version(r, std::move(next), t.version), false};
    auto stored = store_.replace(r.group_resource(), std::move(next), current.rv);
    return {to_version(r, *stored.value, t.version), false};
  }
  if (o.dry_run) {
    return {r.return_deleted_object ? to_version(r, std::move(next), t.version) : success_status(r, next), true};
  }
  auto gone = store_.remove(r.group_resource(), t.ns, t.name, current.rv, &next);
  if (r.return_deleted_object) return {to_version(r, *gone.value, t.version), true};
  return {success_status(r, *gone.value), true};
}

json::Value Service::delete_collection(const Target& t, const ListOptions& lo, const DeleteOptions& o) {
  const auto& r = *t.res;
  ListOptions all = lo;
  all.limit = 0;
  all.continue_token.clear();
  auto items = list(t, all);
  json::Array deleted;
  for (const auto& item : items.items) {
    Target one = t;
    one.name = std::string(json::get_string(item, {"metadata", "name"}));
    one.ns = std::string(json::get_string(item, {"metadata", "namespace"}));
    try {
      auto res = remove(one, o);
      deleted.push_back(res.deleted ? item : res.body);
    } catch (const ApiError& e) {
      if (e.code != 404) throw;
    }
  }
  return json::Object{{"kind", r.list_kind}, {"apiVersion", r.api_version(t.version)},
                      {"metadata", json::Object{{"resourceVersion", std::to_string(store_.current_rv())}}},
                      {"items", std::move(deleted)}};
}

}  // namespace capstan::apiserver::rest
