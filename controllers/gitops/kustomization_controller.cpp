#include "controllers/gitops/kustomization_controller.h"

#include "apis/gitops/v1/group.h"
#include "apis/gitops/v1/types.h"
#include "controllers/gitops/applier.h"
#include "controllers/gitops/env.h"
#include "controllers/gitops/manifests.h"
#include "controllers/gitops/status.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/events/event.h"
#include "runtime/meta/object.h"

#include <memory>
#include <set>

namespace capstan::gitops {
namespace {

namespace v1 = apis::gitops::v1;
using std::chrono::milliseconds;

// Writes metadata.finalizers (optimistic: the patch carries the cached resourceVersion).
void write_finalizers(Env& env, const json::Value& obj, bool present) {
  json::Value copy = obj;
  bool changed = present ? meta::add_finalizer(copy, v1::kFinalizer) : meta::remove_finalizer(copy, v1::kFinalizer);
  if (!changed) return;
  const json::Value* finalizers = json::find(copy, {"metadata", "finalizers"});
  json::Object metadata{{"resourceVersion", meta::resource_version_of(obj)},
                        {"finalizers", finalizers ? *finalizers : json::Value(json::Array())}};
  env.client.patch(kKustomizationType.gvr, meta::namespace_of(obj), meta::name_of(obj), client::PatchType::Merge,
                   json::Value(json::Object{{"metadata", std::move(metadata)}}));
}

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
    obj_ = before_;
    try {
      spec_ = v1::parse_kustomization_spec(obj_);
    } catch (const std::invalid_argument& e) {
      set_condition(obj_, v1::condition::kStalled, "True", "InvalidSpec", e.what());
      set_condition(obj_, v1::condition::kReady, "False", "InvalidSpec", e.what());
      write_status(env_.client, kKustomizationType, before_, obj_);
      throw controller::TerminalError("Kustomization " + request_.key() + ": " + e.what());
    }
    // What Git holds is applied and pruned as the Kustomization's ServiceAccount (Flux's
    // spec.serviceAccountName), so it can change only what that account may.
    applier_ = env_.client.impersonating(env_.applier(request_.ns, spec_.service_account_name));
    if (meta::is_deleting(obj_)) return finalize();
    write_finalizers(env_, obj_, spec_.prune);
    if (spec_.suspend) {
      ctx_.log.debug("suspended");
      return controller::Result::done();
    }
    if (auto refused = cross_namespace_reference(); !refused.empty()) {
      // Nothing to retry until the spec (or the manager's flag) changes.
      set_condition(obj_, v1::condition::kStalled, "True", v1::reason::kAccessDenied, refused);
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
  milliseconds interval() const { return spec_.interval > milliseconds::zero() ? spec_.interval : milliseconds(600'000); }
  milliseconds retry_interval() const { return spec_.retry_interval > milliseconds::zero() ? spec_.retry_interval : interval(); }

  // With no_cross_namespace_refs, why a reference is refused ("" = none is).
  std::string cross_namespace_reference() const {
    if (!env_.options.no_cross_namespace_refs) return "";
    auto refused = [&](std::string_view kind, const v1::ObjectRef& ref) {
      return "cannot access " + std::string(kind) + " '" + ref.ns + "/" + ref.name +
             "': cross-namespace references are not allowed (--gitops-no-cross-namespace-refs)";
    };
    if (!spec_.source.ns.empty() && spec_.source.ns != request_.ns) return refused(spec_.source_kind, spec_.source);
    for (const auto& d : spec_.depends_on)
      if (!d.ns.empty() && d.ns != request_.ns) return refused("Kustomization", d);
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
    remove_condition(obj_, v1::condition::kReconciling);
    set_condition(obj_, v1::condition::kReady, "False", f.reason, f.message);
    if (write_status(env_.client, kKustomizationType, before_, obj_))
      env_.event(obj_, events::kWarning, f.reason, f.message);
    ctx_.log.warn("reconcile failed", {{"reason", std::string(f.reason)}, {"message", f.message}});
  }

  controller::Result reconcile() {
    auto source = source_files();
    if (!source) return controller::Result::after(retry_interval());
    auto& [revision, files] = *source;
    auto& status = status_of(obj_);
    status["lastAttemptedRevision"] = revision;

    std::vector<json::Value> objects;
    try {
      BuildOptions b;
      b.path = spec_.path;
      b.name_prefix = spec_.name_prefix;
      b.name_suffix = spec_.name_suffix;
      b.labels = spec_.common_labels;
      b.labels[std::string(v1::kNameLabel)] = request_.name;
      b.labels[std::string(v1::kNamespaceLabel)] = request_.ns;
      b.annotations = spec_.common_annotations;
      objects = build_manifests(files, b);
    } catch (const BuildError& e) {
      fail({v1::reason::kBuildFailed, e.what()});
      return controller::Result::after(retry_interval());
    }

    ApplyOptions a;
    a.default_namespace = request_.ns;
    a.target_namespace = spec_.target_namespace;
    a.stop = ctx_.stop;
    if (spec_.timeout > milliseconds::zero()) a.deadline = std::chrono::steady_clock::now() + spec_.timeout;
    const auto old_inventory = read_inventory(before_);
    ApplyOutcome applied;
    try {
      applied = apply_all(*applier_, std::move(objects), a);
    } catch (const std::exception& e) {
      applied.errors.push_back(e.what());
    }
    if (!applied.errors.empty()) {
      status["inventory"] = inventory_json(merged(old_inventory, applied.inventory));
      fail({v1::reason::kReconciliationFailed, "apply failed: " + join_errors(applied.errors)});
      return controller::Result::after(retry_interval());
    }
    status["inventory"] = inventory_json(applied.inventory);

    PruneOutcome pruned;
    if (spec_.prune) {
      pruned = prune(*applier_, removed_entries(old_inventory, applied.inventory), {request_.name, request_.ns});
      if (!pruned.errors.empty()) {
        status["inventory"] = inventory_json(merged(applied.inventory, old_inventory));
        fail({v1::reason::kPruneFailed, "prune failed: " + join_errors(pruned.errors)});
        return controller::Result::after(retry_interval());
      }
    }

    std::string message = "Applied revision: " + revision;
    const bool new_revision = json::get_string(before_, {"status", "lastAppliedRevision"}) != revision;
    status["lastAppliedRevision"] = revision;
    remove_condition(obj_, v1::condition::kReconciling);
    remove_condition(obj_, v1::condition::kStalled);
    set_condition(obj_, v1::condition::kReady, "True", v1::reason::kReconciliationSucceeded, message);
    write_status(env_.client, kKustomizationType, before_, obj_);
    std::string changes = applied.summary() + (pruned.deleted ? ", " + std::to_string(pruned.deleted) + " pruned" : "");
    if (new_revision || applied.created || applied.configured || pruned.deleted) {
      ctx_.log.info("applied", {{"revision", revision}, {"changes", changes}});
      env_.event(obj_, events::kNormal, v1::reason::kReconciliationSucceeded, message + " (" + changes + ")");
    }
    return controller::Result::after(interval());
  }

  // The source revision and the files of that commit, or nullopt after recording why not.
  std::optional<std::pair<std::string, std::map<std::string, std::string>>> source_files() {
    std::string ns = spec_.source.ns.empty() ? request_.ns : spec_.source.ns;
    std::string ref = spec_.source_kind + " '" + ns + "/" + spec_.source.name + "'";
    auto repo = env_.repositories.get(ns, spec_.source.name);
    if (!repo) {
      fail({v1::reason::kArtifactFailed, ref + " not found"});
      return std::nullopt;
    }
    std::string revision(json::get_string(repo->value(), {"status", "artifact", "revision"}));
    auto at = revision.rfind("sha1:");
    if (revision.empty() || at == std::string::npos) {
      fail({v1::reason::kArtifactFailed, ref + " has no artifact yet"});
      return std::nullopt;
    }
    std::string commit = revision.substr(at + 5);
    std::string url(json::get_string(repo->value(), {"spec", "url"}));
    try {
      auto repo_spec = v1::parse_git_repository_spec(repo->value());
      // After a restart with an empty storage path the mirror may lack the commit.
      if (!env_.mirrors.has_commit(url, commit)) env_.mirrors.sync(url, git::Ref{"", "", commit, ""}, repo_spec.timeout);
      return std::make_pair(revision, env_.mirrors.files(url, commit, ""));
    } catch (const std::exception& e) {
      fail({v1::reason::kArtifactFailed, "reading revision " + revision + " of " + ref + ": " + e.what()});
      return std::nullopt;
    }
  }

  controller::Result finalize() {
    if (!meta::has_finalizer(obj_, v1::kFinalizer)) return controller::Result::done();
    if (spec_.prune && !spec_.suspend) {
      auto pruned = prune(*applier_, read_inventory(before_), {request_.name, request_.ns});
      if (!pruned.errors.empty()) {
        fail({v1::reason::kPruneFailed, "prune failed: " + join_errors(pruned.errors)});
        return controller::Result::after(retry_interval());
      }
      ctx_.log.info("pruned on deletion", {{"deleted", std::to_string(pruned.deleted)}});
    }
    write_finalizers(env_, before_, false);
    return controller::Result::done();
  }

  Env& env_;
  const controller::Request& request_;
  controller::Context& ctx_;
  json::Value before_, obj_;
  v1::KustomizationSpec spec_;
  std::unique_ptr<client::Client> applier_;  // env_.client acting as the Kustomization's ServiceAccount
};

}  // namespace

controller::Result reconcile_kustomization(Env& env, const controller::Request& request, controller::Context& ctx) {
  return Reconciler(env, request, ctx).run();
}

}  // namespace capstan::gitops
