#include "runtime/net/tcp.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

namespace capstan::net {
namespace {

using std::chrono::milliseconds;

long long left_ms(Clock::time_point deadline) {
  return std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count();
}

}  // namespace

std::string HostPort::to_string() const {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + port;
}

HostPort split_host_port(std::string_view address, std::string_view default_port) {
  HostPort hp;
  std::string_view port;
  if (address.starts_with("[")) {
    auto close = address.find(']');
    if (close == std::string_view::npos) throw std::invalid_argument("\"" + std::string(address) + "\": unclosed '['");
    hp.host = std::string(address.substr(1, close - 1));
    std::string_view rest = address.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') throw std::invalid_argument("\"" + std::string(address) + "\": expected ':' after ']'");
      port = rest.substr(1);
    }
  } else if (auto colon = address.rfind(':'); colon != std::string_view::npos && address.find(':') == colon) {
    hp.host = std::string(address.substr(0, colon));
    port = address.substr(colon + 1);
  } else {
    hp.host = std::string(address);  // a name, an IPv4 address or a bare IPv6 address
  }
  if (hp.host.empty()) throw std::invalid_argument("\"" + std::string(address) + "\": no host");
  if (port.empty()) {
    if (default_port.empty()) throw std::invalid_argument("\"" + std::string(address) + "\": no port");
    port = default_port;
  }
  unsigned value = 0;
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (ec != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535)
    throw std::invalid_argument("\"" + std::string(address) + "\": port \"" + std::string(port) + "\" is not a number in 1-65535");
  hp.port = std::string(port);
  return hp;
}

TcpStream::TcpStream(const HostPort& address, Clock::time_point deadline) : address_(address.to_string()), deadline_(deadline) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (int rc = ::getaddrinfo(address.host.c_str(), address.port.c_str(), &hints, &res); rc != 0)
    throw NetError("resolving " + address_ + ": " + gai_strerror(rc), false);
  std::string last = "no address";
  bool timed_out = false;
  for (addrinfo* a = res; a; a = a->ai_next) {
    fd_ = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd_ < 0) continue;
    if (::connect(fd_, a->ai_addr, a->ai_addrlen) == 0 || errno == EINPROGRESS) {
      pollfd p{fd_, POLLOUT, 0};
      const long long left = left_ms(deadline);
      int err = 0;
      socklen_t len = sizeof err;
      if (left > 0 && ::poll(&p, 1, static_cast<int>(left)) == 1 && ::getsockopt(fd_, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0)
        break;
      timed_out = err == 0;
      last = err ? std::strerror(err) : "timed out connecting";
    } else {
      last = std::strerror(errno);
    }
    ::close(fd_);
    fd_ = -1;
  }
  ::freeaddrinfo(res);
  if (fd_ < 0) throw NetError("connecting to " + address_ + ": " + last, timed_out);
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);  // blocking, bounded by the deadline
  set_deadline(deadline);
}

TcpStream::~TcpStream() {
  if (fd_ >= 0) ::close(fd_);
}

void TcpStream::set_deadline(Clock::time_point deadline) {
  deadline_ = deadline;
  const long long left = std::max<long long>(1, left_ms(deadline));
  timeval tv{static_cast<time_t>(left / 1000), static_cast<suseconds_t>((left % 1000) * 1000)};
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

void TcpStream::write_all(std::string_view data) {
  std::size_t done = 0;
  while (done < data.size()) {
    if (Clock::now() > deadline_) throw NetError(address_ + ": timed out sending", true);
    const long n = ::send(fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n <= 0) {
      if (errno == EINTR) continue;
      throw NetError(address_ + ": send: " + std::strerror(errno), errno == EAGAIN || errno == EWOULDBLOCK);
    }
    done += static_cast<std::size_t>(n);
  }
}

std::string TcpStream::read_exact(std::size_t size) {
  std::string out(size, '\0');
  std::size_t done = 0;
  while (done < size) {
    if (Clock::now() > deadline_) throw NetError(address_ + ": no full answer in time", true);
    const long n = ::recv(fd_, out.data() + done, size - done, 0);
    if (n == 0) throw NetError(address_ + ": the peer closed the connection", false);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw NetError(address_ + ": recv: " + std::strerror(errno), errno == EAGAIN || errno == EWOULDBLOCK);
    }
    done += static_cast<std::size_t>(n);
  }
  return out;
}

}  // namespace capstan::net
