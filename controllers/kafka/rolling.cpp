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

}  // namespace capstan::kafka
