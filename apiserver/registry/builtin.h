// The built-in resource types the server hosts, with kube-apiserver's names and flags.
#pragma once

#include "apiserver/registry/resource.h"

#include <vector>

namespace capstan::apiserver::registry {

std::vector<ResourceInfo> builtin_resources();

}  // namespace capstan::apiserver::registry
