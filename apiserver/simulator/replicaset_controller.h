// The ReplicaSet controller: keeps spec.replicas active pods (named <rs>-<5 random chars>,
// from the template, with a controller reference), adopting orphans that match the
// selector and releasing pods that no longer do; scales down the least valuable pods first
// (unscheduled, pending, not ready, lower pod-deletion-cost, most recently ready, newest);
// reports replicas, fullyLabeledReplicas, readyReplicas, availableReplicas (minReadySeconds),
// observedGeneration and a ReplicaFailure condition when pods cannot be created.
#pragma once

#include "apiserver/simulator/api.h"
#include "apiserver/simulator/loop.h"

#include <vector>

namespace capstan::simulator {

// The order in which a ReplicaSet gives up pods: those to delete first come first.
void sort_pods_for_deletion(std::vector<Object>& pods);

class ReplicaSetController {
 public:
  ReplicaSetController(client::Client& client, Watches& watches);
  void start();
  void stop() { loop_.stop(); }

 private:
  std::chrono::milliseconds reconcile(const Key& k);
  std::chrono::milliseconds sync(const Object& rs);
  void wake_owners_of_orphan(const Key& pod);

  Api api_;
  Loop loop_;
};

}  // namespace capstan::simulator
