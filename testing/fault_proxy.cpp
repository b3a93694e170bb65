#include "testing/fault_proxy.h"

#include "testing/process.h"
#include "runtime/client/config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

namespace capstan::e2e {

FaultProxy::FaultProxy(std::uint16_t upstream_port) : upstream_port_(upstream_port) {
  listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listener_, 64) != 0)
    throw std::runtime_error("fault proxy: cannot listen on 127.0.0.1");
  socklen_t len = sizeof a;
  ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len);
  port_ = ntohs(a.sin_port);
  acceptor_ = std::thread([this] { accept_loop(); });
}

FaultProxy::~FaultProxy() {
  stopping_ = true;
  ::shutdown(listener_, SHUT_RDWR);
  ::close(listener_);
  {
    std::lock_guard<std::mutex> l(mu_);
    for (int fd : fds_) ::shutdown(fd, SHUT_RDWR);
  }
  acceptor_.join();
  for (auto& t : threads_) t.join();
  for (int fd : fds_) ::close(fd);
}

void FaultProxy::drop_connections() {
  std::lock_guard<std::mutex> l(mu_);
  for (int fd : fds_) ::shutdown(fd, SHUT_RDWR);
}

void FaultProxy::write_kubeconfig(const std::string& kubeconfig, const std::string& path) const {
  auto c = client::load_kubeconfig(kubeconfig);
  c.server = "https://127.0.0.1:" + std::to_string(port_);
  write_file(path, client::to_kubeconfig(c));
}

void FaultProxy::accept_loop() {
  while (!stopping_) {
    int client = ::accept(listener_, nullptr, nullptr);
    if (client < 0) return;
    int upstream = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(upstream_port_.load());
    if (::connect(upstream, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      ::close(client);
      ::close(upstream);
      continue;
    }
    int one = 1;
    ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ::setsockopt(upstream, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    std::lock_guard<std::mutex> l(mu_);
    fds_.push_back(client);
    fds_.push_back(upstream);
    threads_.emplace_back([this, client, upstream] { pipe(client, upstream); });
  }
}

// Both directions of one connection; what the client sends waits `latency` first.
void FaultProxy::pipe(int client, int upstream) {
  char buf[64 * 1024];
  pollfd fds[2] = {{client, POLLIN, 0}, {upstream, POLLIN, 0}};
  while (!stopping_) {
    if (::poll(fds, 2, 200) < 0) return;
    for (int i = 0; i < 2; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = ::recv(fds[i].fd, buf, sizeof buf, 0);
      int to = i == 0 ? upstream : client;
      if (n <= 0) {
        ::shutdown(to, SHUT_WR);
        ::shutdown(fds[i].fd, SHUT_RD);
        return;
      }
      if (i == 0 && latency_ms_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(latency_ms_.load()));
      for (ssize_t off = 0; off < n;) {
        ssize_t w = ::send(to, buf + off, static_cast<std::size_t>(n - off), MSG_NOSIGNAL);
        if (w <= 0) return;
        off += w;
      }
    }
  }
}

}  // namespace capstan::e2e
