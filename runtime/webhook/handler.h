// A webhook endpoint: an HTTP request in, a complete HTTP response out. The admission and
// conversion handlers are built as these; webhook::Server routes paths to them.
#pragma once

#include "runtime/http/message.h"

#include <cstddef>
#include <functional>

namespace capstan::webhook {

using Handler = std::function<http::Response(const http::Request& request)>;

// The largest request body a webhook accepts: kube-apiserver's own request limit (3 MiB), as
// an AdmissionReview of an object the API server admits fits in it. webhook::Server refuses a
// larger body with 413 as soon as its Content-Length (or its chunks) pass the limit, before
// reading it; make_admission_handler checks again for handlers served elsewhere.
inline constexpr std::size_t kMaxRequestBytes = 3 * 1024 * 1024;

}  // namespace capstan::webhook
