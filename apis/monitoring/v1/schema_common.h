// Schemas the monitoring kinds' fields share.
#pragma once

#include "apis/common/openapi.h"

namespace capstan::apis::monitoring::v1 {

// A Prometheus duration (model.Duration: "30s", "1d"), as prometheus-operator's CRDs check it.
openapi::Schema duration(std::string_view description);

}  // namespace capstan::apis::monitoring::v1
