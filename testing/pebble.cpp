#include "testing/pebble.h"

#include "runtime/json/json.h"
#include "runtime/pki/sign.h"
#include "testing/ports.h"

#include <unistd.h>

#include <stdexcept>

namespace capstan::e2e {
namespace {

constexpr const char* kPebble = "/usr/bin/pebble";
constexpr const char* kChalltestsrv = "/usr/bin/pebble-challtestsrv";

}  // namespace

bool pebble_available() { return ::access(kPebble, X_OK) == 0 && ::access(kChalltestsrv, X_OK) == 0; }

PebbleEnv::PebbleEnv(PebbleOptions options) {
  using namespace std::chrono_literals;
  // pebble's HTTPS listener (ACME and management) gets a certificate from a CA of our own.
  auto ca_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  auto ca = pki::self_signed_ca("capstan pebble test CA", std::chrono::hours(24), ca_key);
  auto serving = pki::serving_certificate({"127.0.0.1", "localhost"}, ca, ca_key, std::chrono::hours(24));
  ca_pem_ = ca.to_pem();
  e2e::write_file(dir_.file("cert.pem"), serving.certificate.to_pem());
  e2e::write_file(dir_.file("key.pem"), serving.key.to_pem(pki::KeyEncoding::PKCS8));

  acme_port_ = e2e::free_port();
  management_port_ = e2e::free_port();
  dns_port_ = e2e::free_port(/*udp_too=*/true);
  chall_management_port_ = e2e::free_port();
  std::uint16_t tls_port = e2e::free_port();  // TLS-ALPN-01 target; nothing listens there

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
  p.args = {kPebble, "-config", dir_.file("pebble-config.json"), "-dnsserver",
            options.dns_server.empty() ? "127.0.0.1:" + std::to_string(dns_port_) : options.dns_server};
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
