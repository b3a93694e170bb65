#include "controllers/kafka/rolling.h"

#include <algorithm>

namespace capstan::kafka {
namespace {

std::string ids(const std::vector<std::int32_t>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  return out + "]";
}

bool has(const std::vector<std::int32_t>& v, std::int32_t id) { return std::find(v.begin(), v.end(), id) != v.end(); }

}  // namespace

std::string roll_blocker(std::int32_t broker, const std::vector<PartitionReplicas>& partitions) {
  constexpr std::size_t kNamed = 3;
  std::size_t count = 0;
  std::string named;
  for (const auto& p : partitions) {
    if (!has(p.in_sync, broker)) continue;
    const bool under_replicated = std::any_of(p.replicas.begin(), p.replicas.end(), [&](std::int32_t r) { return !has(p.in_sync, r); });
    if (!under_replicated) continue;
    if (++count <= kNamed)
      named += (named.empty() ? "" : ", ") + p.topic + "-" + std::to_string(p.partition) + " (in sync " + ids(p.in_sync) + " of replicas " +
               ids(p.replicas) + ")";
  }
  if (count == 0) return "";
  if (count > kNamed) named += ", and " + std::to_string(count - kNamed) + " more";
  return std::to_string(count) + (count == 1 ? " partition it keeps in sync is" : " partitions it keeps in sync are") +
         " under-replicated: " + named;
}

std::string controller_roll_blocker(std::int32_t node, const QuorumState& quorum, std::int64_t fetch_timeout_ms) {
  const std::size_t voters = quorum.voters.size();
  const std::size_t majority = voters / 2 + 1;
  if (voters - 1 < majority) return "";
  if (quorum.leader_id < 0) return "the controller quorum has no leader";
  const auto leader = std::find_if(quorum.voters.begin(), quorum.voters.end(), [&](const QuorumReplica& v) { return v.id == quorum.leader_id; });
  if (leader == quorum.voters.end() || leader->last_caught_up_ms < 0)
    return "the controller quorum's leader " + std::to_string(quorum.leader_id) + " does not report its own time";
  std::size_t caught_up = 0;
  std::vector<std::int32_t> behind;
  for (const auto& v : quorum.voters) {
    if (v.id == node) continue;
    if (v.id == quorum.leader_id || (v.last_caught_up_ms >= 0 && leader->last_caught_up_ms - v.last_caught_up_ms < fetch_timeout_ms))
      ++caught_up;
    else
      behind.push_back(v.id);
  }
  if (caught_up >= majority) return "";
  return "without it, " + std::to_string(caught_up) + " of " + std::to_string(voters) + " controller quorum voters would be caught up with the leader " +
         std::to_string(quorum.leader_id) + " (a majority is " + std::to_string(majority) + "; behind: " + ids(behind) + ")";
}

}  // namespace capstan::kafka
