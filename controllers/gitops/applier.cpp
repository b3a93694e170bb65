#include "controllers/gitops/applier.h"

#include "apis/gitops/v1/group.h"
#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/meta/object.h"
#include "runtime/metrics/registry.h"
#include "runtime/pki/digest.h"

#include <thread>

namespace capstan::gitops {
namespace {

namespace v1 = apis::gitops::v1;

bool first_stage(std::string_view kind) { return kind == "CustomResourceDefinition" || kind == "Namespace"; }

// The mapping of `gvk`, waiting for a kind whose CRD this revision may just have applied.
client::RestMapping mapping_of(client::Client& c, const meta::GroupVersionKind& gvk, const ApplyOptions& options) {
  auto deadline = std::chrono::steady_clock::now() + options.crd_wait;
  for (;;) {
    if (auto m = c.mapper().find(gvk)) return *m;
    if (std::chrono::steady_clock::now() >= deadline || options.stop.stop_requested())
      throw std::runtime_error("no kind " + gvk.kind + " is served in " + gvk.api_version());
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

// A change the API server refuses because the field cannot change once set (a Deployment's
// selector, a Job's template, a Service's clusterIP, ...): what spec.force recreates for.
bool immutable_change(const client::ApiError& e) {
  if (e.code() != 422) return false;
  const std::string& m = e.message();
  return m.find("immutable") != std::string::npos || m.find("may not change once set") != std::string::npos ||
         m.find("cannot be changed") != std::string::npos;
}

// Deletes `live` (this very object: a UID precondition) and waits, bounded, until it is gone.
void delete_and_wait(client::Client& c, const meta::GroupVersionResource& gvr, const InventoryEntry& entry, const json::Value& live,
                     const ApplyOptions& options) {
  client::DeleteOptions d;
  d.precondition_uid = std::string(meta::uid_of(live));
  d.propagation = client::Propagation::Background;
  d.ignore_not_found = true;
  c.remove(gvr, entry.ns, entry.name, d);
  const auto deadline = std::min(options.deadline, std::chrono::steady_clock::now() + options.recreate_wait);
  for (;;) {
    try {
      if (meta::uid_of(c.get(gvr, entry.ns, entry.name)) != meta::uid_of(live)) return;
    } catch (const client::ApiError& e) {
      if (client::is_not_found(e)) return;
      throw;
    }
    if (std::chrono::steady_clock::now() >= deadline || options.stop.stop_requested())
      throw std::runtime_error("deleted to recreate it (force), but it is still there (finalizers?)");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

// The applier's traffic: server-side apply requests sent (dry runs and writes), and objects not
// sent because they were unchanged since the last apply.
struct ApplyMetrics {
  metrics::Counter& dry_runs;
  metrics::Counter& writes;
  metrics::Counter& not_sent;
};

ApplyMetrics& apply_metrics() {
  static ApplyMetrics m = [] {
    auto& reg = metrics::Registry::global();
    auto& requests = reg.counter("capstan_gitops_apply_requests_total",
                                 "Server-side apply requests the gitops applier sent, by mode (dry-run, apply).", {"mode"});
    auto& unchanged = reg.counter("capstan_gitops_apply_unchanged_total",
                                  "Objects of a build not sent because they are what was last applied and nobody changed them.");
    return ApplyMetrics{requests.with({"dry-run"}), requests.with({"apply"}), unchanged.with({})};
  }();
  return m;
}

// Server-side apply of `obj` as the gitops field manager, forcing ownership; `dry_run`: the API
// server validates, admits and authorizes it without storing anything.
json::Value server_side_apply(client::Client& c, const meta::GroupVersionResource& gvr, const std::string& ns, const json::Value& obj,
                              bool dry_run) {
  (dry_run ? apply_metrics().dry_runs : apply_metrics().writes).inc();
  client::PatchOptions o;
  o.field_manager = std::string(v1::kFieldManager);
  o.force = true;
  o.dry_run = dry_run;
  return c.patch(gvr, ns, std::string(meta::name_of(obj)), client::PatchType::Apply, std::string_view(json::serialize(obj)), o);
}

// An object of the build on its way to the API server.
struct Pending {
  client::RestMapping mapping;
  InventoryEntry entry;
  json::Value* obj = nullptr;
  std::optional<json::Value> live;
  std::string hash;       // of the body sent
  bool recreate = false;  // force: its change is refused as immutable
};

// What identifies the live object as this applier left it, whatever else changed since: its UID
// and the fields the gitops field manager owns (managedFields' fieldsV1 of its Apply entry). A
// hand edit of one of those fields moves it to another manager, a deletion changes the UID;
// status written by controllers changes neither.
std::string ownership_fingerprint(const json::Value& live) {
  std::string out(meta::uid_of(live));
  if (const auto* fields = json::get_array(live, {"metadata", "managedFields"}))
    for (const auto& f : *fields)
      if (json::get_string(f, {"manager"}) == v1::kFieldManager && json::get_string(f, {"operation"}) == "Apply") {
        out += "|" + std::string(json::get_string(f, {"apiVersion"})) + "|" + std::string(json::get_string(f, {"subresource"}));
        if (const auto* v = json::find(f, {"fieldsV1"})) out += "|" + json::serialize(*v);
      }
  return pki::sha256_hex(out, 16);
}

void record_error(ApplyOutcome& out, const InventoryEntry& entry, const std::exception& e) {
  if (out.inventory.empty() || out.inventory.back().id() != entry.id()) out.inventory.push_back(entry);
  out.errors.push_back(entry.display() + ": " + e.what());
}

// Maps and places `obj`, reads the live object, and decides whether it needs sending: not when
// reconcile is disabled on it, nor when it is what this applier last wrote and nobody changed it
// since (the same body hash, and the live object's ownership_fingerprint as that apply left it).
std::optional<Pending> prepare(client::Client& c, json::Value& obj, const ApplyOptions& options, ApplyOutcome& out) {
  auto gvk = meta::GroupVersionKind::from(json::get_string(obj, {"apiVersion"}), json::get_string(obj, {"kind"}));
  Pending p;
  p.entry = InventoryEntry{"", std::string(meta::name_of(obj)), gvk.group, gvk.kind, gvk.version};
  p.obj = &obj;
  try {
    p.mapping = mapping_of(c, gvk, options);
    auto& metadata = obj.as_object()["metadata"].as_object();
    if (p.mapping.namespaced) {
      std::string ns = !options.target_namespace.empty() ? options.target_namespace : std::string(meta::namespace_of(obj));
      if (ns.empty()) ns = options.default_namespace;
      metadata["namespace"] = ns;
      p.entry.ns = ns;
    } else {
      metadata.erase("namespace");
    }
    out.inventory.push_back(p.entry);
    try {
      p.live = c.get(p.mapping.gvr, p.entry.ns, p.entry.name);
    } catch (const client::ApiError& e) {
      if (!client::is_not_found(e)) throw;
    }
    if (p.live && meta::annotation(obj, v1::kReconcileAnnotation) == v1::kDisabled) {
      ++out.skipped;
      out.applied.push_back(p.entry);
      return std::nullopt;
    }
    p.hash = pki::sha256_hex(json::serialize(obj));
    if (p.live && options.state) {
      auto it = options.state->objects.find(p.entry.id());
      if (it != options.state->objects.end() && it->second.first == p.hash && it->second.second == ownership_fingerprint(*p.live)) {
        ++out.unchanged;
        out.applied.push_back(p.entry);
        apply_metrics().not_sent.inc();
        return std::nullopt;
      }
    }
    return p;
  } catch (const std::exception& e) {
    record_error(out, p.entry, e);
    return std::nullopt;
  }
}

void dry_run(client::Client& c, Pending& p, const ApplyOptions& options, ApplyOutcome& out) {
  try {
    server_side_apply(c, p.mapping.gvr, p.entry.ns, *p.obj, /*dry_run=*/true);
  } catch (const client::ApiError& e) {
    if (options.force && p.live && immutable_change(e)) p.recreate = true;
    else record_error(out, p.entry, e);
  } catch (const std::exception& e) {
    record_error(out, p.entry, e);
  }
}

void commit(client::Client& c, Pending& p, const ApplyOptions& options, ApplyOutcome& out) {
  try {
    json::Value applied;
    if (p.recreate) {
      delete_and_wait(c, p.mapping.gvr, p.entry, *p.live, options);
      applied = server_side_apply(c, p.mapping.gvr, p.entry.ns, *p.obj, false);
      ++out.recreated;
    } else {
      applied = server_side_apply(c, p.mapping.gvr, p.entry.ns, *p.obj, false);
      if (!p.live) ++out.created;
      else if (meta::resource_version_of(applied) != meta::resource_version_of(*p.live)) ++out.configured;
      else ++out.unchanged;
    }
    out.applied.push_back(p.entry);
    if (options.state) options.state->objects[p.entry.id()] = {p.hash, ownership_fingerprint(applied)};
  } catch (const std::exception& e) {
    record_error(out, p.entry, e);
  }
}

}  // namespace

std::string ApplyOutcome::summary() const {
  std::string s = std::to_string(created) + " created, " + std::to_string(configured) + " configured, " +
                  std::to_string(unchanged) + " unchanged";
  if (recreated) s += ", " + std::to_string(recreated) + " recreated (force)";
  if (skipped) s += ", " + std::to_string(skipped) + " skipped (reconcile disabled)";
  return s;
}

ApplyOutcome apply_all(client::Client& client, std::vector<json::Value> objects, const ApplyOptions& options) {
  ApplyOutcome out;
  auto check_time = [&] {
    if (options.stop.stop_requested()) throw std::runtime_error("stopped while applying");
    if (std::chrono::steady_clock::now() > options.deadline) throw std::runtime_error("timeout while applying");
  };
  for (int stage = 0; stage < 2; ++stage) {
    std::vector<Pending> pending;
    for (auto& obj : objects) {
      if (first_stage(json::get_string(obj, {"kind"})) != (stage == 0)) continue;
      check_time();
      if (auto p = prepare(client, obj, options, out)) pending.push_back(std::move(*p));
    }
    // Every object of the stage is validated, admitted and authorized (a dry run) before any
    // is written, so one the API server or the account's RBAC refuses leaves the rest as it was.
    for (auto& p : pending) {
      if (!out.errors.empty()) break;
      check_time();
      dry_run(client, p, options, out);
    }
    if (!out.errors.empty()) break;
    for (auto& p : pending) {
      check_time();
      commit(client, p, options, out);
    }
    // Custom resources of this revision need their CRDs; stop before a stage that would fail.
    if (!out.errors.empty()) break;
  }
  return out;
}

PruneOutcome prune(client::Client& client, const std::vector<InventoryEntry>& stale, const Owner& owner) {
  PruneOutcome out;
  for (const auto& e : stale) {
    try {
      auto mapping = client.mapper().find(e.gvk());
      if (!mapping) continue;  // the kind is gone (its CRD deleted): so are its objects
      json::Value live;
      try {
        live = client.get(mapping->gvr, e.ns, e.name);
      } catch (const client::ApiError& err) {
        if (client::is_not_found(err)) continue;
        throw;
      }
      if (meta::label(live, v1::kNameLabel) != owner.name || meta::label(live, v1::kNamespaceLabel) != owner.ns ||
          meta::annotation(live, v1::kPruneAnnotation) == v1::kDisabled) {
        out.kept.push_back(e.display());
        continue;
      }
      client::DeleteOptions d;
      d.propagation = client::Propagation::Background;
      d.precondition_uid = std::string(meta::uid_of(live));
      d.ignore_not_found = true;
      client.remove(mapping->gvr, e.ns, e.name, d);
      ++out.deleted;
    } catch (const std::exception& err) {
      out.errors.push_back(e.display() + ": " + err.what());
    }
  }
  return out;
}

}  // namespace capstan::gitops
