#include "testing/ports.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <mutex>
#include <set>
#include <stdexcept>

namespace capstan::e2e {

std::uint16_t free_port() {
  // The kernel may hand the same ephemeral port to two binds in a row once the first socket is
  // closed; a port is given out once per test process so that one process's listeners (a
  // manager's metrics and health ports) never collide.
  static std::mutex mu;
  static std::set<std::uint16_t> given;
  for (int attempt = 0; attempt < 64; ++attempt) {
    int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    std::uint16_t port = 0;
    if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
      socklen_t len = sizeof a;
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
      port = ntohs(a.sin_port);
    }
    ::close(s);
    std::lock_guard<std::mutex> lock(mu);
    if (port && given.insert(port).second) return port;
  }
  throw std::runtime_error("no free loopback port found in 64 attempts");
}

}  // namespace capstan::e2e
