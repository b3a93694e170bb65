// webhook::Server over real HTTPS on 127.0.0.1.
#include "runtime/http/client.h"
#include "runtime/webhook/admission.h"
#include "runtime/webhook/server.h"
#include "runtime/webhook/test_support.h"

#include <gtest/gtest.h>
#include <openssl/ssl.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

namespace capstan::webhook {
namespace {

using namespace std::chrono_literals;
using integration::eventually;
using integration::TempDir;
using testing::TestCa;

ServerOptions test_options(const TempDir& dir, metrics::Registry* reg) {
  ServerOptions o;
  o.host = "127.0.0.1";
  o.port = 0;
  o.cert_dir = dir.path().string();
  o.cert_reload_interval = 1s;
  o.registry = reg;
  return o;
}

http::Response post(const std::string& ca_pem, std::uint16_t port, const std::string& target, const std::string& body,
                    const std::string& content_type = "application/json") {
  http::ClientOptions co;
  co.tls.ca_pem = ca_pem;
  http::Client c(co);  // a fresh client: a fresh TLS handshake
  return c.request("POST", "https://127.0.0.1:" + std::to_string(port) + target, {{"Content-Type", content_type}}, body, 5s);
}

// Sends `head` over TLS (no certificate check) and returns what the server answers before it
// closes the connection or 5 s pass.
std::string raw_tls_exchange(std::uint16_t port, const std::string& head) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return "connect failed";
  }
  timeval tv{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  SSL* ssl = SSL_new(ctx);
  SSL_set_fd(ssl, fd);
  std::string out;
  if (SSL_connect(ssl) == 1 && SSL_write(ssl, head.data(), static_cast<int>(head.size())) > 0) {
    char buf[4096];
    for (int n; (n = SSL_read(ssl, buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  }
  SSL_free(ssl);
  SSL_CTX_free(ctx);
  ::close(fd);
  return out;
}

TEST(WebhookServerTest, OversizedReviewGets413FromItsHeaderWithoutBeingRead) {
  EXPECT_EQ(kMaxRequestBytes, 3u * 1024 * 1024);  // kube-apiserver's request limit
  TempDir dir("capstan-webhook");
  TestCa ca("webhook-test-ca");
  ca.issue_into(dir);
  metrics::Registry reg;
  Server s(test_options(dir, &reg));
  std::atomic<int> calls{0};
  s.register_path("/validate--v1-configmap", [&](const http::Request&) {
    ++calls;
    return http::Response(200, "{}");
  });
  s.start();
  // A 1 GiB body announced and never sent: the answer comes from the header alone.
  auto t0 = std::chrono::steady_clock::now();
  std::string answer = raw_tls_exchange(s.port(), "POST /validate--v1-configmap HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                                  "Content-Length: 1073741824\r\n\r\n{");
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 413")) << answer;
  EXPECT_NE(answer.find("limit is 3145728 bytes"), std::string::npos) << answer;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 4s);
  // One byte over the limit is refused too (the connection is closed after the answer, so a
  // client still sending sees a broken pipe); at the limit the handler runs.
  EXPECT_TRUE(raw_tls_exchange(s.port(), "POST /validate--v1-configmap HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                         "Content-Length: " + std::to_string(kMaxRequestBytes + 1) + "\r\n\r\n")
                  .starts_with("HTTP/1.1 413"));
  EXPECT_EQ(calls.load(), 0);
  EXPECT_EQ(post(ca.pem, s.port(), "/validate--v1-configmap", std::string(kMaxRequestBytes, ' ')).status, 200);
  EXPECT_EQ(calls.load(), 1);
}

TEST(WebhookServerTest, DefaultsAreControllerRuntimes) {
  ServerOptions o;
  EXPECT_EQ(o.port, 9443);
  EXPECT_EQ(o.host, "");
  EXPECT_EQ(o.cert_name, "tls.crt");
  EXPECT_EQ(o.key_name, "tls.key");
  Server s(o);
  EXPECT_NE(s.options().cert_dir.find("k8s-webhook-server/serving-certs"), std::string::npos);
  EXPECT_EQ(s.cert_file(), s.options().cert_dir + "/tls.crt");
  EXPECT_FALSE(s.started());
  EXPECT_FALSE(s.has_paths());
}

TEST(WebhookServerTest, RejectsBadAndDuplicatePaths) {
  Server s;
  Handler h = [](const http::Request&) { return http::Response(200, "{}"); };
  EXPECT_THROW(s.register_path("validate", h), std::invalid_argument);
  EXPECT_THROW(s.register_path("/a/", h), std::invalid_argument);
  s.register_path("/validate-x", h);
  EXPECT_TRUE(s.has_paths());
  EXPECT_THROW(s.register_path("/validate-x", h), std::invalid_argument);
}

TEST(WebhookServerTest, MissingCertificateFailsStartNamingTheFile) {
  TempDir dir("capstan-webhook");
  metrics::Registry reg;
  Server s(test_options(dir, &reg));
  try {
    s.start();
    FAIL() << "expected start() to throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(s.cert_file()), std::string::npos) << e.what();
  }
  EXPECT_FALSE(s.started());
}

TEST(WebhookServerTest, RoutesByPathOverHttps) {
  TempDir dir("capstan-webhook");
  TestCa ca("webhook-test-ca");
  ca.issue_into(dir);
  metrics::Registry reg;
  Server s(test_options(dir, &reg));
  s.register_path("/validate--v1-configmap", make_validating_handler(std::make_shared<Validator>()));
  s.start();
  ASSERT_TRUE(s.started());
  ASSERT_NE(s.port(), 0);
  // Registration after start is served too.
  s.register_path("/echo", [](const http::Request& r) { return http::Response(200, r.body); });

  json::Value review = json::Object{
      {"apiVersion", "admission.k8s.io/v1"},
      {"kind", "AdmissionReview"},
      {"request", json::Object{{"uid", "u-1"}, {"operation", "CREATE"}, {"object", json::Object{{"kind", "ConfigMap"}}}}}};
  http::Response r = post(ca.pem, s.port(), "/validate--v1-configmap?timeout=10s", json::serialize(review));
  ASSERT_EQ(r.status, 200) << r.body;
  json::Value out = json::parse(r.body);
  EXPECT_EQ(json::get_string(out, {"response", "uid"}), "u-1");
  EXPECT_TRUE(json::get_bool(out, {"response", "allowed"}));

  EXPECT_EQ(post(ca.pem, s.port(), "/echo", "hello").body, "hello");
  EXPECT_EQ(post(ca.pem, s.port(), "/nothing-here", "{}").status, 404);
  http::ClientOptions co;
  co.tls.ca_pem = ca.pem;
  http::Client c(co);
  EXPECT_EQ(c.request("GET", "https://127.0.0.1:" + std::to_string(s.port()) + "/echo").status, 405);

  auto total = integration::find_sample(reg, "controller_runtime_webhook_requests_total", {"/validate--v1-configmap", "200"});
  ASSERT_TRUE(total);
  EXPECT_EQ(total->value, 1);
  s.stop();
  EXPECT_FALSE(s.started());
}

TEST(WebhookServerTest, PicksUpRotatedCertificateFiles) {
  TempDir dir("capstan-webhook");
  TestCa first("first-ca"), second("second-ca");
  first.issue_into(dir);
  metrics::Registry reg;
  Server s(test_options(dir, &reg));
  s.register_path("/echo", [](const http::Request& r) { return http::Response(200, r.body); });
  s.start();
  EXPECT_EQ(post(first.pem, s.port(), "/echo", "one").status, 200);
  EXPECT_THROW(post(second.pem, s.port(), "/echo", "x"), http::TransportError);

  second.issue_into(dir);  // rotate: a certificate from another CA
  bool rotated = eventually(
      [&] {
        try {
          return post(second.pem, s.port(), "/echo", "two").status == 200;
        } catch (const http::TransportError&) {
          return false;
        }
      },
      5s, 100ms);
  EXPECT_TRUE(rotated);
  EXPECT_THROW(post(first.pem, s.port(), "/echo", "x"), http::TransportError);
}

}  // namespace
}  // namespace capstan::webhook
