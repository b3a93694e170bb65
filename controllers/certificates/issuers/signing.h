// Signing a CertificateRequest's CSR locally (the SelfSigned and CA issuers), with the
// request's own duration, isCA and usages (cert-manager's CertificateTemplateFromCertificateRequest).
#pragma once

#include "apis/certs/v1/certificate_request.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/key.h"
#include "runtime/pki/sign.h"
#include "runtime/meta/time.h"

#include <string>
#include <vector>

namespace capstan::certificates {

namespace v1 = apis::certs::v1;

// Signs with `issuer_key`; `issuer` null = self-signed (then issuer_key must be the CSR's
// key, and the certificate's signature uses the CSR's digest). The subject is the CSR's as
// written; otherNames and nameConstraints are copied from it. Throws pki::PkiError (bad CSR,
// key mismatch).
// `published`: the issuer's crlDistributionPoints, ocspServers and issuingCertificateURLs, put
// in the certificate (only these fields of it are read).
pki::Certificate sign_request(const v1::CertificateRequest& cr, const pki::Certificate* issuer, const pki::PrivateKey& issuer_key,
                              meta::TimePoint now, const pki::SignOptions& published = {});

// cert-manager's ParseSingleCertificateChain for leaf + the CA's chain: the chain (tls.crt)
// is leaf then intermediates, without a self-signed root; ca.crt is the top of the chain
// (the root when the CA is self-signed, else the last certificate of the CA's chain).
struct Bundle {
  std::string chain_pem;
  std::string ca_pem;
};
Bundle bundle(const pki::Certificate& leaf, const std::vector<pki::Certificate>& ca_chain);

}  // namespace capstan::certificates
