// The CustomResourceDefinition of trust.capstan.dev (Bundle, cluster-scoped), generated from
// Bundle::schema(), with trust-manager's printer columns.
#pragma once

#include "runtime/json/json.h"

#include <vector>

namespace capstan::apis::trust::v1alpha1 {

json::Value bundle_crd();
std::vector<json::Value> crds();

}  // namespace capstan::apis::trust::v1alpha1
