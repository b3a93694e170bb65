// Discovery documents: legacy (/api, /apis, /api/v1, /apis/G/V) and aggregated
// (apidiscovery.k8s.io v2 / v2beta1), built from the registry.
#pragma once

#include "apiserver/registry/resource.h"
#include "runtime/json/json.h"

#include <optional>
#include <string>

namespace capstan::apiserver::rest {

json::Value server_version();  // /version, as kube-apiserver 1.37 answers (its emulation fields too)
json::Value api_versions(const std::string& server_address);             // /api
json::Value api_group_list(const registry::Registry& reg);              // /apis
std::optional<json::Value> api_group(const registry::Registry& reg, std::string_view group);  // /apis/G
std::optional<json::Value> api_resource_list(const registry::Registry& reg, std::string_view group,
                                             std::string_view version);  // /api/v1, /apis/G/V
// Aggregated discovery for /api (core only) or /apis (every other group).
json::Value aggregated_discovery(const registry::Registry& reg, bool core, std::string_view version /* v2|v2beta1 */);

}  // namespace capstan::apiserver::rest
