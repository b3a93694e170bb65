#include "apis/certs/v1/issuing.h"

#include "apis/certs/v1/group.h"
#include "runtime/meta/object.h"
#include "runtime/meta/time.h"

namespace capstan::apis::certs::v1 {

void set_issuing(json::Value& certificate, std::string_view reason, std::string_view message) {
  auto& status = json::ensure_object(certificate, {"status"});
  if (!status.contains("conditions") || !status["conditions"].is_array()) status["conditions"] = json::Array{};
  auto& conditions = status["conditions"].as_array();
  json::Array kept;
  for (auto& c : conditions)
    if (json::get_string(c, {"type"}) != condition::kIssuing) kept.push_back(std::move(c));
  conditions = std::move(kept);
  json::Object issuing{{"type", condition::kIssuing},
                       {"status", "True"},
                       {"reason", reason},
                       {"message", message},
                       {"lastTransitionTime", meta::format_rfc3339(meta::Clock::now())}};
  if (const std::int64_t generation = meta::generation_of(certificate); generation > 0) issuing["observedGeneration"] = generation;
  conditions.push_back(std::move(issuing));
}

}  // namespace capstan::apis::certs::v1
