#include "apiserver/simulator/rollout.h"

#include "apiserver/simulator/objects.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace capstan::simulator {
namespace {

bool active(const RsState& r) { return r.replicas > 0; }

int rs_fraction(const RsState& rs, int desired, int surge, int status_replicas) {
  if (desired == 0) return -rs.replicas;
  int deployment_total = desired + surge;
  int annotated = rs.max_annotation.value_or(status_replicas);
  if (annotated <= 0) return 0;
  double size = static_cast<double>(rs.replicas) * deployment_total / annotated;
  return static_cast<int>(std::lround(size)) - rs.replicas;
}

int proportion(const RsState& rs, int desired, int surge, int status_replicas, int to_add, int added) {
  if (rs.replicas == 0 || to_add == 0 || to_add == added) return 0;
  int fraction = rs_fraction(rs, desired, surge, status_replicas);
  int allowed = to_add - added;
  return to_add > 0 ? std::min(fraction, allowed) : std::max(fraction, allowed);
}

}  // namespace

Fenceposts resolve_fenceposts(const json::Value* max_surge, const json::Value* max_unavailable, int desired) {
  Fenceposts f;
  f.surge = scaled_value(max_surge, desired, true);
  f.unavailable = scaled_value(max_unavailable, desired, false);
  if (f.surge == 0 && f.unavailable == 0) f.unavailable = 1;
  return f;
}

bool is_rolling_update(const json::Value& d) {
  return json::get_string(d, {"spec", "strategy", "type"}, "RollingUpdate") == "RollingUpdate";
}

int deployment_replicas(const json::Value& d) { return static_cast<int>(int_at(d, {"spec", "replicas"}, 1)); }

int max_surge(const json::Value& d) {
  if (!is_rolling_update(d)) return 0;
  return resolve_fenceposts(json::find(d, {"spec", "strategy", "rollingUpdate", "maxSurge"}),
                            json::find(d, {"spec", "strategy", "rollingUpdate", "maxUnavailable"}), deployment_replicas(d))
      .surge;
}

int max_unavailable(const json::Value& d) {
  if (!is_rolling_update(d)) return 0;
  int replicas = deployment_replicas(d);
  if (replicas == 0) return 0;
  int u = resolve_fenceposts(json::find(d, {"spec", "strategy", "rollingUpdate", "maxSurge"}),
                             json::find(d, {"spec", "strategy", "rollingUpdate", "maxUnavailable"}), replicas)
              .unavailable;
  return std::min(u, replicas);
}

int rolling_new_replicas(int desired, int surge, int all_replicas, int new_replicas) {
  if (new_replicas >= desired) return desired;
  int max_total = desired + surge;
  if (all_replicas >= max_total) return new_replicas;
  int up = std::min(max_total - all_replicas, desired - new_replicas);
  return new_replicas + up;
}

std::vector<int> rolling_scale_down(const std::vector<RsState>& old_rss, const RsState& new_rs, int desired,
                                    int max_unavailable) {
  // Available pods beyond a ReplicaSet's spec.replicas are about to go (its status has not
  // caught up with an earlier scale-down yet): they must not be counted on. (Upstream sums
  // status.availableReplicas as is and can briefly dip below minimum availability then.)
  auto available = [](const RsState& r) { return std::min(r.available, r.replicas); };
  std::vector<int> out;
  out.reserve(old_rss.size());
  int old_total = 0, old_available = 0;
  for (const auto& r : old_rss) {
    out.push_back(r.replicas);
    old_total += r.replicas;
    old_available += available(r);
  }
  if (old_total == 0) return out;
  int all_total = old_total + new_rs.replicas;
  int min_available = desired - max_unavailable;
  int new_available = available(new_rs);
  int new_unavailable = new_rs.replicas - new_available;
  int max_scaled_down = all_total - min_available - new_unavailable;
  if (max_scaled_down <= 0) return out;

  // Unhealthy replicas go first: removing them costs no availability.
  int scaled = 0;
  for (std::size_t i = 0; i < old_rss.size() && scaled < max_scaled_down; ++i) {
    if (out[i] == 0) continue;
    int unhealthy = out[i] - available(old_rss[i]);
    if (unhealthy <= 0) continue;
    int n = std::min(max_scaled_down - scaled, unhealthy);
    out[i] -= n;
    scaled += n;
  }
  // Then available ones, as long as minimum availability holds.
  int available_total = old_available + new_available;
  if (available_total <= min_available) return out;
  int total_down = available_total - min_available;
  int down = 0;
  for (std::size_t i = 0; i < old_rss.size() && down < total_down; ++i) {
    if (out[i] == 0) continue;
    int n = std::min(out[i], total_down - down);
    out[i] -= n;
    down += n;
  }
  return out;
}

bool is_scaling_event(const std::vector<RsState>& all, int desired) {
  for (const auto& r : all) {
    if (!active(r) || !r.desired_annotation) continue;
    if (*r.desired_annotation != desired) return true;
  }
  return false;
}

std::vector<int> proportional_sizes(const std::vector<RsState>& all, int new_index, int desired, int surge, bool rolling,
                                    int status_replicas) {
  std::vector<int> out;
  for (const auto& r : all) out.push_back(r.replicas);
  std::vector<std::size_t> act;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (active(all[i])) act.push_back(i);

  // One active ReplicaSet (or none: the new one, else the newest) simply takes the size.
  if (act.size() <= 1) {
    std::optional<std::size_t> target;
    if (act.size() == 1) target = act[0];
    else if (new_index >= 0) target = static_cast<std::size_t>(new_index);
    else if (!all.empty()) {
      std::size_t newest = 0;
      for (std::size_t i = 1; i < all.size(); ++i)
        if (all[i].created > all[newest].created) newest = i;
      target = newest;
    }
    if (target) out[*target] = desired;
    return out;
  }
  // Saturated new ReplicaSet: the old ones can all go.
  if (new_index >= 0) {
    const auto& n = all[new_index];
    if (n.replicas == desired && n.desired_annotation == desired && n.available == desired) {
      for (std::size_t i = 0; i < all.size(); ++i)
        if (static_cast<int>(i) != new_index) out[i] = 0;
      return out;
    }
  }
  if (!rolling) return out;

  int total = 0;
  for (auto i : act) total += all[i].replicas;
  int allowed = desired > 0 ? desired + surge : 0;
  int to_add = allowed - total;
  // Bigger first; ties: newer first when growing, older first when shrinking.
  std::stable_sort(act.begin(), act.end(), [&](std::size_t a, std::size_t b) {
    if (all[a].replicas != all[b].replicas) return all[a].replicas > all[b].replicas;
    if (all[a].created != all[b].created) return to_add > 0 ? all[a].created > all[b].created : all[a].created < all[b].created;
    return all[a].name < all[b].name;
  });
  int added = 0;
  for (auto i : act) {
    if (to_add == 0) break;
    int p = proportion(all[i], desired, surge, status_replicas, to_add, added);
    out[i] = all[i].replicas + p;
    added += p;
  }
  if (to_add != 0) {
    int leftover = to_add - added;
    out[act[0]] = std::max(0, out[act[0]] + leftover);
  }
  return out;
}

}  // namespace capstan::simulator
