// The Deployment controller: one ReplicaSet per pod template (<deployment>-<pod-template-hash>,
// the hash label added to its selector and template), revisions in
// deployment.kubernetes.io/revision, rollouts by RollingUpdate (maxSurge / maxUnavailable)
// or Recreate, proportional scaling mid-rollout, pause/resume, revisionHistoryLimit
// pruning, and the status `kubectl rollout status` and Argo CD read: observedGeneration,
// replicas, updatedReplicas, readyReplicas, availableReplicas, unavailableReplicas,
// collisionCount and the Available / Progressing conditions (including
// ProgressDeadlineExceeded after progressDeadlineSeconds without progress).
#pragma once

#include "apiserver/simulator/api.h"
#include "apiserver/simulator/loop.h"

#include <optional>
#include <vector>

namespace capstan::simulator {

class DeploymentController {
 public:
  DeploymentController(client::Client& client, Watches& watches);
  void start();
  void stop() { loop_.stop(); }

 private:
  struct Sets {
    std::optional<Object> new_rs;
    std::vector<Object> old_rss;  // oldest first
  };

  std::chrono::milliseconds reconcile(const Key& k);
  std::chrono::milliseconds sync(const Object& d);
  void wake_owners_of_orphan(const Key& rs);
  void wake_recreate_owner(const Key& rs);

  Sets split(const json::Value& d, const std::vector<Object>& rss) const;
  // Finds or creates the new ReplicaSet and brings revisions and annotations in line.
  // Returns false when creation hit a name collision (collisionCount was bumped).
  bool ensure_new_rs(const json::Value& d, Sets& sets, bool create, bool& created);
  void scale(const json::Value& d, const Object& rs, int size);
  bool scale_proportionally(const json::Value& d, Sets& sets);
  bool rollout_rolling(const json::Value& d, Sets& sets);
  bool rollout_recreate(const json::Value& d, Sets& sets);
  void cleanup(const json::Value& d, const Sets& sets);
  // Writes the status; returns when to look again (the progress deadline), or 0.
  std::chrono::milliseconds write_status(const json::Value& d, const Sets& sets, bool rollout, bool created_rs);

  Api api_;
  Loop loop_;
};

}  // namespace capstan::simulator
