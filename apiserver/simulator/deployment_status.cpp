// The status half of the Deployment controller: counts from the ReplicaSets and the
// Available / Progressing conditions as deployment/sync.go and progress.go keep them.
#include "apiserver/simulator/deployment_controller.h"

#include "apiserver/simulator/objects.h"
#include "apiserver/simulator/rollout.h"
#include "runtime/json/patch.h"
#include "runtime/meta/object.h"

#include <climits>

namespace capstan::simulator {
namespace {

const std::string kReplicaSets = "replicasets.apps";
const std::string kDeployments = "deployments.apps";

struct DeploymentCondition {
  std::string type, status, reason, message;
};

const json::Object* find_cond(const json::Object& status, std::string_view type) {
  if (const auto* conds = status.if_contains("conditions"); conds && conds->is_array())
    for (const auto& c : conds->as_array())
      if (json::get_string(c, {"type"}) == type && c.is_object()) return &c.as_object();
  return nullptr;
}

// SetDeploymentCondition: unchanged when status and reason are the same; otherwise the
// condition is replaced (moved last), keeping lastTransitionTime when only the reason moved.
// `force` refreshes lastUpdateTime and message even when status and reason are unchanged.
void set_cond(json::Object& status, const DeploymentCondition& c, const std::string& now, bool force = false) {
  const json::Object* cur = find_cond(status, c.type);
  if (cur && !force && json::get_string(*cur, {"status"}) == c.status && json::get_string(*cur, {"reason"}) == c.reason)
    return;
  std::string ltt = now;
  if (cur && json::get_string(*cur, {"status"}) == c.status) {
    auto prev = json::get_string(*cur, {"lastTransitionTime"});
    if (!prev.empty()) ltt = std::string(prev);
  }
  json::Array conds;
  if (const auto* old = status.if_contains("conditions"); old && old->is_array())
    for (const auto& x : old->as_array())
      if (json::get_string(x, {"type"}) != c.type) conds.push_back(x);
  conds.push_back(json::Object{{"type", c.type},
                               {"status", c.status},
                               {"lastUpdateTime", now},
                               {"lastTransitionTime", ltt},
                               {"reason", c.reason},
                               {"message", c.message}});
  status["conditions"] = std::move(conds);
}

void set_or_omit(json::Object& o, std::string_view key, std::int64_t v) {
  if (v) o[key] = v;
  else o.erase(key);
}

std::string in_quotes(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  out.append(s);
  out.push_back('"');
  return out;
}

}  // namespace

std::chrono::milliseconds DeploymentController::write_status(const json::Value& d, const Sets& sets, bool rollout,
                                                            bool created_rs) {
  int desired = deployment_replicas(d);
  std::int64_t replicas = 0, ready = 0, available = 0, updated = 0;
  auto add = [&](const json::Value& rs) {
    replicas += int_at(rs, {"status", "replicas"});
    ready += int_at(rs, {"status", "readyReplicas"});
    available += int_at(rs, {"status", "availableReplicas"});
  };
  std::string new_name;
  if (sets.new_rs) {
    if (auto fresh = api_.get(kReplicaSets, meta::namespace_of(d), meta::name_of(**sets.new_rs))) {
      add(*fresh);
      updated = int_at(*fresh, {"status", "replicas"});
    }
    new_name = meta::name_of(**sets.new_rs);
  }
  for (const auto& rs : sets.old_rss)
    if (auto fresh = api_.get(kReplicaSets, meta::namespace_of(d), meta::name_of(*rs))) add(*fresh);
  std::int64_t unavailable = std::max<std::int64_t>(0, desired - available);
  bool paused = json::get_bool(d, {"spec", "paused"});
  auto deadline = json::get_int(d, {"spec", "progressDeadlineSeconds"});
  bool has_deadline = deadline && *deadline != INT_MAX;
  auto now_tp = meta::Clock::now();
  std::string now = meta::format_rfc3339(now_tp);
  std::chrono::milliseconds again{0};

  api_.mutate(kDeployments, meta::namespace_of(d), meta::name_of(d), true, [&](json::Value& cur) {
    if (meta::uid_of(cur) != meta::uid_of(d)) return false;
    json::Value before = cur;
    json::Value old_status = json::find(cur, {"status"}) ? *json::find(cur, {"status"}) : json::Value(json::Object{});
    auto& status = json::ensure_object(cur, {"status"});
    status["observedGeneration"] = meta::generation_of(d);  // the generation this sync computed from, not a newer one
    set_or_omit(status, "replicas", replicas);
    set_or_omit(status, "updatedReplicas", updated);
    set_or_omit(status, "readyReplicas", ready);
    set_or_omit(status, "availableReplicas", available);
    set_or_omit(status, "unavailableReplicas", unavailable);

    // Progressing: paused / resumed / new RS created or found.
    const json::Object* prog = find_cond(status, "Progressing");
    std::string prog_reason = prog ? std::string(json::get_string(*prog, {"reason"})) : "";
    if (has_deadline) {
      if (paused && prog_reason != "DeploymentPaused") {
        set_cond(status, {"Progressing", "Unknown", "DeploymentPaused", "Deployment is paused"}, now);
      } else if (!paused && prog_reason == "DeploymentPaused") {
        set_cond(status, {"Progressing", "Unknown", "DeploymentResumed", "Deployment is resumed"}, now);
      }
      if (created_rs) {
        set_cond(status, {"Progressing", "True", "NewReplicaSetCreated", "Created new replica set " + in_quotes(new_name)}, now);
      } else if (!find_cond(status, "Progressing") && !new_name.empty()) {
        set_cond(status, {"Progressing", "True", "FoundNewReplicaSet", "Found new replica set " + in_quotes(new_name)}, now);
      }
    }
    // Available.
    if (available >= desired - max_unavailable(cur)) {
      set_cond(status, {"Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability."}, now);
    } else {
      set_cond(status, {"Available", "False", "MinimumReplicasUnavailable", "Deployment does not have minimum availability."},
               now);
    }
    // Rollout progress (not while paused).
    if (rollout && has_deadline && !paused && !new_name.empty()) {
      bool complete = updated == desired && replicas == desired && available == desired;
      auto old_int = [&](std::string_view k) { return int_at(old_status, {k}); };
      bool progressing = updated > old_int("updatedReplicas") ||
                         (replicas - updated) < (old_int("replicas") - old_int("updatedReplicas")) ||
                         ready > old_int("readyReplicas") || available > old_int("availableReplicas");
      const json::Object* pc = find_cond(status, "Progressing");
      std::string reason = pc ? std::string(json::get_string(*pc, {"reason"})) : "";
      if (complete) {
        set_cond(status, {"Progressing", "True", "NewReplicaSetAvailable", "ReplicaSet " + in_quotes(new_name) + " has successfully progressed."},
                 now);
      } else if (progressing) {
        set_cond(status, {"Progressing", "True", "ReplicaSetUpdated", "ReplicaSet " + in_quotes(new_name) + " is progressing."}, now,
                 true);
      } else if (pc && reason != "NewReplicaSetAvailable" && reason != "ProgressDeadlineExceeded") {
        auto from = meta::parse_rfc3339(json::get_string(*pc, {"lastUpdateTime"}));
        if (from) {
          auto at = *from + std::chrono::seconds(*deadline);
          if (at < now_tp) {
            set_cond(status, {"Progressing", "False", "ProgressDeadlineExceeded",
                              "ReplicaSet " + in_quotes(new_name) + " has timed out progressing."},
                     now);
          } else {
            again = std::chrono::duration_cast<std::chrono::milliseconds>(at - now_tp) + std::chrono::seconds(1);
          }
        }
      }
      if (!complete && progressing) again = std::chrono::seconds(*deadline) + std::chrono::seconds(1);
    }
    return !json::deep_equal(before, cur);
  });
  return again;
}


}  // namespace capstan::simulator
