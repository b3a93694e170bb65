// spec.keystores: the JKS and PKCS#12 stores of the target Secret, as cert-manager's issuing
// controller writes them (keystore.jks: the key entry "certificate" with the chain of tls.crt and
// the CAs of ca.crt as "ca", "ca-1", ...; keystore.p12: the key, the chain and the CAs;
// truststore.jks / truststore.p12: the CAs, when the issuer gave any).
//
// A store's salt is random, so a store written again differs byte for byte. A store already in
// the Secret is therefore kept when it still holds exactly what would be written (the same key,
// chain, CAs, alias or profile) and opens with the current password; only then does a
// re-applied Secret leave it alone, and a changed password, profile or alias rewrites it.
#pragma once

#include "apis/certs/v1/certificate.h"
#include "controllers/certificates/secret_reader.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/pkcs12.h"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::certificates {

namespace v1 = apis::certs::v1;

// The passwords of the stores the spec creates (nullopt: that store is not created).
struct KeystorePasswords {
  std::optional<std::string> jks;
  std::optional<std::string> pkcs12;
};

// A password that cannot be read; what() names the field and the Secret ("spec.keystores.pkcs12.
// passwordSecretRef: Secret \"x\" has no key \"password\"") and never the password.
struct KeystoreError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Reads the literal passwords, or the referenced Secret keys through `secrets` (a live read, kept
// for the reader's TTL). Throws KeystoreError.
KeystorePasswords keystore_passwords(const v1::CertificateSpec& spec, std::string_view ns, SecretReader& secrets);

struct KeystoreInput {
  std::string_view private_key_pem;
  std::string_view certificate_pem;  // leaf then chain
  std::string_view ca_pem;           // may be empty
};

// The store entries of the Secret's data (key -> bytes). An entry of `existing` (the Secret's
// data, or nullptr) is reused when it holds what would be written. No entries when the key or the
// chain does not parse (the policies reissue such a Secret).
std::map<std::string, std::string> keystore_outputs(const v1::CertificateSpec& spec, const KeystorePasswords& passwords,
                                                    const KeystoreInput& in,
                                                    const std::map<std::string, std::string>* existing);

// A trust store of `cas` (JKS aliases "ca", "ca-1", ...): `existing` when it opens with `password`
// and holds exactly those certificates (PKCS#12: in that profile), else a new one. Also the
// Bundles' additional formats.
std::string jks_truststore(const std::vector<pki::Certificate>& cas, const std::string& password, pki::TimePoint created,
                           const std::string* existing);
std::string pkcs12_truststore(const std::vector<pki::Certificate>& cas, const std::string& password, pki::Pkcs12Profile profile,
                              const std::string* existing);

// The first store entry whose presence or content in `data` differs from `desired`, or nullopt.
std::optional<std::string> keystore_mismatch(const std::map<std::string, std::string>& desired,
                                             const std::map<std::string, std::string>& data);

}  // namespace capstan::certificates
