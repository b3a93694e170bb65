#include "runtime/net/tcp.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <thread>

namespace capstan::net {
namespace {

using namespace std::chrono_literals;

TEST(SplitHostPort, Forms) {
  auto a = split_host_port("10.0.0.1:5353");
  EXPECT_EQ(a.host, "10.0.0.1");
  EXPECT_EQ(a.port, "5353");
  auto b = split_host_port("10.0.0.1", "53");
  EXPECT_EQ(b.port, "53");
  auto c = split_host_port("[2001:db8::1]:53");
  EXPECT_EQ(c.host, "2001:db8::1");
  EXPECT_EQ(c.to_string(), "[2001:db8::1]:53");
  auto d = split_host_port("2001:db8::1", "53");
  EXPECT_EQ(d.host, "2001:db8::1");
  EXPECT_EQ(split_host_port("ns1.example.com", "53").to_string(), "ns1.example.com:53");
  EXPECT_THROW(split_host_port("10.0.0.1"), std::invalid_argument);
  EXPECT_THROW(split_host_port("10.0.0.1:0"), std::invalid_argument);
  EXPECT_THROW(split_host_port("10.0.0.1:70000"), std::invalid_argument);
  EXPECT_THROW(split_host_port("10.0.0.1:5x"), std::invalid_argument);
  EXPECT_THROW(split_host_port(":53"), std::invalid_argument);
  EXPECT_THROW(split_host_port("[::1"), std::invalid_argument);
}

class Listener {
 public:
  Listener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(fd_, 4);
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
  }
  ~Listener() { ::close(fd_); }
  int accept() { return ::accept(fd_, nullptr, nullptr); }
  HostPort address() const { return HostPort{"127.0.0.1", std::to_string(port_)}; }

 private:
  int fd_ = -1;
  std::uint16_t port_ = 0;
};

TEST(TcpStream, WritesAndReadsExactly) {
  Listener l;
  std::thread echo([&] {
    int c = l.accept();
    char buf[5];
    std::size_t got = 0;
    while (got < 5) got += static_cast<std::size_t>(::recv(c, buf + got, 5 - got, 0));
    ::send(c, buf, 5, 0);
    ::close(c);
  });
  TcpStream s(l.address(), Clock::now() + 5s);
  s.write_all("hello");
  EXPECT_EQ(s.read_exact(5), "hello");
  EXPECT_THROW(s.read_exact(1), NetError);  // closed by the peer
  echo.join();
}

TEST(TcpStream, ASilentPeerTimesOut) {
  Listener l;  // accepts (kernel backlog) but never answers
  TcpStream s(l.address(), Clock::now() + 5s);
  s.set_deadline(Clock::now() + 200ms);
  try {
    s.read_exact(1);
    FAIL();
  } catch (const NetError& e) {
    EXPECT_TRUE(e.timed_out()) << e.what();
  }
}

TEST(TcpStream, ARefusedConnectionNamesTheAddress) {
  HostPort closed;
  {
    Listener l;
    closed = l.address();
  }
  try {
    TcpStream s(closed, Clock::now() + 2s);
    FAIL();
  } catch (const NetError& e) {
    EXPECT_NE(std::string(e.what()).find(closed.to_string()), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace capstan::net
