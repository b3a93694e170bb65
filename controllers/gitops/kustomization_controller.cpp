#include "controllers/gitops/kustomization_controller.h"

#include "apis/gitops/v1/group.h"
#include "apis/gitops/v1/types.h"
#include "controllers/gitops/applier.h"
#include "controllers/gitops/env.h"
#include "controllers/gitops/manifests.h"
#include "controllers/gitops/status.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/controller/finalizer.h"
#include "runtime/events/event.h"
#include "runtime/meta/object.h"

#include <memory>
#include <set>

namespace capstan::gitops {
namespace {

namespace v1 = apis::gitops::v1;
using std::chrono::milliseconds;

std::string join_errors(const std::vector<std::string>& errors) {
  std::string out;
  for (std::size_t i = 0; i < errors.size() && i < 5; ++i) out += (i ? "\n" : "") + errors[i];
  if (errors.size() > 5) out += "\n(and " + std::to_string(errors.size() - 5) + " more)";
  return out;
}

// The objects the union of two inventories names (a failed apply keeps what it created tracked).
std::vector<InventoryEntry> merged(std::vector<InventoryEntry> a, const std::vector<InventoryEntry>& b) {
  std::set<std::string> ids;
  for (const auto& e : a) ids.insert(e.id());
  for (const auto& e : b)
    if (ids.insert(e.id()).second) a.push_back(e);
  return a;
}

struct Failure {
  std::string_view reason;
  std::string message;
};

class Reconciler {
 public:
  Reconciler(Env& env, const controller::Request& request, controller::Context& ctx)
      : env_(env), request_(request), ctx_(ctx) {}

  controller::Result run() {
    auto cached = env_.kustomizations.get(request_.ns, request_.name);
    if (!cached) return controller::Result::done();
    before_ = cached->value();
    generation_ = meta::generation_of(before_);
    try {
      k_ = v1::Kustomization::from_json(before_);
    } catch (const apis::codec::DecodeError& e) {
      k_.status = read_status<v1::KustomizationStatus>(before_);
      condition(v1::condition::kStalled, "True", "InvalidSpec", e.what());
      condition(v1::condition::kReady, "False", "InvalidSpec", e.what());
      write_status(env_.client, kKustomizationType, before_, k_.status);
      throw controller::TerminalError("Kustomization " + request_.key() + ": " + e.what());
    }
    // What Git holds is applied and pruned as the Kustomization's ServiceAccount (Flux's
    // spec.serviceAccountName), so it can change only what that account may.
    applier_ = env_.client.impersonating(env_.applier(request_.ns, spec_.service_account_name));
    if (meta::is_deleting(before_)) return finalize();
    controller::write_finalizer(env_.client, kKustomizationType.gvr, before_, v1::kFinalizer, spec_.prune);
    if (spec_.suspend) {
      ctx_.log.debug("suspended");
      return controller::Result::done();
    }
    if (auto refused = cross_namespace_reference(); !refused.empty()) {
      // Nothing to retry until the spec (or the manager's flag) changes.
      condition(v1::condition::kStalled, "True", v1::reason::kAccessDenied, refused);
      fail({v1::reason::kAccessDenied, refused});
      return controller::Result::done();
    }
    if (auto waiting = unready_dependency(); !waiting.empty()) {
      fail({v1::reason::kDependencyNotReady, "dependency '" + waiting + "' is not ready"});
      return controller::Result::after(env_.options.dependency_requeue);
    }
    return reconcile();
  }

 private:
  void condition(std::string_view type, std::string_view status, std::string_view reason, const std::string& message) {
    set_condition(k_.status.conditions, type, status, reason, message, generation_);
  }

