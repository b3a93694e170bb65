// A TCP proxy on a free loopback port in front of a test's API server, for the faults a network
// brings: every chunk a client sends is held for a settable latency before it is passed on, and
// drop_connections() cuts every open connection (watches end mid-stream) while new ones are still
// accepted. TLS passes through untouched, so clients keep their identity; a manager pointed at
// write_kubeconfig()'s file meets these faults on either backend.
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

class FaultProxy {
 public:
  explicit FaultProxy(std::uint16_t upstream_port);
  ~FaultProxy();  // closes the listener and every connection, joins the threads
  FaultProxy(const FaultProxy&) = delete;
  FaultProxy& operator=(const FaultProxy&) = delete;

  std::uint16_t port() const { return port_; }
  void set_latency(std::chrono::milliseconds latency) { latency_ms_ = latency.count(); }
  // Cuts every connection open now (both directions), as a network partition or a load
  // balancer restart would.
  void drop_connections();
  // Where new connections go (an API server restarted on another port).
  void set_upstream(std::uint16_t port) { upstream_port_ = port; }
  // `kubeconfig` with its server moved to this proxy, written to `path`.
  void write_kubeconfig(const std::string& kubeconfig, const std::string& path) const;

 private:
  void accept_loop();
  void pipe(int client, int upstream);

  std::atomic<std::uint16_t> upstream_port_;
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
