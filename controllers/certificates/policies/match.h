// Comparisons of what exists (a private key, a CertificateRequest, an issued certificate)
// with a Certificate's spec, as cert-manager's pkg/util/pki/match.go does. Each returns the
// spec fields that differ ("spec.dnsNames", ...), empty when everything matches.
#pragma once

#include "apis/certs/v1/certificate.h"
#include "apis/certs/v1/certificate_request.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/key.h"

#include <string>
#include <vector>

namespace capstan::certificates::policies {

namespace v1 = apis::certs::v1;

// PrivateKeyMatchesSpec: the algorithm and size (RSA bits, ECDSA curve) the spec asks for.
std::vector<std::string> private_key_matches_spec(const pki::PrivateKey& key, const v1::CertificateSpec& spec);

// RequestMatchesSpec: the CSR's names and subject, and the request's isCA, usages, duration
// and issuerRef (defaults applied on both sides). Throws pki::PkiError when the CSR does not parse.
std::vector<std::string> request_matches_spec(const v1::CertificateRequest& request, const v1::CertificateSpec& spec);
std::vector<std::string> csr_matches_spec(const pki::CertificateRequest& csr, const v1::CertificateSpec& spec);

// SecretDataAltNamesMatchSpec: the looser check on the issued certificate itself (names may
// move between commonName and dnsNames, as CAs do), used when the CertificateRequest that
// issued it is gone.
std::vector<std::string> certificate_matches_spec(const pki::Certificate& cert, const v1::CertificateSpec& spec);

// Helpers shared with the tests.
bool equal_unsorted(std::vector<std::string> a, std::vector<std::string> b);
// IP literals in canonical text form (inet_ntop); unparsable entries are kept as written.
std::vector<std::string> normalise_ips(const std::vector<std::string>& ips);
// Usage names canonicalised (aliases resolved) and sorted; unknown names kept as written.
std::vector<std::string> normalise_usages(const std::vector<std::string>& usages);

}  // namespace capstan::certificates::policies
