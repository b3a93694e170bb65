#include "runtime/controller/metrics_tls.h"

#include "runtime/log/log.h"
#include "runtime/pki/pki.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>

namespace capstan::controller {
namespace {

std::string hostname() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

// client-go's certutil.GenerateSelfSignedCertKey: a CA named "<host>-ca@<unix time>" and a
// serving certificate signed by it for localhost, 127.0.0.1, ::1 (and the host name); the
// chain is served whole, so a client may pin the CA.
http::ServerTls self_signed() {
  auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  auto validity = std::chrono::hours(24 * 365);
  auto ca_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
  auto ca = pki::self_signed_ca("localhost-ca@" + std::to_string(now), validity, ca_key);
  std::vector<std::string> hosts = {"localhost", "127.0.0.1", "::1"};
  if (auto h = hostname(); !h.empty() && h != "localhost") hosts.push_back(h);
  auto serving = pki::serving_certificate(hosts, ca, ca_key, validity);
  http::ServerTls tls;
  tls.cert_pem = serving.certificate.to_pem() + ca.to_pem();
  tls.key_pem = serving.key.to_pem(pki::KeyEncoding::PKCS8);
  return tls;
}

}  // namespace

http::ServerTls metrics_server_tls(const std::string& cert_dir) {
  if (cert_dir.empty()) {
    log::info("metrics server: no certificate directory given; serving with a self-signed certificate");
    return self_signed();
  }
  http::ServerTls tls;
  tls.cert_file = (std::filesystem::path(cert_dir) / "tls.crt").string();
  tls.key_file = (std::filesystem::path(cert_dir) / "tls.key").string();
  for (const auto* f : {&tls.cert_file, &tls.key_file}) {
    if (!std::filesystem::exists(*f)) throw std::runtime_error("metrics server: certificate file " + *f + " does not exist");
  }
  return tls;
}

}  // namespace capstan::controller
