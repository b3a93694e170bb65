// The resources the workload simulator reads and writes, addressed by group-resource
// ("pods", "replicasets.apps", "endpointslices.discovery.k8s.io") and mapped here to the
// version it speaks. Every served Kubernetes version has them at these versions.
#pragma once

#include "runtime/meta/gvk.h"

#include <string_view>

namespace capstan::simulator {

// The GVR of a group-resource of the table; throws std::invalid_argument for any other.
const meta::GroupVersionResource& gvr(std::string_view group_resource);
// Whether the resource is namespaced (nodes and persistentvolumes are not).
bool namespaced(std::string_view group_resource);

}  // namespace capstan::simulator
