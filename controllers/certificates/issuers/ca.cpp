#include "controllers/certificates/issuers/ca.h"

#include "controllers/certificates/env.h"
#include "controllers/certificates/issuers/lookup.h"
#include "controllers/certificates/issuers/signing.h"
#include "runtime/client/errors.h"
#include "runtime/pki/error.h"

namespace capstan::certificates {

CaKeyPair parse_ca_key_pair(const SecretView& secret) {
  if (secret.get(kTlsCrt).empty()) throw pki::PkiError("secret has no " + std::string(kTlsCrt));
  if (secret.get(kTlsKey).empty()) throw pki::PkiError("secret has no " + std::string(kTlsKey));
  CaKeyPair kp;
  kp.chain = pki::Certificate::parse_chain(secret.get(kTlsCrt));
  kp.key = pki::PrivateKey::from_pem(secret.get(kTlsKey));
  if (!kp.key.matches(kp.chain.front())) throw pki::PkiError("the private key does not match the certificate");
  return kp;
}

IssuerCondition setup_ca(Env& env, const v1::Issuer& issuer) {
  namespace r = v1::issuer_reason;
  std::string ns = resource_namespace(env, issuer);
  const std::string& name = issuer.spec.ca->secret_name;
  std::optional<SecretView> secret;
  try {
    secret = env.secret_reader.get(ns, name);
  } catch (const std::exception& e) {
    return {"False", std::string(r::kErrGetKeyPair), std::string("Error getting keypair for CA issuer: ") + e.what(),
            env.options.issuer_retry_interval};
  }
  if (!secret)
    return {"False", std::string(r::kErrGetKeyPair),
            "Error getting keypair for CA issuer: secrets \"" + name + "\" not found", env.options.issuer_retry_interval};
  try {
    auto kp = parse_ca_key_pair(*secret);
    if (!kp.chain.front().is_ca()) throw pki::PkiError("the certificate is not a CA (basicConstraints CA:FALSE)");
  } catch (const pki::PkiError& e) {
    return {"False", std::string(r::kErrInvalidKeyPair), std::string("Error initializing issuer: ") + e.what(),
            env.options.issuer_retry_interval};
  }
  return {"True", std::string(r::kKeyPairVerified), "Signing CA verified", env.options.issuer_recheck_interval};
}

SignOutcome sign_ca(Env& env, const v1::CertificateRequest& cr, const v1::Issuer& issuer) {
  std::string ns = resource_namespace(env, issuer);
  const std::string& name = issuer.spec.ca->secret_name;
  std::optional<SecretView> secret;
  try {
    secret = env.secret_reader.get(ns, name);
  } catch (const std::exception& e) {
    return SignOutcome::pending("SecretGetError", "Failed to get certificate key pair from secret " + ns + "/" + name + ": " + e.what(),
                                env.options.issuer_retry_interval);
  }
  if (!secret)
    return SignOutcome::pending("SecretMissing", "Referenced secret " + ns + "/" + name + " not found", env.options.issuer_retry_interval);
  CaKeyPair kp;
  try {
    kp = parse_ca_key_pair(*secret);
  } catch (const pki::PkiError& e) {
    return SignOutcome::pending("SecretInvalidData",
                                "Failed to parse signing CA keypair from secret " + ns + "/" + name + ": " + e.what(),
                                env.options.issuer_retry_interval);
  }
  try {
    pki::SignOptions published;
    published.crl_distribution_points = issuer.spec.ca->crl_distribution_points;
    published.ocsp_servers = issuer.spec.ca->ocsp_servers;
    published.issuing_certificate_urls = issuer.spec.ca->issuing_certificate_urls;
    auto leaf = sign_request(cr, &kp.chain.front(), kp.key, env.now(), published);
    auto b = bundle(leaf, kp.chain);
    return SignOutcome::issued(b.chain_pem, b.ca_pem);
  } catch (const pki::PkiError& e) {
    return SignOutcome::failed("SigningError", std::string("Error signing certificate: ") + e.what());
  }
}

}  // namespace capstan::certificates
