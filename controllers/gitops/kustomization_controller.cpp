#include "controllers/gitops/kustomization_controller.h"

#include "apis/gitops/v1/group.h"
#include "apis/gitops/v1/types.h"
#include "apis/gitops/v1/variable_name.h"
#include "controllers/gitops/applier.h"
#include "controllers/gitops/artifact.h"
#include "controllers/gitops/decryption.h"
#include "controllers/gitops/env.h"
#include "controllers/gitops/health.h"
#include "controllers/gitops/manifests.h"
#include "controllers/gitops/substitute.h"
#include "controllers/gitops/status.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/controller/finalizer.h"
#include "runtime/events/event.h"
#include "runtime/meta/base64.h"
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
    if (!cached) {
      env_.set_health_wait(request_.key(), std::nullopt);
      env_.forget_applied(request_.key());
      return controller::Result::done();
    }
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
    // Waiting for the health of what this generation applied from this revision: look again
    // without building and applying again.
    if (auto wait = env_.health_wait(request_.key()); wait && wait->generation == generation_) {
      std::string error;
      if (artifact_revision(error) == wait->revision) return check_health(*wait);
    }
    env_.set_health_wait(request_.key(), std::nullopt);
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
    auto source = source_listing();
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
      if (spec_.post_build) b.variables = post_build_variables();
      std::optional<sops::Keys> keys;
      if (spec_.decryption) b.decryption = &keys.emplace(decryption_keys());
      // The path is read at once; what it refers to elsewhere (bases, components, generator
      // sources) when the build gets there; all of it, and only it, counted against the limits.
      ArtifactTree tree(env_.mirrors, files, env_.options.build_limits);
      tree.prefetch(clean_path(spec_.path));
      objects = build_manifests(tree, b);
    } catch (const BuildError& e) {
      fail({v1::reason::kBuildFailed, e.what()});
      return controller::Result::after(retry_interval());
    }

    ApplyOptions a;
    a.default_namespace = request_.ns;
    a.target_namespace = spec_.target_namespace;
    a.stop = ctx_.stop;
    a.force = spec_.force;
    const auto applied_state = env_.applied_state(request_.key());
    a.state = applied_state.get();
    if (spec_.effective_timeout() > milliseconds::zero()) a.deadline = std::chrono::steady_clock::now() + spec_.effective_timeout();
    const auto old_inventory = read_inventory(status.inventory);
    ApplyOutcome applied;
    try {
      applied = apply_all(*applier_, std::move(objects), a);
    } catch (const std::exception& e) {
      applied.errors.push_back(e.what());
    }
    if (!applied.errors.empty()) {
      // What was written stays tracked (for prune); what the failure kept out of the cluster is not.
      status.inventory = to_inventory(merged(old_inventory, applied.applied));
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

    changes_ = applied.summary() + (pruned.deleted ? ", " + std::to_string(pruned.deleted) + " pruned" : "");
    changed_ = applied.created || applied.configured || applied.recreated || pruned.deleted;
    if (const auto checks = health_targets(applied.inventory); !checks.empty()) {
      HealthWait wait{generation_, revision, checks, std::chrono::steady_clock::now()};
      env_.set_health_wait(request_.key(), wait);
      return check_health(wait);
    }
    remove_condition(status.conditions, v1::condition::kHealthy);  // nothing is checked any more
    return succeed(revision);
  }

  controller::Result succeed(const std::string& revision) {
    auto& status = k_.status;
    std::string message = "Applied revision: " + revision;
    const bool new_revision = status.last_applied_revision != revision;
    status.last_applied_revision = revision;
    remove_condition(status.conditions, v1::condition::kReconciling);
    remove_condition(status.conditions, v1::condition::kStalled);
    condition(v1::condition::kReady, "True", v1::reason::kReconciliationSucceeded, message);
    write_status(env_.client, kKustomizationType, before_, status);
    if (new_revision || changed_) {
      ctx_.log.info("applied", {{"revision", revision}, {"changes", changes_}});
      env_.event(before_, events::kNormal, v1::reason::kReconciliationSucceeded, message + (changes_.empty() ? "" : " (" + changes_ + ")"));
    }
    return controller::Result::after(interval());
  }

  // spec.postBuild's variables: substituteFrom in order, then substitute, later ones winning. Read
  // as the Kustomization's ServiceAccount, so a tenant substitutes only what it may read. Keys of
  // a ConfigMap or Secret that cannot be variable names are skipped.
  Variables post_build_variables() const {
    Variables vars;
    for (const auto& ref : spec_.post_build->substitute_from) {
      const std::string name = "postBuild.substituteFrom " + ref.kind + "/" + request_.ns + "/" + ref.name;
      auto obj = read_as_account(ref.kind, ref.name, name, ref.optional);
      if (!obj) continue;
      if (const auto* data = json::get_object(*obj, {"data"}))
        for (const auto& kv : *data) {
          if (!kv.value().is_string() || !apis::gitops::v1::valid_variable_name(kv.key())) continue;
          if (ref.kind != "Secret") {
            vars[std::string(kv.key())] = std::string(kv.value().get_string());
            continue;
          }
          auto decoded = meta::base64_decode(kv.value().get_string());
          if (!decoded) throw BuildError(name + ": data." + std::string(kv.key()) + " is not base64");
          vars[std::string(kv.key())] = std::move(*decoded);
        }
    }
    for (const auto& [k, v] : spec_.post_build->substitute) vars[k] = v;
    return vars;
  }

  // spec.decryption's age keys, read as the Kustomization's ServiceAccount (as substituteFrom is).
  sops::Keys decryption_keys() const {
    const auto& ref = spec_.decryption->secret_ref;
    if (!ref) return {};
    const std::string name = "decryption.secretRef Secret/" + request_.ns + "/" + ref->name;
    return gitops::decryption_keys(*read_as_account("Secret", ref->name, name, false), name);
  }

  // A ConfigMap or Secret of the Kustomization's namespace, read as its ServiceAccount; nullopt
  // when missing and `optional`. Throws BuildError naming the reference (`what`) otherwise.
  std::optional<json::Value> read_as_account(const std::string& kind, const std::string& name, const std::string& what, bool optional) const {
    try {
      return applier_->get(meta::GroupVersionKind{"", "v1", kind}, request_.ns, name);
    } catch (const std::exception& e) {
      if (client::is_not_found(e) && optional) return std::nullopt;
      throw BuildError(what + ": " + (client::is_not_found(e) ? std::string("not found") : std::string(e.what())));
    }
  }

  // What wait (every applied object) or healthChecks names.
  std::vector<InventoryEntry> health_targets(const std::vector<InventoryEntry>& applied) const {
    if (spec_.wait) return applied;
    std::vector<InventoryEntry> out;
    for (const auto& h : spec_.health_checks) {
      InventoryEntry e;
      auto slash = h.api_version.find('/');
      e.group = slash == std::string::npos ? "" : h.api_version.substr(0, slash);
      e.version = slash == std::string::npos ? h.api_version : h.api_version.substr(slash + 1);
      e.kind = h.kind;
      e.name = h.name;
      e.ns = h.ns.empty() ? request_.ns : h.ns;
      out.push_back(std::move(e));
    }
    return out;
  }

  // Reads the checked objects once: ready, still waiting (look again after health_poll), or failed
  // (one failed, or timeout passed since the apply).
  controller::Result check_health(const HealthWait& wait) {
    std::vector<std::string> waiting;
    bool failed = false;
    for (const auto& e : wait.objects) {
      Health h;
      try {
        h = assess_health(applier_->get(e.gvk(), e.ns, e.name));
      } catch (const std::exception& ex) {
        h = {HealthStatus::kInProgress, client::is_not_found(ex) ? "not found" : ex.what()};
      }
      if (h.status == HealthStatus::kCurrent) continue;
      failed = failed || h.status == HealthStatus::kFailed;
      waiting.push_back(e.display() + " status: '" + std::string(to_string(h.status)) + "'" + (h.message.empty() ? "" : ": " + h.message));
    }
    const auto elapsed = std::chrono::duration_cast<milliseconds>(std::chrono::steady_clock::now() - wait.since);
    const std::string seconds = std::to_string(elapsed.count() / 1000) + "." + std::to_string(elapsed.count() % 1000 / 100) + "s";
    if (waiting.empty()) {
      env_.set_health_wait(request_.key(), std::nullopt);
      condition(v1::condition::kHealthy, "True", v1::reason::kSucceeded, "Health check passed in " + seconds);
      return succeed(wait.revision);
    }
    if (failed || elapsed >= spec_.effective_timeout()) {
      env_.set_health_wait(request_.key(), std::nullopt);
      const std::string message = "health check failed after " + seconds + ": " + (failed ? "" : "timeout waiting for: ") + join_errors(waiting);
      condition(v1::condition::kHealthy, "False", v1::reason::kHealthCheckFailed, message);
      fail({v1::reason::kHealthCheckFailed, message});
      return controller::Result::after(retry_interval());
    }
    const std::string message = "Health check in progress: waiting for " + join_errors(waiting);
    condition(v1::condition::kHealthy, "Unknown", v1::reason::kProgressing, "Health check in progress");
    condition(v1::condition::kReconciling, "True", v1::reason::kProgressing, message);
    condition(v1::condition::kReady, "Unknown", v1::reason::kProgressing, message);
    write_status(env_.client, kKustomizationType, before_, k_.status);
    return controller::Result::after(std::min(env_.options.health_poll, retry_interval()));
  }

  // The source, with an artifact, or nullopt with `error` set.
  std::optional<v1::GitRepository> source(std::string& error) const {
    const auto& ref = spec_.source_ref;
    std::string ns = ref.ns.empty() ? request_.ns : ref.ns;
    std::string name = ref.kind + " '" + ns + "/" + ref.name + "'";
    auto cached = env_.repositories.get(ns, ref.name);
    if (!cached) {
      error = name + " not found";
      return std::nullopt;
    }
    v1::GitRepository repo;
    try {
      repo = v1::GitRepository::from_json(cached->value());
    } catch (const apis::codec::DecodeError& e) {
      error = name + ": " + e.what();
      return std::nullopt;
    }
    const std::string revision = repo.status.artifact ? repo.status.artifact->revision : "";
    if (revision.empty() || revision.rfind("sha1:") == std::string::npos) {
      error = name + " has no artifact yet";
      return std::nullopt;
    }
    return repo;
  }

  // The revision of the source's artifact, or "" with `error` set.
  std::string artifact_revision(std::string& error) const {
    auto repo = source(error);
    return repo ? repo->status.artifact->revision : "";
  }

  // The source revision and its artifact's listing, or nullopt after recording why not.
  std::optional<std::pair<std::string, std::shared_ptr<const ArtifactListing>>> source_listing() {
    std::string error;
    const auto repo = source(error);
    if (!repo) {
      fail({v1::reason::kArtifactFailed, error});
      return std::nullopt;
    }
    const std::string revision = repo->status.artifact->revision;
    const auto& ref = spec_.source_ref;
    const std::string name = ref.kind + " '" + (ref.ns.empty() ? request_.ns : ref.ns) + "/" + ref.name + "'";
    try {
      return std::make_pair(revision, cached_artifact_listing(env_, ref.ns.empty() ? request_.ns : ref.ns, *repo));
    } catch (const std::exception& e) {
      fail({v1::reason::kArtifactFailed, "reading revision " + revision + " of " + name + ": " + e.what()});
      return std::nullopt;
    }
  }

  controller::Result finalize() {
    env_.set_health_wait(request_.key(), std::nullopt);
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
  std::string changes_;                      // "2 created, 1 configured, 5 unchanged" of this apply
  bool changed_ = false;
};

}  // namespace

controller::Result reconcile_kustomization(Env& env, const controller::Request& request, controller::Context& ctx) {
  return Reconciler(env, request, ctx).run();
}

}  // namespace capstan::gitops
