// Prometheus text exposition format, version 0.0.4.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/metrics/snapshot.h"

namespace capstan::metrics {

class Registry;

// The Content-Type header value for a render() body.
inline constexpr std::string_view kContentType = "text/plain; version=0.0.4; charset=utf-8";

// Collects the registry (running its callbacks) and renders every family: "# HELP" (when help is set),
// "# TYPE", then one line per sample with label pairs sorted by name (histograms: cumulative
// `_bucket{le=...}` lines ending in le="+Inf", then `_sum` and `_count`).
std::string render(const Registry& registry);
std::string render(const std::vector<FamilySnapshot>& families);

}  // namespace capstan::metrics
