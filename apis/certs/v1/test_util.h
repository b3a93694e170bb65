// Helpers shared by the certs.capstan.dev/v1 tests.
#pragma once

#include "runtime/validation/field.h"
#include "runtime/json/json.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/key.h"

#include <string>
#include <string_view>
#include <vector>

namespace capstan::apis::certs::v1::testing {

inline json::Value J(std::string_view json_text) { return json::parse(json_text, "test object"); }
inline json::Value Y(std::string_view yaml_text) { return json::from_yaml(yaml_text, "test manifest"); }

inline std::vector<std::string> errors_of(const std::vector<validation::Cause>& causes) {
  std::vector<std::string> out;
  for (const auto& c : causes) out.push_back(c.error());
  return out;
}

// A key shared by the tests (ECDSA P-256: cheap to generate).
inline const pki::PrivateKey& test_key() {
  static const pki::PrivateKey key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  return key;
}

// A PEM CSR for `dns_name` with `usages` (empty: the defaults) encoded, optionally for a CA.
inline std::string make_csr(std::string_view dns_name, std::vector<std::string> usages = {}, bool is_ca = false) {
  pki::CertificateTemplate t;
  t.dns_names = {std::string(dns_name)};
  t.usages = std::move(usages);
  t.is_ca = is_ca;
  return pki::CertificateRequest::create(t, test_key());
}

inline std::string b64(std::string_view s) { return meta::base64_encode(s); }

}  // namespace capstan::apis::certs::v1::testing
