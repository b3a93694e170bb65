// Update (PUT) and PATCH: both compute a new state from the live object and go through
// prepare_update_object() and a compare-and-swap commit, retried on concurrent writes.
#include "apiserver/builtin/strategy.h"
#include "apiserver/patch/apply.h"
#include "apiserver/patch/strategic.h"
#include "apiserver/rest/scale.h"
#include "apiserver/rest/service.h"
#include "apiserver/typed/value_structs.h"
#include "runtime/json/patch.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/object.h"
#include "runtime/meta/time.h"

#include <algorithm>

namespace capstan::apiserver::rest {
namespace {

constexpr int kMaxAttempts = 16;

std::vector<std::string> finalizers_of(const json::Value& obj) {
  std::vector<std::string> out;
  if (const auto* a = json::get_array(obj, {"metadata", "finalizers"}))
    for (const auto& f : *a)
      if (f.is_string()) out.emplace_back(f.get_string());
  return out;
}

void copy_member(json::Object& to, const json::Object& from, std::string_view key) {
  auto it = from.find(key);
  if (it == from.end()) to.erase(key);
  else to[key] = it->value();
}

ApiError patch_error(const json::PatchError& e) {
  if (e.kind() == json::PatchError::Kind::Internal) {
    return ApiError(500, "", e.status_message().empty() ? e.what() : e.status_message());
  }
  std::string msg = e.status_message().empty() ? e.what() : e.status_message();
  ApiError err(e.code(), std::string(e.reason()), msg);
  // A patch that does not apply: errors.NewGenericServerResponse(422, ...), with empty details.
  err.empty_details = e.kind() == json::PatchError::Kind::Invalid;
  return err;
}

ApiError conflict_error(const patch::ConflictError& e) {
  ApiError err(409, "Conflict", e.what());
  json::Value status = e.status();
  if (const auto* d = json::get_object(status, {"details"})) err.details = *d;
  return err;
}

json::Value parse_body(std::string_view body, bool yaml) {
  try {
    return yaml ? json::from_yaml(body, "request body") : json::parse(body, "request body");
  } catch (const json::ParseError& e) {
    throw bad_request(e.what());
  }
}

}  // namespace

json::Value Service::prepare_update_object(const Target& t, const json::Value& old, json::Value next, WriteOptions& o,
                                           bool managed_fields_set) {
  const auto& r = *t.res;
  if (!next.is_object()) throw bad_request("the body of the request was in an unknown format");
  std::string want_api = r.api_version(t.version);
  std::string name(json::get_string(old, {"metadata", "name"}));
  const auto& oldo = old.as_object();

  if (t.subresource == "finalize") {
    // namespaces/NAME/finalize changes nothing but spec.finalizers.
    json::Value merged = old;
    auto& spec = json::ensure_object(merged, {"spec"});
    if (const auto* f = json::find(next, {"spec", "finalizers"})) spec["finalizers"] = *f;
    else spec.erase("finalizers");
    next = std::move(merged);
  } else if (t.subresource == "status") {
    // A status write changes nothing but status (and its managed fields).
    json::Value merged = old;
    auto& mo = merged.as_object();
    copy_member(mo, next.as_object(), "status");
    if (managed_fields_set) {
      if (const auto* mf = json::find(next, {"metadata", "managedFields"})) json::ensure_object(merged, {"metadata"})["managedFields"] = *mf;
    }
    next = std::move(merged);
  } else {
    auto& no = next.as_object();
    no["apiVersion"] = want_api;
    no["kind"] = r.kind;
    if (r.has_status(t.version)) copy_member(no, oldo, "status");
  }

  auto& md = json::ensure_object(next, {"metadata"});
  const auto* oldmd = json::get_object(old, {"metadata"});
  for (auto k : {"uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "generation"}) {
    if (oldmd) copy_member(md, *oldmd, k);
  }
  md["name"] = name;
  if (r.namespaced) md["namespace"] = json::get_string(old, {"metadata", "namespace"});
  else md.erase("namespace");
  md.erase("selfLink");

  if (meta::is_deleting(old)) {
    auto before = finalizers_of(old);
    std::vector<std::string> added;
    for (auto& f : finalizers_of(next))
      if (std::find(before.begin(), before.end(), f) == before.end()) added.push_back(f);
    if (!added.empty()) {
      std::string list = "[]string{";
      for (std::size_t i = 0; i < added.size(); ++i) list += (i ? ", \"" : "\"") + added[i] + "\"";
      list += "}";
      throw invalid(r, name, {validation::field_forbidden(FieldPath("metadata").child("finalizers"),
                                                      "no new finalizers can be added if the object is being deleted, found new finalizers " + list)});
    }
  }

  // The parent's strategy governs the main resource and its scale; other subresource writes were
  // merged above.
  if (t.subresource.empty() || t.subresource == "scale") builtin::strategy_for(r.group_resource()).prepare_update(next, old);
  if (!r.crd) typed::fill_value_structs(next, want_api, r.kind);
  prepare_custom_resource(r, t.version, next, o, true);

  AdmissionAttributes a;
  a.resource = &r;
  a.version = t.version;
  a.subresource = t.subresource;
  a.operation = "UPDATE";
  a.ns = t.ns;
  a.name = name;
  a.old_object = &old;
  a.user = &o.user;
  a.dry_run = o.dry_run;
  a.options = json::Object{{"kind", "UpdateOptions"}, {"apiVersion", "meta.k8s.io/v1"}};
  if (!o.field_manager.empty()) a.options.as_object()["fieldManager"] = o.field_manager;
  if (admission_) {
    admission_->mutate(a, &next, o.warnings);
    prepare_custom_resource(r, t.version, next, o, true);
  }
  run_guards(a, next, false);
  validate_object(r, t.version, next, &old, o.warnings);
  run_guards(a, next, true);
  if (admission_) admission_->validate(a, &next, o.warnings);

  if (r.has_generation || r.crd) {
    bool changed = spec_differs(old, next);
    if (r.crd && !r.has_status(t.version)) {
      const auto* os = json::find(old, {"status"});
      const auto* ns = json::find(next, {"status"});
      if ((os == nullptr) != (ns == nullptr) || (os && !json::deep_equal(*os, *ns))) changed = true;
    }
    if (changed) md["generation"] = json::get_int(old, {"metadata", "generation"}).value_or(0) + 1;
  }
  if (!managed_fields_set) {
    const auto& types = list_types_for(r, t.version);
    json::Value before = old;  // objects stored before by-value structs were filled in lack them
    if (!r.crd) typed::fill_value_structs(before, want_api, r.kind);
    patch::set_managed_fields(next, patch::update(&before, next, o.field_manager, "Update", t.subresource, want_api,
                                                  meta::Clock::now(), types));
  }
  drop_empty_metadata(next);
  return to_version(r, std::move(next), r.storage_version().name);
}

Service::WriteResult Service::commit_update(const Target& t, const storage::Object& current, json::Value next) {
  const auto& r = *t.res;
  // A namespace also waits for its spec.finalizers (the namespace controller's "kubernetes").
  bool spec_finalizers = r.group_resource() == "namespaces" && json::get_array(next, {"spec", "finalizers"}) &&
                         !json::get_array(next, {"spec", "finalizers"})->empty();
  if (meta::is_deleting(next) && finalizers_of(next).empty() && !spec_finalizers) {
    // The last finalizer is gone: the pending deletion completes now.
    auto gone = store_.remove(r.group_resource(), t.ns, t.name, current.rv, &next);
    return {to_version(r, *gone.value, t.version), false};
  }
  auto stored = store_.replace(r.group_resource(), std::move(next), current.rv);
  return {to_version(r, *stored.value, t.version), false};
}

Service::WriteResult Service::update(const Target& t, json::Value body, WriteOptions& o) {
  const auto& r = *t.res;
  if (!body.is_object()) throw bad_request("the body of the request was in an unknown format");
  if (t.subresource == "scale") {
    std::string_view kind = json::get_string(body, {"kind"});
    if (kind != "Scale") throw bad_request("the body of the request was in an unknown format");
  } else {
    check_body_type(r, t.version, body);
  }
  if (t.subresource != "scale") decode_body(r, t.version, body, o);
  std::string_view body_name = json::get_string(body, {"metadata", "name"});
  if (!body_name.empty() && body_name != t.name)
    throw bad_request("the name of the object (" + std::string(body_name) + ") does not match the name on the URL (" + t.name + ")");
  if (r.namespaced) {
    std::string_view body_ns = json::get_string(body, {"metadata", "namespace"});
    if (!body_ns.empty() && body_ns != t.ns)
      throw bad_request("the namespace of the provided object does not match the namespace sent on the request");
  }
  std::string body_rv(json::get_string(body, {"metadata", "resourceVersion"}));
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    auto current = store_.get(r.group_resource(), t.ns, t.name);
    if (!current) throw not_found(r, t.name);
    if (!body_rv.empty() && body_rv != std::to_string(current.rv)) throw optimistic_lock_conflict(r, t.name);
    if (body_rv.empty() && !r.allow_unconditional_update && t.subresource.empty()) {
      // The generic registry reports it against the resource (its "kind" is the resource name).
      throw invalid_kind(r.resource, r.group, t.name,
                         {validation::field_invalid(FieldPath("metadata").child("resourceVersion"), json::Value(0), "must be specified for an update")});
    }
    json::Value old = to_version(r, *current.value, t.version);
    json::Value next = body;
    if (t.subresource == "scale") {
      next = old;
      apply_scale(r, t.version, next, body);
    }
    json::Value prepared = prepare_update_object(t, old, std::move(next), o, false);
    if (o.dry_run) return {to_version(r, std::move(prepared), t.version), false};
    try {
      auto res = commit_update(t, current, std::move(prepared));
      if (t.subresource == "scale") res.object = to_scale(r, t.version, res.object);
      return res;
    } catch (const storage::StaleError&) {
      if (!body_rv.empty()) throw optimistic_lock_conflict(r, t.name);
    } catch (const storage::NotFoundError&) {
      throw not_found(r, t.name);
    }
  }
  throw optimistic_lock_conflict(r, t.name);
}

Service::WriteResult Service::patch(const Target& t, PatchType type, std::string_view body, bool force, WriteOptions& o) {
  const auto& r = *t.res;
  if (type == PatchType::Strategic && r.crd) {
    throw unsupported_media_type("application/strategic-merge-patch+json",
                                 {"application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"});
  }
  if (type == PatchType::Apply && o.field_manager.empty())
    throw bad_request("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch");
  json::Value doc = parse_body(body, type == PatchType::Apply);
  if (type == PatchType::Apply && t.subresource != "scale") check_apply(r, t.version, doc);
  std::string want_api = r.api_version(t.version);
  const auto& types = list_types_for(r, t.version);

  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    auto current = store_.get(r.group_resource(), t.ns, t.name);
    if (!current) {
      if (type != PatchType::Apply || !t.subresource.empty()) throw not_found(r, t.name);
      // Server-side apply creates the object.
      if (!doc.is_object()) throw bad_request("the body of the request was in an unknown format");
      json::Value created;
      try {
        auto res = patch::apply(nullptr, doc, o.field_manager, force, want_api, types, meta::Clock::now());
        created = std::move(res.object);
      } catch (const patch::ConflictError& e) {
        throw conflict_error(e);
      } catch (const json::PatchError& e) {
        throw patch_error(e);
      }
      std::string_view nm = json::get_string(created, {"metadata", "name"});
      if (!nm.empty() && nm != t.name)
        throw bad_request("the name of the object (" + std::string(nm) + ") does not match the name on the URL (" + t.name + ")");
      json::ensure_object(created, {"metadata"})["name"] = t.name;
      try {
        return create_impl(t, std::move(created), o, true);
      } catch (const ApiError& e) {
        if (e.code == 409 && e.reason == "AlreadyExists") continue;  // raced with a create: patch it
        throw;
      }
    }
    json::Value old = to_version(r, *current.value, t.version);
    json::Value base = t.subresource == "scale" ? to_scale(r, t.version, old) : old;
    json::Value patched;
    bool managed_done = false;
    try {
      switch (type) {
        case PatchType::Json:
          if (!doc.is_array())
            throw bad_request("error decoding patch: json: cannot unmarshal " + std::string(json::go_type_name(doc)) +
                              " into Go value of type []handlers.jsonPatchOp");
          patched = json::apply_json_patch(base, doc);
          break;
        case PatchType::Merge: patched = json::apply_merge_patch(base, doc); break;
        case PatchType::Strategic: patched = patch::apply_strategic_merge_patch(base, doc, types); break;
        case PatchType::Apply: {
          patch::ApplyOptions ao;
          ao.subresource = t.subresource;
          auto res = patch::apply(&base, doc, o.field_manager, force, want_api, types, meta::Clock::now(), ao);
          patched = std::move(res.object);
          managed_done = true;
          break;
        }
      }
    } catch (const patch::ConflictError& e) {
      throw conflict_error(e);
    } catch (const json::PatchError& e) {
      throw patch_error(e);
    }
    if (t.subresource.empty()) {
      std::string_view pn = json::get_string(patched, {"metadata", "name"});
      if (pn != t.name)
        throw bad_request("the name of the object (" + std::string(pn) + ") does not match the name on the URL (" + t.name + ")");
    }
    if (t.subresource != "scale") decode_patched(r, t.version, type, doc, patched, o);
    std::string_view prv = json::get_string(patched, {"metadata", "resourceVersion"});
    if (!prv.empty() && prv != std::to_string(current.rv)) throw optimistic_lock_conflict(r, t.name);
    json::Value next = std::move(patched);
    if (t.subresource == "scale") {
      json::Value obj = old;
      apply_scale(r, t.version, obj, next);
      next = std::move(obj);
    }
    json::Value prepared = prepare_update_object(t, old, std::move(next), o, managed_done);
    if (o.dry_run) return {to_version(r, std::move(prepared), t.version), false};
    try {
      auto res = commit_update(t, current, std::move(prepared));
      if (t.subresource == "scale") res.object = to_scale(r, t.version, res.object);
      return res;
    } catch (const storage::StaleError&) {
      continue;
    } catch (const storage::NotFoundError&) {
      throw not_found(r, t.name);
    }
  }
  throw optimistic_lock_conflict(r, t.name);
}

}  // namespace capstan::apiserver::rest