  milliseconds interval() const { return spec_.interval > milliseconds::zero() ? spec_.interval : milliseconds(600'000); }
  milliseconds retry_interval() const {
    return spec_.effective_retry_interval() > milliseconds::zero() ? spec_.effective_retry_interval() : interval();
  }

  // With no_cross_namespace_refs, why a reference is refused ("" = none is).
  std::string cross_namespace_reference() const {
    if (!env_.options.no_cross_namespace_refs) return "";
    auto refused = [&](std::string_view kind, const std::string& ns, const std::string& name) {
      return "cannot access " + std::string(kind) + " '" + ns + "/" + name +
             "': cross-namespace references are not allowed (--gitops-no-cross-namespace-refs)";
    };
    const auto& source = spec_.source_ref;
    if (!source.ns.empty() && source.ns != request_.ns) return refused(source.kind, source.ns, source.name);
    for (const auto& d : spec_.depends_on)
      if (!d.ns.empty() && d.ns != request_.ns) return refused("Kustomization", d.ns, d.name);
    return "";
  }

  std::string unready_dependency() const {
    for (const auto& d : spec_.depends_on) {
      std::string ns = d.ns.empty() ? request_.ns : d.ns;
      auto dep = env_.kustomizations.get(ns, d.name);
      if (!dep || !condition_current(dep->value(), v1::condition::kReady, "True")) return ns + "/" + d.name;
    }
    return "";
  }

  void fail(const Failure& f) {
    remove_condition(k_.status.conditions, v1::condition::kReconciling);
    condition(v1::condition::kReady, "False", f.reason, f.message);
    if (write_status(env_.client, kKustomizationType, before_, k_.status))
      env_.event(before_, events::kWarning, f.reason, f.message);
    ctx_.log.warn("reconcile failed", {{"reason", std::string(f.reason)}, {"message", f.message}});
  }

  controller::Result reconcile() {
    auto source = source_files();
    if (!source) return controller::Result::after(retry_interval());
    auto& [revision, files] = *source;
    auto& status = k_.status;
    status.last_attempted_revision = revision;

    std::vector<json::Value> objects;
    try {
      BuildOptions b;
      b.path = spec_.path;
      b.name_prefix = spec_.name_prefix;
      b.name_suffix = spec_.name_suffix;
      b.labels = spec_.common_metadata.labels;
      b.labels[std::string(v1::kNameLabel)] = request_.name;
      b.labels[std::string(v1::kNamespaceLabel)] = request_.ns;
      b.annotations = spec_.common_metadata.annotations;
      if (!spec_.patches.empty()) {
        json::Array patches;
        for (const auto& p : spec_.patches) patches.push_back(p.to_json());
        b.patches = std::move(patches);
      }
      if (!spec_.images.empty()) {
        json::Array images;
        for (const auto& i : spec_.images) images.push_back(i.to_json());
        b.images = std::move(images);
      }
      objects = build_manifests(files, b);
    } catch (const BuildError& e) {
      fail({v1::reason::kBuildFailed, e.what()});
      return controller::Result::after(retry_interval());
    }

    ApplyOptions a;
    a.default_namespace = request_.ns;
    a.target_namespace = spec_.target_namespace;
    a.stop = ctx_.stop;
    if (spec_.effective_timeout() > milliseconds::zero()) a.deadline = std::chrono::steady_clock::now() + spec_.effective_timeout();
    const auto old_inventory = read_inventory(status.inventory);
    ApplyOutcome applied;
    try {
      applied = apply_all(*applier_, std::move(objects), a);
    } catch (const std::exception& e) {
      applied.errors.push_back(e.what());
    }
    if (!applied.errors.empty()) {
      status.inventory = to_inventory(merged(old_inventory, applied.inventory));
      fail({v1::reason::kReconciliationFailed, "apply failed: " + join_errors(applied.errors)});
      return controller::Result::after(retry_interval());
    }
    status.inventory = to_inventory(applied.inventory);

    PruneOutcome pruned;
    if (spec_.prune) {
      pruned = prune(*applier_, removed_entries(old_inventory, applied.inventory), {request_.name, request_.ns});
      if (!pruned.errors.empty()) {
        status.inventory = to_inventory(merged(applied.inventory, old_inventory));
        fail({v1::reason::kPruneFailed, "prune failed: " + join_errors(pruned.errors)});
        return controller::Result::after(retry_interval());
      }
    }

    std::string message = "Applied revision: " + revision;
    const bool new_revision = status.last_applied_revision != revision;
    status.last_applied_revision = revision;
    remove_condition(status.conditions, v1::condition::kReconciling);
    remove_condition(status.conditions, v1::condition::kStalled);
    condition(v1::condition::kReady, "True", v1::reason::kReconciliationSucceeded, message);
    write_status(env_.client, kKustomizationType, before_, status);
    std::string changes = applied.summary() + (pruned.deleted ? ", " + std::to_string(pruned.deleted) + " pruned" : "");
    if (new_revision || applied.created || applied.configured || pruned.deleted) {
      ctx_.log.info("applied", {{"revision", revision}, {"changes", changes}});
      env_.event(before_, events::kNormal, v1::reason::kReconciliationSucceeded, message + " (" + changes + ")");
    }
    return controller::Result::after(interval());
  }

  // The source revision and the files of that commit, or nullopt after recording why not.
  std::optional<std::pair<std::string, std::map<std::string, std::string>>> source_files() {
    const auto& source = spec_.source_ref;
    std::string ns = source.ns.empty() ? request_.ns : source.ns;
    std::string ref = source.kind + " '" + ns + "/" + source.name + "'";
    auto cached = env_.repositories.get(ns, source.name);
    if (!cached) {
      fail({v1::reason::kArtifactFailed, ref + " not found"});
      return std::nullopt;
    }
    v1::GitRepository repo;
    try {
      repo = v1::GitRepository::from_json(cached->value());
    } catch (const apis::codec::DecodeError& e) {
      fail({v1::reason::kArtifactFailed, ref + ": " + e.what()});
      return std::nullopt;
    }
    const std::string revision = repo.status.artifact ? repo.status.artifact->revision : "";
    auto at = revision.rfind("sha1:");
    if (revision.empty() || at == std::string::npos) {
      fail({v1::reason::kArtifactFailed, ref + " has no artifact yet"});
      return std::nullopt;
    }
    std::string commit = revision.substr(at + 5);
    const std::string& url = repo.spec.url;
    try {
      // After a restart with an empty storage path the mirror may lack the commit.
      if (!env_.mirrors.has_commit(url, commit)) env_.mirrors.sync(url, git::Ref{"", "", commit, ""}, repo.spec.timeout);
      return std::make_pair(revision, env_.mirrors.files(url, commit, ""));
    } catch (const std::exception& e) {
      fail({v1::reason::kArtifactFailed, "reading revision " + revision + " of " + ref + ": " + e.what()});
      return std::nullopt;
    }
  }

  controller::Result finalize() {
    if (!meta::has_finalizer(before_, v1::kFinalizer)) return controller::Result::done();
    if (spec_.prune && !spec_.suspend) {
      auto pruned = prune(*applier_, read_inventory(k_.status.inventory), {request_.name, request_.ns});
      if (!pruned.errors.empty()) {
        fail({v1::reason::kPruneFailed, "prune failed: " + join_errors(pruned.errors)});
        return controller::Result::after(retry_interval());
      }
      ctx_.log.info("pruned on deletion", {{"deleted", std::to_string(pruned.deleted)}});
    }
    controller::write_finalizer(env_.client, kKustomizationType.gvr, before_, v1::kFinalizer, false);
    return controller::Result::done();
  }

  Env& env_;
  const controller::Request& request_;
  controller::Context& ctx_;
  json::Value before_;
  v1::Kustomization k_;
  const v1::KustomizationSpec& spec_ = k_.spec;
  std::int64_t generation_ = 0;
  std::unique_ptr<client::Client> applier_;  // env_.client acting as the Kustomization's ServiceAccount
};

}  // namespace

controller::Result reconcile_kustomization(Env& env, const controller::Request& request, controller::Context& ctx) {
  return Reconciler(env, request, ctx).run();
}

}  // namespace capstan::gitops
