// Applies a build to the cluster and prunes what left it, as Flux's kustomize-controller does:
//
//   - namespaces: a namespaced object goes to targetNamespace when set, else keeps its own, else
//     the Kustomization's namespace; a cluster-scoped object loses any namespace it carries. The
//     REST mapping (discovery) decides which is which.
//   - stages: CustomResourceDefinitions and Namespaces first, then everything else, so custom
//     resources and namespaced objects of the same revision apply in one pass (a kind whose CRD
//     was just applied is waited for, up to ApplyOptions::crd_wait).
//   - server-side apply, field manager capstan-gitops, force: fields someone changed by hand are
//     set back every interval (drift correction), fields nobody in Git sets are left alone.
//   - all or nothing per stage: every object of a stage is first sent as a server-side dry run
//     (validated, admitted, authorized: a tenant's forbidden object shows there) and only when
//     all pass are they written, so a refused object leaves the others of its stage untouched.
//   - no-op applies are skipped: an object whose build is what was last applied (the body's
//     hash) and whose live copy is still as that apply left it (the same UID, and the fields the
//     gitops field manager owns unchanged) is not sent (only read), so an idle interval writes
//     nothing; a change in Git, a hand edit of a field Git sets, or a deletion sends it again.
//   - force (spec.force): an object whose change the API server refuses as immutable (a
//     Deployment's selector, a Job's template, ...) is deleted and created again.
//   - an object annotated gitops.capstan.dev/reconcile: disabled is created when missing and
//     otherwise left as it is.
//   - prune deletes (background propagation, with a UID precondition) only objects still labelled
//     as this Kustomization's and not annotated gitops.capstan.dev/prune: disabled.
#pragma once

#include "controllers/gitops/inventory.h"
#include "runtime/json/json.h"

#include <chrono>
#include <map>
#include <stop_token>
#include <string>
#include <vector>

namespace capstan::client {
class Client;
}

namespace capstan::gitops {

// What apply_all last wrote of each object of one Kustomization: by inventory id, the hash of the
// body sent and the fingerprint of the live object it answered (kept in memory; empty after a
// restart, when every object is sent once).
struct AppliedState {
  std::map<std::string, std::pair<std::string, std::string>> objects;
};

struct ApplyOptions {
  std::string default_namespace;  // the Kustomization's
  std::string target_namespace;   // spec.targetNamespace
  std::chrono::milliseconds crd_wait{10'000};
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();  // spec.timeout
  bool force = false;                              // spec.force: recreate on immutable-field changes
  std::chrono::milliseconds recreate_wait{30'000};  // how long a deleted object may take to go
  std::stop_token stop;
  AppliedState* state = nullptr;  // null: every object is sent
};

struct ApplyOutcome {
  std::vector<InventoryEntry> inventory;  // every object of the build, applied or not
  std::vector<InventoryEntry> applied;    // those in the cluster as the build has them (written or unchanged)
  int created = 0, configured = 0, unchanged = 0, skipped = 0, recreated = 0;
  std::vector<std::string> errors;  // "Deployment/shop/web: <why>"

  // "2 created, 1 configured, 5 unchanged".
  std::string summary() const;
};

ApplyOutcome apply_all(client::Client& client, std::vector<json::Value> objects, const ApplyOptions& options);

struct Owner {
  std::string name;
  std::string ns;
};

struct PruneOutcome {
  int deleted = 0;
  std::vector<std::string> kept;    // not ours any more, or prune disabled
  std::vector<std::string> errors;  // "ConfigMap/shop/x: <why>"
};

PruneOutcome prune(client::Client& client, const std::vector<InventoryEntry>& stale, const Owner& owner);

}  // namespace capstan::gitops
