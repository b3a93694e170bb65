// A webhook endpoint: an HTTP request in, a complete HTTP response out. The admission and
// conversion handlers are built as these; webhook::Server routes paths to them.
#pragma once

#include "runtime/http/message.h"

#include <cstddef>
#include <functional>

namespace capstan::webhook {

using Handler = std::function<http::Response(const http::Request& request)>;

// controller-runtime's request size limit for webhooks (7 MiB).
inline constexpr std::size_t kMaxRequestBytes = 7 * 1024 * 1024;

}  // namespace capstan::webhook
