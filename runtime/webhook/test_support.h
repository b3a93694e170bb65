// Test helpers for runtime/webhook: a throwaway CA issuing serving certificates into a
// webhook server's certificate directory.
#pragma once

#include "testing/test_cluster.h"
#include "runtime/pki/pki.h"

#include <chrono>
#include <string>
#include <vector>

namespace capstan::webhook::testing {

struct TestCa {
  explicit TestCa(const std::string& name)
      : key(pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA)),
        cert(pki::self_signed_ca(name, std::chrono::hours(24), key)),
        pem(cert.to_pem()) {}

  // Writes tls.crt / tls.key for `hosts` into `dir` (each file atomically).
  void issue_into(const integration::TempDir& dir, const std::vector<std::string>& hosts = {"127.0.0.1", "localhost"}) const {
    auto kc = pki::serving_certificate(hosts, cert, key, std::chrono::hours(1));
    dir.write("tls.key", kc.key.to_pem(pki::KeyEncoding::PKCS8));
    dir.write("tls.crt", kc.certificate.to_pem());
  }

  pki::PrivateKey key;
  pki::Certificate cert;
  std::string pem;
};

}  // namespace capstan::webhook::testing
