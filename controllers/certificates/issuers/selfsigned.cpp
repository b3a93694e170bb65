#include "controllers/certificates/issuers/selfsigned.h"

#include "apis/certs/v1/issuer.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/env.h"
#include "controllers/certificates/issuers/signing.h"
#include "runtime/meta/object.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/error.h"

namespace capstan::certificates {

IssuerCondition setup_self_signed(const v1::Issuer&) {
  return {"True", std::string(v1::issuer_reason::kIsReady), "", std::nullopt};
}

SignOutcome sign_self_signed(Env& env, const v1::CertificateRequest& cr, const json::Value& cr_obj, const v1::Issuer& issuer) {
  std::string secret_name(meta::annotation(cr_obj, annotation::kPrivateKeySecretName));
  if (secret_name.empty())
    return SignOutcome::failed("MissingAnnotation", "Annotation \"" + std::string(annotation::kPrivateKeySecretName) +
                                                        "\" missing or reference empty");
  std::string ns(cr.namespace_());
  auto secret = env.secret_reader.get(ns, secret_name);
  if (!secret)
    return SignOutcome::pending("MissingSecret", "Referenced secret " + ns + "/" + secret_name + " not found",
                                env.options.issuer_retry_interval);
  pki::PrivateKey key;
  try {
    key = pki::PrivateKey::from_pem(secret->get(kTlsKey));
  } catch (const pki::PkiError& e) {
    return SignOutcome::failed("ErrorParsingKey", "Failed to get key \"" + secret_name + "\" referenced in annotation \"" +
                                                      std::string(annotation::kPrivateKeySecretName) + "\": " + e.what());
  }
  pki::CertificateRequest csr;
  try {
    csr = pki::CertificateRequest::parse(cr.spec.request);
  } catch (const pki::PkiError& e) {
    return SignOutcome::failed("ErrorGenerating", std::string("Error generating certificate template: ") + e.what());
  }
  if (!key.matches(csr.public_key()))
    return SignOutcome::failed("ErrorKeyMatch", "Error generating certificate template: CSR not signed by referenced private key");
  try {
    pki::SignOptions published;
    if (issuer.spec.self_signed) published.crl_distribution_points = issuer.spec.self_signed->crl_distribution_points;
    auto cert = sign_request(cr, nullptr, key, env.now(), published);
    std::string pem = cert.to_pem();
    return SignOutcome::issued(pem, pem);
  } catch (const pki::PkiError& e) {
    return SignOutcome::failed("ErrorSigning", std::string("Error signing certificate: ") + e.what());
  }
}

}  // namespace capstan::certificates
