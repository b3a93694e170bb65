// The CA issuer (pkg/issuer/ca, pkg/controller/certificaterequests/ca): the key pair in the
// Secret spec.ca.secretName (tls.crt, possibly a chain, and tls.key) signs the request; Ready
// is KeyPairVerified "Signing CA verified" once the pair parses and matches, ErrGetKeyPair /
// ErrInvalidKeyPair otherwise. The Secret is usually not ours (no fao label), so it is read
// live (with a short TTL) rather than cached with every other Secret.
#pragma once

#include "apis/certs/v1/certificate_request.h"
#include "apis/certs/v1/issuer.h"
#include "controllers/certificates/issuers/setup.h"
#include "controllers/certificates/requests/outcome.h"
#include "controllers/certificates/secret_view.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/key.h"

#include <vector>

namespace capstan::certificates {

struct Env;

struct CaKeyPair {
  std::vector<pki::Certificate> chain;  // the CA first
  pki::PrivateKey key;
};
// Throws pki::PkiError naming what is wrong.
CaKeyPair parse_ca_key_pair(const SecretView& secret);

IssuerCondition setup_ca(Env& env, const v1::Issuer& issuer);
SignOutcome sign_ca(Env& env, const v1::CertificateRequest& cr, const v1::Issuer& issuer);

}  // namespace capstan::certificates
