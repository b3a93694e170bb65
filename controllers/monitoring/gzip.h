// gzip (RFC 1952) with zlib, for the generated Prometheus configuration (prometheus-operator
// stores it gzipped as prometheus.yaml.gz to stay far below the 1 MiB Secret limit). The header
// carries no timestamp, so the same input always gives the same bytes and an unchanged
// configuration is an unchanged Secret.
#pragma once

#include <string>
#include <string_view>

namespace capstan::monitoring {

std::string gzip(std::string_view data);
// Throws std::runtime_error on data that is not gzip.
std::string gunzip(std::string_view data);

}  // namespace capstan::monitoring
