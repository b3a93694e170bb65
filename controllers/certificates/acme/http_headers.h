// Response headers ACME clients act on: Retry-After (RFC 9110 §10.2.3) and Link (RFC 8288).
#pragma once

#include "runtime/http/message.h"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::certificates::acme {

// Retry-After as delay-seconds ("120") or an HTTP-date ("Wed, 21 Oct 2015 07:28:00 GMT",
// relative to `now`; a date in the past gives 0). nullopt when absent or unparsable.
std::optional<std::chrono::seconds> parse_retry_after(
    std::string_view value, std::chrono::system_clock::time_point now = std::chrono::system_clock::now());
std::optional<std::chrono::seconds> retry_after(const http::Headers& headers,
                                                std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

// The targets of every Link header (several headers, or several comma-separated links in one)
// whose rel contains `rel`, in order. Targets starting with "/" are resolved against the
// origin of `base_url`.
std::vector<std::string> link_targets(const http::Headers& headers, std::string_view rel, std::string_view base_url = {});

}  // namespace capstan::certificates::acme
