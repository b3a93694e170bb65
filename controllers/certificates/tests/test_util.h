// Helpers of the certificates unit tests: objects from YAML-ish JSON literals, key pairs and
// certificates made with runtime/pki, Secrets holding them.
#pragma once

#include "apis/certs/v1/certificate.h"
#include "apis/certs/v1/certificate_request.h"
#include "controllers/certificates/request_builder.h"
#include "controllers/certificates/secret_builder.h"
#include "controllers/certificates/secret_view.h"
#include "runtime/json/json.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/pki.h"

#include <string>

namespace capstan::certificates::testing {

namespace v1 = apis::certs::v1;

inline json::Value J(std::string_view text) { return json::parse(text, "test literal"); }

// A Certificate "web" in "shop" with `spec` (JSON text), uid "uid-web".
inline json::Value certificate_json(std::string_view spec, std::string_view name = "web") {
  json::Value obj = J(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate",
      "metadata":{"name":"web","namespace":"shop","uid":"uid-web","generation":3}})");
  obj.get_object()["metadata"].get_object()["name"] = name;
  obj.get_object()["spec"] = J(spec);
  return obj;
}
inline v1::Certificate certificate(std::string_view spec) { return v1::Certificate::from_json(certificate_json(spec)); }

struct TestCa {
  pki::PrivateKey key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  pki::Certificate cert = pki::self_signed_ca("test-ca", std::chrono::hours(24 * 365), key);
};

// Signs the CSR the controller would build for `crt` with `key`, valid [not_before, not_before + lifetime).
inline pki::Certificate issue_for(const v1::Certificate& crt, const pki::PrivateKey& key, const TestCa& ca,
                                  pki::TimePoint not_before, std::chrono::seconds lifetime) {
  auto tmpl = template_for(crt.spec);
  tmpl.not_before = not_before;
  tmpl.not_after = not_before + lifetime;
  pki::SignOptions o;
  o.clamp_to_issuer = false;
  return pki::sign(tmpl, key.public_key(), &ca.cert, ca.key, std::nullopt, o);
}

// The Secret the issuing step would write for `crt`.
inline SecretView secret_for(const v1::Certificate& crt, const pki::PrivateKey& key, const pki::Certificate& cert, const TestCa& ca) {
  IssuedData data{cert.to_pem(), ca.cert.to_pem(), encode_private_key(key, crt.spec)};
  return SecretView::from_json(desired_secret(crt, data, ""));
}

// A CertificateRequest for `crt`'s revision with the CSR of `key`.
inline v1::CertificateRequest request_for(const v1::Certificate& crt, const pki::PrivateKey& key, std::int64_t revision = 1) {
  json::Value owner = certificate_json("{}");
  return v1::CertificateRequest::from_json(desired_request(crt, owner, revision, "web-1-key", build_csr(crt.spec, key)));
}

}  // namespace capstan::certificates::testing
