#include "testing/pebble.h"

#include "runtime/json/json.h"
#include "runtime/pki/sign.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <mutex>
#include <set>
#include <stdexcept>

namespace capstan::e2e {
namespace {

constexpr const char* kPebble = "/usr/bin/pebble";
constexpr const char* kChalltestsrv = "/usr/bin/pebble-challtestsrv";

bool bindable(int type, std::uint16_t port, std::uint16_t* bound) {
  int fd = ::socket(AF_INET, type, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  if (ok && bound) {
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    *bound = ntohs(addr.sin_port);
  }
  ::close(fd);
  return ok;
}

}  // namespace

bool pebble_available() { return ::access(kPebble, X_OK) == 0 && ::access(kChalltestsrv, X_OK) == 0; }

// A 127.0.0.1 port that was free for TCP (and UDP, when `udp_too`) a moment ago.
static std::uint16_t free_tcp_udp_port(bool udp_too) {
  // Ports handed out by this process are not handed out again.
  static std::mutex mu;
  static std::set<std::uint16_t> given;
  std::lock_guard<std::mutex> l(mu);
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::uint16_t port = 0;
    if (!bindable(SOCK_STREAM, 0, &port) || port == 0) continue;
    if (given.count(port)) continue;
    if (udp_too && !bindable(SOCK_DGRAM, port, nullptr)) continue;
    given.insert(port);
    return port;
  }
  throw std::runtime_error("no free port on 127.0.0.1");
}

PebbleEnv::PebbleEnv(PebbleOptions options) {
  using namespace std::chrono_literals;
  // pebble's HTTPS listener (ACME and management) gets a certificate from a CA of our own.
  auto ca_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  auto ca = pki::self_signed_ca("capstan pebble test CA", std::chrono::hours(24), ca_key);
  auto serving = pki::serving_certificate({"127.0.0.1", "localhost"}, ca, ca_key, std::chrono::hours(24));
  ca_pem_ = ca.to_pem();
  e2e::write_file(dir_.file("cert.pem"), serving.certificate.to_pem());
  e2e::write_file(dir_.file("key.pem"), serving.key.to_pem(pki::KeyEncoding::PKCS8));

  acme_port_ = free_tcp_udp_port(false);
  management_port_ = free_tcp_udp_port(false);
  dns_port_ = free_tcp_udp_port(/*udp_too=*/true);
  chall_management_port_ = free_tcp_udp_port(false);
  std::uint16_t tls_port = free_tcp_udp_port(false);  // TLS-ALPN-01 target; nothing listens there

  json::Object pebble;
  pebble["listenAddress"] = "127.0.0.1:" + std::to_string(acme_port_);
  pebble["managementListenAddress"] = "127.0.0.1:" + std::to_string(management_port_);
  pebble["certificate"] = dir_.file("cert.pem");
  pebble["privateKey"] = dir_.file("key.pem");
  pebble["httpPort"] = options.http_port;
  pebble["tlsPort"] = tls_port;
  pebble["ocspResponderURL"] = "";
  pebble["externalAccountBindingRequired"] = false;
  json::Object config;
  config["pebble"] = std::move(pebble);
  e2e::write_file(dir_.file("pebble-config.json"), json::serialize_pretty(json::Value(std::move(config))));

  http_ = std::make_unique<http::Client>(client_options());

  // challtestsrv: only its mock DNS (A queries answer 127.0.0.1, no AAAA) and management API.
  e2e::Process::Options c;
  c.args = {kChalltestsrv, "-http01", "", "-https01", "", "-tlsalpn01", "",
            "-dns01", "127.0.0.1:" + std::to_string(dns_port_),
            "-management", "127.0.0.1:" + std::to_string(chall_management_port_),
            "-defaultIPv4", "127.0.0.1", "-defaultIPv6", ""};
  c.stdout_path = dir_.file("challtestsrv.out");
  c.stderr_path = dir_.file("challtestsrv.err");
  challtestsrv_ = std::make_unique<e2e::Process>(c);
  bool chall_up = e2e::eventually(
      [&] {
        if (!challtestsrv_->running()) return false;
        try {
          auto r = http_->request("GET", "http://127.0.0.1:" + std::to_string(chall_management_port_) + "/", {}, {}, 1s);
          return r.status > 0;
        } catch (const std::exception&) {
          return false;
        }
      },
      20s, 50ms);
  if (!chall_up) throw std::runtime_error("pebble-challtestsrv did not start:\n" + logs());

  e2e::Process::Options p;
  p.args = {kPebble, "-config", dir_.file("pebble-config.json"), "-dnsserver", "127.0.0.1:" + std::to_string(dns_port_)};
  p.env = {{"PEBBLE_VA_NOSLEEP", "1"},
           {"PEBBLE_WFE_NONCEREJECT", "0"},
           {"PEBBLE_VA_ALWAYS_VALID", "0"},
           {"PEBBLE_AUTHZREUSE", "0"},
           {"PEBBLE_ALTERNATE_ROOTS", std::to_string(options.alternate_roots)}};
  for (const auto& [k, v] : options.env) p.env[k] = v;
  p.stdout_path = dir_.file("pebble.out");
  p.stderr_path = dir_.file("pebble.err");
  pebble_ = std::make_unique<e2e::Process>(p);
  bool pebble_up = e2e::eventually(
      [&] {
        if (!pebble_->running()) return false;
        try {
          return http_->request("GET", directory_url(), {}, {}, 1s).status == 200;
        } catch (const std::exception&) {
          return false;
        }
      },
      30s, 100ms);
  if (!pebble_up) throw std::runtime_error("pebble did not start:\n" + logs());
}

PebbleEnv::~PebbleEnv() {
  if (pebble_) pebble_->stop(std::chrono::seconds(5));
  if (challtestsrv_) challtestsrv_->stop(std::chrono::seconds(5));
}

std::string PebbleEnv::directory_url() const { return "https://127.0.0.1:" + std::to_string(acme_port_) + "/dir"; }

http::ClientOptions PebbleEnv::client_options() const {
  http::ClientOptions o;
  o.tls.ca_pem = ca_pem_;
  return o;
}

std::string PebbleEnv::management(const std::string& path) {
  std::string url = "https://127.0.0.1:" + std::to_string(management_port_) + path;
  auto r = http_->request("GET", url, {}, {}, std::chrono::seconds(10));
  if (r.status != 200) throw std::runtime_error("GET " + url + ": " + std::to_string(r.status) + " " + r.body);
  return r.body;
}

std::string PebbleEnv::root_pem(int index) { return management("/roots/" + std::to_string(index)); }
std::string PebbleEnv::intermediate_pem(int index) { return management("/intermediates/" + std::to_string(index)); }

void PebbleEnv::add_a(const std::string& host, const std::string& address) {
  json::Object body;
  body["host"] = host;
  body["addresses"] = json::Array{json::Value(address)};
  std::string url = "http://127.0.0.1:" + std::to_string(chall_management_port_) + "/add-a";
  auto r = http_->request("POST", url, {{"Content-Type", "application/json"}}, json::serialize(json::Value(std::move(body))),
                          std::chrono::seconds(10));
  if (r.status != 200) throw std::runtime_error("POST " + url + ": " + std::to_string(r.status) + " " + r.body);
}

std::string PebbleEnv::logs() const {
  std::string out;
  for (const char* f : {"challtestsrv.out", "challtestsrv.err", "pebble.out", "pebble.err"}) {
    out += "--- " + std::string(f) + "\n" + e2e::read_file(dir_.file(f));
  }
  return out;
}

}  // namespace capstan::e2e
