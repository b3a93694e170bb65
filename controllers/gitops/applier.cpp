#include "controllers/gitops/applier.h"

#include "apis/gitops/v1/group.h"
#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/meta/object.h"

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

void apply_one(client::Client& c, json::Value& obj, const ApplyOptions& options, ApplyOutcome& out) {
  auto gvk = meta::GroupVersionKind::from(json::get_string(obj, {"apiVersion"}), json::get_string(obj, {"kind"}));
  InventoryEntry entry{"", std::string(meta::name_of(obj)), gvk.group, gvk.kind, gvk.version};
  try {
    auto mapping = mapping_of(c, gvk, options);
    auto& metadata = obj.as_object()["metadata"].as_object();
    if (mapping.namespaced) {
      std::string ns = !options.target_namespace.empty() ? options.target_namespace : std::string(meta::namespace_of(obj));
      if (ns.empty()) ns = options.default_namespace;
      metadata["namespace"] = ns;
      entry.ns = ns;
    } else {
      metadata.erase("namespace");
    }
    out.inventory.push_back(entry);

    std::optional<json::Value> live;
    try {
      live = c.get(mapping.gvr, entry.ns, entry.name);
    } catch (const client::ApiError& e) {
      if (!client::is_not_found(e)) throw;
    }
    if (live && meta::annotation(obj, v1::kReconcileAnnotation) == v1::kDisabled) {
      ++out.skipped;
      return;
    }
    json::Value applied;
    try {
      applied = c.apply(mapping.gvr, entry.ns, obj, v1::kFieldManager, /*force=*/true);
    } catch (const client::ApiError& e) {
      if (!options.force || !live || !immutable_change(e)) throw;
      delete_and_wait(c, mapping.gvr, entry, *live, options);
      c.apply(mapping.gvr, entry.ns, obj, v1::kFieldManager, /*force=*/true);
      ++out.recreated;
      return;
    }
    if (!live) ++out.created;
    else if (meta::resource_version_of(applied) != meta::resource_version_of(*live)) ++out.configured;
    else ++out.unchanged;
  } catch (const std::exception& e) {
    if (out.inventory.empty() || out.inventory.back().id() != entry.id()) out.inventory.push_back(entry);
    out.errors.push_back(entry.display() + ": " + e.what());
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
  for (int stage = 0; stage < 2; ++stage) {
    for (auto& obj : objects) {
      if (first_stage(json::get_string(obj, {"kind"})) != (stage == 0)) continue;
      if (options.stop.stop_requested()) throw std::runtime_error("stopped while applying");
      if (std::chrono::steady_clock::now() > options.deadline) throw std::runtime_error("timeout while applying");
      apply_one(client, obj, options, out);
    }
    // Custom resources of this revision need their CRDs; stop before a stage that would fail.
    if (stage == 0 && !out.errors.empty()) break;
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
