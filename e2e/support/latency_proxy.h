// A TCP proxy on a free loopback port in front of a test's API server that holds every chunk
// a client sends for a settable latency before passing it on (TLS passes through untouched,
// so clients keep their identity). A manager pointed at proxy_kubeconfig() sees every API
// request take that much longer, on either backend.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace capstan::e2e {

class LatencyProxy {
 public:
  explicit LatencyProxy(std::uint16_t upstream_port);
  ~LatencyProxy();  // closes the listener and every connection, joins the threads
  LatencyProxy(const LatencyProxy&) = delete;
  LatencyProxy& operator=(const LatencyProxy&) = delete;

  std::uint16_t port() const { return port_; }
  void set_latency(std::chrono::milliseconds latency) { latency_ms_ = latency.count(); }
  // `kubeconfig` with its server moved to this proxy, written to `path`.
  void write_kubeconfig(const std::string& kubeconfig, const std::string& path) const;

 private:
  void accept_loop();
  void pipe(int client, int upstream);

  std::uint16_t upstream_port_;
  std::uint16_t port_ = 0;
  int listener_ = -1;
  std::atomic<long long> latency_ms_{0};
  std::atomic<bool> stopping_{false};
  std::mutex mu_;
  std::vector<int> fds_;
  std::vector<std::thread> threads_;
  std::thread acceptor_;
};

}  // namespace capstan::e2e
