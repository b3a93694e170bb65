// The Deployment controller: one ReplicaSet per pod template (<deployment>-<pod-template-hash>,
// the hash label added to its selector and template), revisions in
// deployment.kubernetes.io/revision, rollouts by RollingUpdate (maxSurge / maxUnavailable)
// or Recreate, proportional scaling mid-rollout, pause/resume, revisionHistoryLimit
// pruning, and the status `kubectl rollout status` and Argo CD read: observedGeneration,
// replicas, updatedReplicas, readyReplicas, availableReplicas, unavailableReplicas,
// collisionCount and the Available / Progressing conditions (including
// ProgressDeadlineExceeded after progressDeadlineSeconds without progress).
#pragma once

#include "apiserver/rest/service.h"
#include "apiserver/system/loop.h"
#include "apiserver/system/workloads/writer.h"

#include <optional>
#include <vector>

namespace capstan::apiserver::system::workloads {

class DeploymentController {
 public:
  explicit DeploymentController(rest::Service& service);
  void start();
  void stop() { loop_.stop(); }

 private:
  struct Sets {
    std::optional<storage::Object> new_rs;
    std::vector<storage::Object> old_rss;  // oldest first
  };

  std::chrono::milliseconds reconcile(const Key& k);
  std::chrono::milliseconds sync(const storage::Object& d);
  void wake_owners_of_orphan(const Key& rs);
  void wake_recreate_owner(const Key& rs);

  Sets split(const json::Value& d, const std::vector<storage::Object>& rss) const;
  // Finds or creates the new ReplicaSet and brings revisions and annotations in line.
  // Returns false when creation hit a name collision (collisionCount was bumped).
  bool ensure_new_rs(const json::Value& d, Sets& sets, bool create, bool& created);
  void scale(const json::Value& d, const storage::Object& rs, int size);
  bool scale_proportionally(const json::Value& d, Sets& sets);
  bool rollout_rolling(const json::Value& d, Sets& sets);
  bool rollout_recreate(const json::Value& d, Sets& sets);
  void cleanup(const json::Value& d, const Sets& sets);
  // Writes the status; returns when to look again (the progress deadline), or 0.
  std::chrono::milliseconds write_status(const json::Value& d, const Sets& sets, bool rollout, bool created_rs);

  rest::Service& service_;
  Writer writer_;
  Loop loop_;
};

}  // namespace capstan::apiserver::system::workloads
