#include "testing/ports.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <mutex>
#include <set>
#include <stdexcept>

namespace capstan::e2e {
namespace {

sockaddr_in loopback(std::uint16_t port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return addr;
}

// Whether 127.0.0.1:`port` (0: any) binds for `type`; the port bound in `*bound`.
bool bindable(int type, std::uint16_t port, std::uint16_t* bound) {
  int fd = ::socket(AF_INET, type, 0);
  if (fd < 0) return false;
  sockaddr_in addr = loopback(port);
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  if (ok && bound) {
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    *bound = ntohs(addr.sin_port);
  }
  ::close(fd);
  return ok;
}

}  // namespace

std::uint16_t free_port(bool udp_too) {
  // The kernel may hand the same ephemeral port to two binds in a row once the first socket is
  // closed; a port is given out once per test process so that one process's listeners (a
  // manager's metrics and health ports, pebble's four) never collide.
  static std::mutex mu;
  static std::set<std::uint16_t> given;
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::uint16_t port = 0;
    if (!bindable(SOCK_STREAM, 0, &port) || port == 0) continue;
    if (udp_too && !bindable(SOCK_DGRAM, port, nullptr)) continue;
    std::lock_guard<std::mutex> lock(mu);
    if (given.insert(port).second) return port;
  }
  throw std::runtime_error("no free loopback port found in 64 attempts");
}

bool accepts_connections(std::uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr = loopback(port);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

}  // namespace capstan::e2e
