#include "testing/cluster.h"

#include "testing/embedded_cluster.h"
#include "testing/kube_cluster.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <set>
#include <stdexcept>

namespace capstan::e2e {

std::string capstan_bin() {
  const char* b = std::getenv("CAPSTAN_BIN");
  return b ? b : "build/bin/capstan";
}

std::string source_dir() {
  const char* s = std::getenv("CAPSTAN_SOURCE_DIR");
  return s ? s : CAPSTAN_SOURCE_DIR_DEFAULT;
}

std::string tools_bin_dir() {
  const char* t = std::getenv("CAPSTAN_TOOLS_DIR");
  return (t && *t ? std::string(t) : source_dir() + "/.tools") + "/bin";
}

std::unique_ptr<Cluster> make_cluster(Backend backend, const TempDir& dir, ClusterOptions options) {
  if (backend == Backend::Kube) return std::make_unique<KubeCluster>(dir, std::move(options));
  return std::make_unique<EmbeddedCluster>(dir, std::move(options));
}

std::pair<int, std::string> http_request(std::uint16_t port, const std::string& method, const std::string& path,
                                         const std::string& body) {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  timeval tv{2, 0};
  ::setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(s);
    return {0, ""};
  }
  std::string req = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
  if (!body.empty() || method != "GET") req += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  req += "\r\n" + body;
  if (::send(s, req.data(), req.size(), 0) < 0) {
    ::close(s);
    return {0, ""};
  }
  std::string resp;
  char buf[8192];
  ssize_t n;
  while ((n = ::recv(s, buf, sizeof buf, 0)) > 0) resp.append(buf, static_cast<std::size_t>(n));
  ::close(s);
  if (resp.size() < 12) return {0, ""};
  int code = std::atoi(resp.substr(9, 3).c_str());
  auto body_at = resp.find("\r\n\r\n");
  std::string out_body = body_at == std::string::npos ? "" : resp.substr(body_at + 4);
  // Decode a chunked body.
  if (resp.find("Transfer-Encoding: chunked") != std::string::npos || resp.find("transfer-encoding: chunked") != std::string::npos) {
    std::string out;
    std::size_t i = 0;
    while (i < out_body.size()) {
      auto eol = out_body.find("\r\n", i);
      if (eol == std::string::npos) break;
      std::size_t len = std::stoul(out_body.substr(i, eol - i), nullptr, 16);
      if (len == 0) break;
      out += out_body.substr(eol + 2, len);
      i = eol + 2 + len + 2;
    }
    out_body = out;
  }
  return {code, out_body};
}

std::pair<int, std::string> http_get(std::uint16_t port, const std::string& path) { return http_request(port, "GET", path, ""); }

}  // namespace capstan::e2e
