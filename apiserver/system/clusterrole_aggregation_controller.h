// What kube-controller-manager's clusterrole-aggregation controller does: a ClusterRole with an
// aggregationRule holds the union of the rules of the ClusterRoles its clusterRoleSelectors match
// (in name order, each rule once, itself excluded), kept current as ClusterRoles change. Rules are
// written by server-side apply as field manager clusterrole-aggregation-controller, forced.
#pragma once

#include "apiserver/rest/service.h"
#include "apiserver/system/loop.h"

namespace capstan::apiserver::system {

class ClusterRoleAggregationController {
 public:
  explicit ClusterRoleAggregationController(rest::Service& service);
  // Aggregates once (so admin, edit and view hold their rules before the server serves), then
  // follows every change to ClusterRoles.
  void start();
  void stop() { loop_.stop(); }
  // Recomputes every aggregated ClusterRole; returns how many were written.
  int sync_all();

 private:
  rest::Service& service_;
  Loop loop_;
};

}  // namespace capstan::apiserver::system
