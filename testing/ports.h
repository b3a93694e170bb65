// Free loopback ports for the servers a test starts (part of the light core, capstan_testing_core).
#pragma once

#include <cstdint>

namespace capstan::e2e {

// A free loopback TCP port, free for UDP too when `udp_too` (a DNS server's); bound, then
// released. No other call, in this process or another test process, is given it while this
// process lives; a process that is not a test may still take it meanwhile, which the callers'
// retries tolerate.
std::uint16_t free_port(bool udp_too = false);

// Whether something accepts TCP connections on 127.0.0.1:`port` now.
bool accepts_connections(std::uint16_t port);

}  // namespace capstan::e2e
