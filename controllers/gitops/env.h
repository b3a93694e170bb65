// What the gitops reconcilers share: the client, the two shared informers, the Git mirrors, the
// event recorder and the health waits in progress. Built once by wire_gitops(); reconcilers keep
// no other state across calls (the revision to apply is read from the GitRepository's status, the
// inventory from the Kustomization's).
#pragma once

#include "apis/gitops/v1/group.h"
#include "apis/gitops/v1/types.h"
#include "controllers/gitops/applier.h"
#include "controllers/gitops/artifact_cache.h"
#include "controllers/gitops/git/mirrors.h"
#include "controllers/gitops/inventory.h"
#include "runtime/client/config.h"
#include "runtime/controller/builder.h"
#include "runtime/meta/gvk.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

namespace capstan::client {
class Client;
}
namespace capstan::cache {
class Informer;
}
namespace capstan::events {
class Recorder;
}

namespace capstan::gitops {

using apis::gitops::v1::kGitRepositoryType;
using apis::gitops::v1::kKustomizationType;

inline constexpr std::string_view kEventComponent = "capstan-gitops";

struct GitopsOptions {
  // Where the Git mirrors live (Flux source-controller's --storage-path); a cache: deleting it
  // costs one fetch per repository.
  std::filesystem::path storage_path = "/tmp/capstan-gitops";
  int max_concurrent_reconciles = 4;  // per controller (Flux: --concurrent 2 / 4)
  // How soon a Kustomization waiting for its dependencies looks again (Flux's --requeue-dependency).
  std::chrono::milliseconds dependency_requeue{30'000};
  // Retry delay after a failed fetch is min(interval, this).
  std::chrono::milliseconds fetch_retry{10'000};
  // How often mirrors of URLs no GitRepository names any more are deleted (mirror_gc.h).
  std::chrono::milliseconds mirror_gc_interval{std::chrono::minutes(10)};
  // Whom Kustomizations without spec.serviceAccountName apply and prune as (Flux's
  // --default-service-account): "NAME", a ServiceAccount of the Kustomization's own namespace
  // (multi-tenancy: a namespace without it can change nothing), or "NAMESPACE/NAME", one account
  // for all. Empty: the manager's own identity.
  std::string default_service_account;
  // Refuse a Kustomization whose sourceRef or dependsOn names another namespace (Flux's
  // --no-cross-namespace-refs): with per-namespace ServiceAccounts, a tenant can then neither
  // apply another tenant's repository nor wait on another tenant's Kustomizations.
  bool no_cross_namespace_refs = false;
  // The URL schemes GitRepositories may use (--gitops-url-schemes), enforced here as well as by
  // the webhook, which leaves the manager's own namespace out; empty = the default ones.
  std::vector<std::string> url_schemes;
  bool record_events = true;
  // How often a Kustomization with wait or healthChecks looks at the objects' health again while
  // it waits (its spec.timeout bounds the wait).
  std::chrono::milliseconds health_poll{2'000};
  // Where GitRepository artifacts are served as tarballs (Flux's --storage-addr; artifact_server.h):
  // "host:port", "0" none; and the host[:port] their URLs name (--storage-adv-addr; empty: the
  // bound address).
  std::string storage_addr = "0";
  std::string storage_adv_addr;
  // Bounds on what one Kustomization's build reads of its source (files, bytes per file, bytes in
  // all): its path and what that refers to, not the rest of the repository.
  git::Limits build_limits;
};

// A Kustomization waiting, after an apply, until the objects it checks are ready: for which
// generation and source revision, which objects, since when.
struct HealthWait {
  std::int64_t generation = 0;
  std::string revision;
  std::vector<InventoryEntry> objects;
  std::chrono::steady_clock::time_point since;
};

struct Env {
  Env(client::Client& client, cache::Informer& repositories, cache::Informer& kustomizations, GitopsOptions options);
  ~Env();

  client::Client& client;
  cache::Informer& repositories;
  cache::Informer& kustomizations;
  GitopsOptions options;
  git::Mirrors mirrors;
  std::unique_ptr<events::Recorder> recorder;  // null when events are off
  ArtifactCache artifacts;                     // recent artifacts' files (artifact.h)
  // "http://<advertised address>" of the artifact server once it serves; "" without one. Set
  // before any reconcile runs.
  std::string artifact_base_url;

  void event(const json::Value& target, std::string_view type, std::string_view reason, std::string_view message) const;
  // Whom a Kustomization of namespace `ns` naming `service_account` (may be empty) applies and
  // prunes as; empty = the manager itself.
  client::Impersonation applier(std::string_view ns, std::string_view service_account) const;

  // The credentials of a GitRepository's spec.secretRef (a Secret of its namespace `ns`, read with
  // the manager's client); nullopt without one. Throws naming the Secret when it cannot be read.
  std::optional<git::Credentials> credentials(std::string_view ns, const std::optional<apis::gitops::v1::SecretReference>& ref) const;

  // Health waits by Kustomization key ("ns/name"); in memory: after a restart the Kustomization
  // applies again and waits anew.
  std::optional<HealthWait> health_wait(const std::string& key) const;
  void set_health_wait(const std::string& key, std::optional<HealthWait> wait);

  // What the applier last wrote for a Kustomization (by key), so unchanged objects are not sent
  // again; in memory. forget_applied() when the Kustomization goes.
  std::shared_ptr<AppliedState> applied_state(const std::string& key);
  void forget_applied(const std::string& key);

 private:
  mutable std::mutex health_mutex_;
  std::map<std::string, HealthWait> health_waits_;
  std::mutex applied_mutex_;
  std::map<std::string, std::shared_ptr<AppliedState>> applied_;
};

}  // namespace capstan::gitops
