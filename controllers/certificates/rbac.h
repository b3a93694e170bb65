// The ClusterRole rules the certificates controllers need.
#pragma once

#include "runtime/json/json.h"

namespace capstan::certificates {

json::Array rbac_rules();

}  // namespace capstan::certificates
