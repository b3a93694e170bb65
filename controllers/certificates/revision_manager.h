// The revision manager (pkg/controller/certificates/revisionmanager): keeps at most
// revisionHistoryLimit CertificateRequests of issued revisions (revision <= status.revision),
// deleting the oldest first. Requests of the revision being issued are never touched. Pure.
#pragma once

#include "runtime/json/json.h"

#include <cstdint>
#include <string>
#include <vector>

namespace capstan::certificates {

// Names of the requests to delete among `requests` (the Certificate's own).
std::vector<std::string> requests_to_prune(const std::vector<json::Value>& requests, std::int64_t current_revision,
                                           std::int32_t limit);

}  // namespace capstan::certificates
