#include "controllers/certificates/conditions.h"

#include <algorithm>

namespace capstan::certificates {

bool set_condition(std::vector<v1::Condition>& conditions, std::string_view type, std::string_view status,
                   std::string_view reason, std::string_view message, std::int64_t observed_generation, meta::TimePoint now) {
  v1::Condition next;
  next.type = std::string(type);
  next.status = std::string(status);
  next.reason = std::string(reason);
  next.message = std::string(message);
  next.observed_generation = observed_generation;
  for (auto& c : conditions) {
    if (c.type != type) continue;
    next.last_transition_time = c.status == status && !c.last_transition_time.empty() ? c.last_transition_time
                                                                                       : meta::format_rfc3339(now);
    bool same = c.status == next.status && c.reason == next.reason && c.message == next.message &&
                c.observed_generation == next.observed_generation && c.last_transition_time == next.last_transition_time;
    if (same) return false;
    c = std::move(next);
    return true;
  }
  next.last_transition_time = meta::format_rfc3339(now);
  conditions.push_back(std::move(next));
  return true;
}

bool remove_condition(std::vector<v1::Condition>& conditions, std::string_view type) {
  auto it = std::remove_if(conditions.begin(), conditions.end(), [&](const v1::Condition& c) { return c.type == type; });
  bool changed = it != conditions.end();
  conditions.erase(it, conditions.end());
  return changed;
}

bool condition_is(const std::vector<v1::Condition>& conditions, std::string_view type, std::string_view status) {
  const auto* c = v1::find_condition(conditions, type);
  return c && c->status == status;
}

}  // namespace capstan::certificates
