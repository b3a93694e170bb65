// The metrics server's TLS settings (controller-runtime's metrics SecureServing): the serving
// certificate from a directory (tls.crt, tls.key; re-read when they change), or - without a
// directory - a self-signed one made in memory at start, as controller-runtime does.
#pragma once

#include "runtime/http/tls.h"

#include <string>

namespace capstan::controller {

// Throws std::runtime_error naming the file when `cert_dir` is set and a file is missing.
http::ServerTls metrics_server_tls(const std::string& cert_dir);

}  // namespace capstan::controller
