// Issuing certificates: cert-manager's SelfSigned and CA issuers, and helpers for the API
// server's own CA, serving and client certificates.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "runtime/pki/certificate.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/key.h"
#include "runtime/pki/template.h"

namespace capstan::pki {

struct SignOptions {
  SignatureHash hash = SignatureHash::Auto;
  // Cap not_after at the issuer's not_after, as cert-manager's CA issuer does.
  bool clamp_to_issuer = true;
  // "Now" for the default not_before (tests); the system clock otherwise.
  std::optional<TimePoint> now;
  // Default not_before = now - backdate, to tolerate clock skew between peers (cert-manager
  // uses 0; not_after still = not_before + duration).
  std::chrono::seconds backdate{0};
  // What the issuer publishes (cert-manager's SelfSigned crlDistributionPoints and CA
  // crlDistributionPoints, ocspServers and issuingCertificateURLs): one crlDistributionPoints
  // DistributionPoint per URL, and authorityInfoAccess with OCSP and caIssuers URIs.
  std::vector<std::string> crl_distribution_points, ocsp_servers, issuing_certificate_urls;
};

// Signs a v3 certificate for `subject_key` with the template's subject and SANs:
//  - a random positive 128-bit serial;
//  - basicConstraints (critical) CA:TRUE for is_ca, CA:FALSE otherwise;
//  - keyUsage (critical) and extendedKeyUsage from effective_usages(tmpl.usages, tmpl.is_ca);
//  - subjectAltName (critical when the subject is empty);
//  - subjectKeyIdentifier (SHA-1 of the public key bits) and authorityKeyIdentifier;
//  - validity: not_before = tmpl.not_before or now - backdate; not_after = tmpl.not_after, else
//    not_before + (duration, else tmpl.duration, else kDefaultDuration); see SignOptions.
// `issuer` null means self-signed: the issuer name is the subject and `issuer_key` must be
// the private half of `subject_key`. Otherwise `issuer_key` must match `issuer`.
Certificate sign(const CertificateTemplate& tmpl, const PublicKey& subject_key,
                 const Certificate* issuer, const PrivateKey& issuer_key,
                 std::optional<std::chrono::seconds> duration = std::nullopt,
                 const SignOptions& options = {});

// The same from a CSR: its fields and public key, after checking its signature. `usages` and
// `is_ca` come from the caller (a CertificateRequest's spec), not from the CSR's extensions;
// pass std::nullopt to use the CSR's own.
struct CsrSigningSpec {
  std::optional<std::vector<std::string>> usages;
  std::optional<bool> is_ca;
  std::optional<std::chrono::seconds> duration;
};
Certificate sign_csr(const CertificateRequest& csr, const CsrSigningSpec& spec,
                     const Certificate* issuer, const PrivateKey& issuer_key,
                     const SignOptions& options = {});

// The helpers below make the process's own infrastructure certificates (API server, webhook
// and metrics serving, clients). They are backdated by kInfrastructureBackdate: a TLS peer
// verifying with OpenSSL's default time (time(NULL), glibc's coarse clock, a few ms behind) or
// with a slightly slow clock would otherwise see a certificate made this second as not yet valid.
inline constexpr std::chrono::seconds kInfrastructureBackdate{60};

// A self-signed CA: CN=common_name, isCA, usages digital signature + key encipherment +
// cert sign.
Certificate self_signed_ca(const std::string& common_name, std::chrono::seconds duration,
                           const PrivateKey& key);

struct KeyAndCertificate {
  PrivateKey key;
  Certificate certificate;
};

// Generates a key (default ECDSA P-256) and signs `tmpl` for it with the CA.
KeyAndCertificate issue(const CertificateTemplate& tmpl, const Certificate& ca,
                        const PrivateKey& ca_key, std::chrono::seconds duration,
                        KeyAlgorithm algorithm = KeyAlgorithm::ECDSA, int size = 0);

// A TLS serving certificate: CN = hosts[0], hosts split into DNS names and IP addresses,
// usages digital signature, key encipherment, server auth.
KeyAndCertificate serving_certificate(const std::vector<std::string>& hosts,
                                      const Certificate& ca, const PrivateKey& ca_key,
                                      std::chrono::seconds duration);

// A TLS client certificate (Kubernetes user = CN, groups = O): usages digital signature,
// key encipherment, client auth. E.g. ("admin", {"system:masters"}).
KeyAndCertificate client_certificate(const std::string& common_name,
                                     const std::vector<std::string>& organizations,
                                     const Certificate& ca, const PrivateKey& ca_key,
                                     std::chrono::seconds duration);

// Whether `s` is an IPv4 or IPv6 literal (how serving_certificate splits hosts).
bool is_ip_address(const std::string& s);

}  // namespace capstan::pki
