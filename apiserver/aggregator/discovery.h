// Discovery of aggregated group-versions: /apis lists the groups and versions aggregated
// APIServices claim (beside the groups this server serves itself), /apis/<group> describes one.
// The preferred version is the one with the highest spec.versionPriority.
#pragma once

#include "apiserver/storage/store.h"
#include "runtime/json/json.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::apiserver::aggregator {

// Adds the aggregated groups (and versions of groups already listed) to an APIGroupList.
void add_aggregated_groups(const storage::Store& store, json::Value& group_list);

// Adds the aggregated group-versions to an APIGroupDiscoveryList (apidiscovery.k8s.io v2/v2beta1),
// their resources from the APIResourceList each backend last answered (`resource_list` of the
// APIService's name): "Current" while the APIService is Available, "Stale" after. A group-version
// whose backend never answered is left out.
using ResourceListFn = std::function<std::optional<json::Value>(const std::string& api_service)>;
void add_aggregated_discovery(const storage::Store& store, const ResourceListFn& resource_list, json::Value& discovery_list);

// The APIGroup of `group` from its aggregated APIServices; nullopt when none claims it.
std::optional<json::Value> aggregated_group(const storage::Store& store, std::string_view group);

}  // namespace capstan::apiserver::aggregator
