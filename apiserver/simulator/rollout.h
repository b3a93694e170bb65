// The arithmetic of Deployment rollouts, as pure functions over ReplicaSet counts (what
// pkg/controller/deployment/util computes): surge/unavailability fenceposts, how far the
// new ReplicaSet may grow, how far old ones may shrink, and proportional scaling of every
// active ReplicaSet when spec.replicas changes mid-rollout.
#pragma once

#include "runtime/json/json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace capstan::simulator {

struct Fenceposts {
  int surge = 0;
  int unavailable = 0;
};

// maxSurge rounds up, maxUnavailable rounds down; both zero would deadlock, so
// unavailability becomes 1. Throws std::invalid_argument for malformed values.
Fenceposts resolve_fenceposts(const json::Value* max_surge, const json::Value* max_unavailable, int desired);

// For a Deployment object: whether it rolls (RollingUpdate), its resolved maxSurge
// (0 unless rolling) and maxUnavailable (0 unless rolling, at most spec.replicas).
bool is_rolling_update(const json::Value& deployment);
int deployment_replicas(const json::Value& deployment);
int max_surge(const json::Value& deployment);
int max_unavailable(const json::Value& deployment);

struct RsState {
  std::string name;
  int replicas = 0;            // spec.replicas
  int status_replicas = 0;     // status.replicas
  int available = 0;           // status.availableReplicas
  std::optional<int> desired_annotation;  // deployment.kubernetes.io/desired-replicas
  std::optional<int> max_annotation;      // deployment.kubernetes.io/max-replicas
  std::string created;         // creationTimestamp (RFC 3339), for age ordering
};

// How many replicas the new ReplicaSet should have now under RollingUpdate, given the sum
// of spec.replicas over all ReplicaSets (the new one included).
int rolling_new_replicas(int desired, int surge, int all_replicas, int new_replicas);

// The spec.replicas each old ReplicaSet (given oldest first) may be reduced to now: first
// their unavailable pods (never below minimum availability counting the new ReplicaSet's
// unavailable pods), then available ones down to desired - maxUnavailable.
std::vector<int> rolling_scale_down(const std::vector<RsState>& old_rss, const RsState& new_rs, int desired,
                                    int max_unavailable);

// Whether spec.replicas changed since the active ReplicaSets were last sized.
bool is_scaling_event(const std::vector<RsState>& all, int desired);

// Proportional scaling for a scaling event: the new size of every ReplicaSet in `all`
// (same order). `new_index` is the new ReplicaSet's position or -1; `status_replicas` the
// Deployment's status.replicas (fallback for ReplicaSets without max-replicas).
std::vector<int> proportional_sizes(const std::vector<RsState>& all, int new_index, int desired, int surge,
                                    bool rolling, int status_replicas);

}  // namespace capstan::simulator
