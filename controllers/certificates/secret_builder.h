// The target Secret of a Certificate as cert-manager's issuing controller writes it
// (pkg/controller/certificates/issuing/internal/secret.go): type kubernetes.io/tls (an
// existing Secret's type is kept), tls.crt = leaf then chain, tls.key in the spec's
// encoding, ca.crt, the certs.capstan.dev/* annotations describing the certificate and its
// issuer, our fao label and the secretTemplate's labels and annotations. Pure functions.
#pragma once

#include "apis/certs/v1/certificate.h"
#include "runtime/json/json.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/key.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::certificates {

namespace v1 = apis::certs::v1;

// AnnotationsForCertificateSecret: certificate-name and issuer-{name,kind,group} always; with
// the issued leaf also common-name, alt-names, ip-sans, uri-sans (comma-separated) and the
// non-empty subject-* and email-sans annotations.
std::map<std::string, std::string> secret_annotations(const v1::Certificate& crt, const pki::Certificate* leaf);
// secretTemplate annotations, then ours (ours win).
std::map<std::string, std::string> desired_secret_annotations(const v1::Certificate& crt, const pki::Certificate* leaf);
// controller.certs.capstan.dev/fao=true plus the secretTemplate labels.
std::map<std::string, std::string> desired_secret_labels(const v1::Certificate& crt);

// tls.key as the spec asks (PKCS1 default; Ed25519 is always PKCS#8).
std::string encode_private_key(const pki::PrivateKey& key, const v1::CertificateSpec& spec);

// The additionalOutputFormats entries of the Secret (key -> decoded value) for `data`:
// key.der for DER, tls-combined.pem for CombinedPEM; none when the spec asks for none or the
// key does not parse.
std::map<std::string, std::string> additional_outputs(const v1::CertificateSpec& spec, const std::string& private_key_pem,
                                                      const std::string& certificate_pem);

struct IssuedData {
  std::string certificate_pem;  // leaf then chain
  std::string ca_pem;           // may be empty (ACME)
  std::string private_key_pem;  // already encoded
  std::map<std::string, std::string> keystores;  // keystore_outputs() (keystores.h)
};

// The server-side apply configuration of the Secret. `existing_type` is the live Secret's
// type ("" when it does not exist yet: kubernetes.io/tls).
json::Value desired_secret(const v1::Certificate& crt, const IssuedData& data, std::string_view existing_type);

// cert-manager's util.JoinWithEscapeCSV: one CSV record (fields with commas, quotes, line
// breaks or leading spaces quoted), no trailing newline.
std::string join_csv(const std::vector<std::string>& fields);
std::string join(const std::vector<std::string>& items, std::string_view sep);

}  // namespace capstan::certificates
