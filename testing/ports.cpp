#include "testing/ports.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>

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

// Claims `port` for this process among every test process of the machine: an exclusive lock on
// a file named after it, held (the descriptor left open, not inherited by children) until this
// process ends, when the kernel drops it. False when another live process holds it.
bool claim_across_processes(std::uint16_t port) {
  static const std::string folder = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string f = std::string(tmp && *tmp ? tmp : "/tmp") + "/capstan-e2e-ports";
    ::mkdir(f.c_str(), 01777);
    return f;
  }();
  const std::string file = folder + "/" + std::to_string(port);
  int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) return true;  // no lock folder: the in-process claim and the callers' retries remain
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return false;
  }
  return true;
}

}  // namespace

std::uint16_t free_port(bool udp_too) {
  // The kernel may hand the same ephemeral port to two binds in a row once the first socket is
  // closed, in this process or in another test running beside it (ctest -j2 runs a test's two
  // backends together, and their Kafka nodes once answered each other's votes). A port is given
  // out once per process and claimed across processes, so no two test servers are handed it.
  static std::mutex mu;
  static std::set<std::uint16_t> given;
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::uint16_t port = 0;
    if (!bindable(SOCK_STREAM, 0, &port) || port == 0) continue;
    if (udp_too && !bindable(SOCK_DGRAM, port, nullptr)) continue;
    std::lock_guard<std::mutex> lock(mu);
    if (given.contains(port) || !claim_across_processes(port)) continue;
    given.insert(port);
    return port;
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
