// Blocking TCP connections with a deadline: connecting, and every read and write after it,
// waits at most until the deadline. Used by the protocol clients that speak a framed binary
// protocol over plain sockets (DNS over TCP, the Kafka wire protocol).
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>
#include <string_view>

namespace capstan::net {

using Clock = std::chrono::steady_clock;

class NetError : public std::runtime_error {
 public:
  NetError(const std::string& what, bool timed_out) : std::runtime_error(what), timed_out_(timed_out) {}
  bool timed_out() const { return timed_out_; }

 private:
  bool timed_out_;
};

struct HostPort {
  std::string host;  // without brackets
  std::string port;
  std::string to_string() const;  // "host:port", "[v6]:port"
};

// "host:port", "[v6]:port", "v6", "host" (port `default_port`). Throws std::invalid_argument
// for an empty host, a non-numeric or out-of-range port, or a missing port without a default.
HostPort split_host_port(std::string_view address, std::string_view default_port = {});

// A connected socket, closed on destruction.
class TcpStream {
 public:
  // Resolves and connects before `deadline`; throws NetError naming the address.
  TcpStream(const HostPort& address, Clock::time_point deadline);
  ~TcpStream();
  TcpStream(const TcpStream&) = delete;
  TcpStream& operator=(const TcpStream&) = delete;

  int fd() const { return fd_; }
  // Later reads and writes wait at most until `deadline`.
  void set_deadline(Clock::time_point deadline);
  void write_all(std::string_view data);
  // Exactly `size` bytes; NetError when the peer closes first or the deadline passes.
  std::string read_exact(std::size_t size);

 private:
  std::string address_;
  Clock::time_point deadline_;
  int fd_ = -1;
};

}  // namespace capstan::net
