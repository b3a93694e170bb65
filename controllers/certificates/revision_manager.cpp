#include "controllers/certificates/revision_manager.h"

#include "controllers/certificates/request_builder.h"
#include "runtime/meta/object.h"

#include <algorithm>

namespace capstan::certificates {

std::vector<std::string> requests_to_prune(const std::vector<json::Value>& requests, std::int64_t current_revision,
                                           std::int32_t limit) {
  std::vector<std::pair<std::int64_t, std::string>> issued;
  for (const auto& r : requests) {
    auto rev = request_revision(r);
    if (!rev || *rev > current_revision) continue;
    issued.emplace_back(*rev, std::string(meta::name_of(r)));
  }
  if (limit < 1) limit = 1;
  if (issued.size() <= static_cast<std::size_t>(limit)) return {};
  std::sort(issued.begin(), issued.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i + limit < issued.size(); ++i) out.push_back(issued[i].second);
  return out;
}

}  // namespace capstan::certificates
