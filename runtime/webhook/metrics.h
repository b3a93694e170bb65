// controller-runtime's webhook metrics around a handler:
//   controller_runtime_webhook_requests_total{webhook, code}   (code = HTTP status)
//   controller_runtime_webhook_latency_seconds{webhook}         (histogram, default buckets)
//   controller_runtime_webhook_requests_in_flight{webhook}
// with webhook = the path.
#pragma once

#include "runtime/webhook/handler.h"

#include <string>

namespace capstan::metrics {
class Registry;
}

namespace capstan::webhook {

// `registry` nullptr = metrics::Registry::global().
Handler instrument(const std::string& path, Handler handler, metrics::Registry* registry = nullptr);

}  // namespace capstan::webhook
