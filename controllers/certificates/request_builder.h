// What the request manager asks an issuer for: the CSR built from a Certificate's spec and
// private key (runtime/pki), and the CertificateRequest of one revision
// (pkg/controller/certificates/requestmanager): named <certificate>-<revision>, with the
// certificate-revision, private-key-secret-name and certificate-name annotations, the
// Certificate's labels and a controller reference to it. Pure functions.
#pragma once

#include "apis/certs/v1/certificate.h"
#include "apis/certs/v1/certificate_request.h"
#include "runtime/json/json.h"
#include "runtime/pki/key.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/template.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::certificates {

namespace v1 = apis::certs::v1;

// Subject (literalSubject parsed, in ASN.1 order, when set), SANs (otherNames included), isCA,
// nameConstraints and the effective usages of the spec. Throws pki::PkiError for a literalSubject
// the webhook would have refused.
pki::CertificateTemplate template_for(const v1::CertificateSpec& spec);
// spec.nameConstraints as runtime/pki's (nullopt when unset).
std::optional<pki::NameConstraints> name_constraints_for(const v1::CertificateSpec& spec);

// spec.signatureAlgorithm as the key algorithm it needs and the digest of the CSR's signature
// (Auto when unset: the key's default; the key is then the effective privateKey.algorithm).
struct SignatureChoice {
  pki::KeyAlgorithm key;
  pki::SignatureHash hash;
};
SignatureChoice signature_for(const v1::CertificateSpec& spec);
// PEM CSR signed by `key` (usages encoded unless encodeUsagesInRequest is false) with the digest
// spec.signatureAlgorithm names. Throws pki::PkiError when the key cannot make that signature.
std::string build_csr(const v1::CertificateSpec& spec, const pki::PrivateKey& key);

// What a CertificateRequest for `crt` asks for: `csr_pem`, the issuerRef, duration, isCA and
// usages the Certificate's spec says (defaults applied).
v1::CertificateRequestSpec request_spec(const v1::Certificate& crt, std::string_view csr_pem);

// The CertificateRequest object for `revision`. `owner` is the Certificate object (for the
// controller reference).
json::Value desired_request(const v1::Certificate& crt, const json::Value& owner, std::int64_t revision,
                            std::string_view key_secret_name, std::string_view csr_pem);

// The revision annotation of a request (nullopt when missing or not a number).
std::optional<std::int64_t> request_revision(const json::Value& request);

}  // namespace capstan::certificates
