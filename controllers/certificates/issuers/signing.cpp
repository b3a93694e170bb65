#include "controllers/certificates/issuers/signing.h"

#include "apis/certs/v1/defaults.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/error.h"
#include "runtime/pki/sign.h"

namespace capstan::certificates {

pki::Certificate sign_request(const v1::CertificateRequest& cr, const pki::Certificate* issuer, const pki::PrivateKey& issuer_key,
                              meta::TimePoint now, const pki::SignOptions& published) {
  auto csr = pki::CertificateRequest::parse(cr.spec.request);
  if (!csr.verify_signature()) throw pki::PkiError("the CSR's signature does not verify");
  pki::CsrSigningSpec spec;
  if (!cr.spec.usages.empty()) spec.usages = cr.spec.usages;
  spec.is_ca = cr.spec.is_ca;
  auto duration = cr.spec.duration.value_or(std::chrono::duration_cast<std::chrono::nanoseconds>(v1::kDefaultCertificateDuration));
  spec.duration = std::chrono::duration_cast<std::chrono::seconds>(duration);
  pki::SignOptions o;
  o.now = std::chrono::floor<std::chrono::seconds>(now);
  // Self-signed: the certificate is signed as the CSR is (spec.signatureAlgorithm). A CA signs
  // with its own key's default, as cert-manager's CA issuer does.
  if (!issuer) o.hash = csr.signature_hash();
  o.crl_distribution_points = published.crl_distribution_points;
  o.ocsp_servers = published.ocsp_servers;
  o.issuing_certificate_urls = published.issuing_certificate_urls;
  return pki::sign_csr(csr, spec, issuer, issuer_key, o);
}

Bundle bundle(const pki::Certificate& leaf, const std::vector<pki::Certificate>& ca_chain) {
  std::vector<pki::Certificate> chain{leaf};
  chain.insert(chain.end(), ca_chain.begin(), ca_chain.end());
  Bundle b;
  if (chain.size() == 1) {
    // Self-signed leaf: it is its own CA.
    b.chain_pem = leaf.to_pem();
    b.ca_pem = leaf.to_pem();
    return b;
  }
  const pki::Certificate& top = chain.back();
  b.ca_pem = top.to_pem();
  if (top.is_self_signed()) chain.pop_back();
  b.chain_pem = pki::to_pem(chain);
  return b;
}

}  // namespace capstan::certificates
