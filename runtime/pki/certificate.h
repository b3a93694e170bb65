// Parsed X.509 certificates.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/pki/key.h"
#include "runtime/pki/template.h"
#include "runtime/pki/usage.h"

namespace capstan::pki {

// An immutable, shared X.509 certificate. Every field is decoded once, when the certificate is
// parsed or signed, so accessors are cheap and safe to call from any thread.
class Certificate {
 public:
  Certificate() = default;  // empty; every accessor except empty() throws on it

  // The first "CERTIFICATE" block of `pem` (other blocks before it are skipped).
  static Certificate parse_pem(std::string_view pem);
  // Every "CERTIFICATE" block, in order (other block types are skipped). Throws if there is
  // none or one of them is malformed.
  static std::vector<Certificate> parse_chain(std::string_view pem);
  static Certificate parse_der(std::string_view der);

  bool empty() const { return !impl_; }
  std::string to_pem() const;
  std::string to_der() const;

  const Subject& subject() const;
  const Subject& issuer() const;
  // RFC 4514 strings, most specific attribute first: "CN=admin,O=system:masters".
  std::string subject_dn() const;
  std::string issuer_dn() const;

  std::string serial_hex() const;  // lower-case hex, no separators
  TimePoint not_before() const;
  TimePoint not_after() const;

  const std::vector<std::string>& dns_names() const;
  const std::vector<std::string>& ip_addresses() const;  // "10.0.0.1", "2001:db8::1"
  const std::vector<std::string>& uris() const;
  const std::vector<std::string>& email_addresses() const;
  // otherName SANs with UTF8String values (others are skipped).
  const std::vector<OtherName>& other_names() const;
  // The nameConstraints extension, when present.
  const std::optional<NameConstraints>& name_constraints() const;
  // The subject exactly as written (ASN.1 order, multi-valued RDNs kept).
  const NameSequence& subject_sequence() const;

  const std::vector<KeyUsage>& key_usages() const;
  const std::vector<ExtKeyUsage>& ext_key_usages() const;
  // Dotted OIDs of extended key usages this library has no name for.
  const std::vector<std::string>& unknown_ext_key_usages() const;
  // cert-manager names of key usages then extended key usages.
  std::vector<std::string> usages() const;
  bool is_ca() const;  // basicConstraints CA:TRUE

  std::string subject_key_id() const;    // lower-case hex; empty if absent
  // The URIs of crlDistributionPoints (full names) and of authorityInfoAccess (OCSP, caIssuers).
  std::vector<std::string> crl_distribution_points() const;
  std::vector<std::string> ocsp_servers() const;
  std::vector<std::string> issuing_certificate_urls() const;
  std::string authority_key_id() const;  // lower-case hex; empty if absent
  // OpenSSL's long name: "ecdsa-with-SHA256", "sha256WithRSAEncryption", "ED25519".
  std::string signature_algorithm() const;

  PublicKey public_key() const;
  const std::string& public_key_der() const;  // DER SubjectPublicKeyInfo
  std::string fingerprint_sha256() const;     // lower-case hex of SHA-256 over the DER

  // The fields as a template (subject, SANs, usages, isCA, not_before/not_after).
  CertificateTemplate to_template() const;
  // Issuer name equals subject name and the signature verifies with the certificate's own key.
  bool is_self_signed() const;
  // Issuer name equals issuer's subject and the signature verifies with issuer's key.
  bool signed_by(const Certificate& issuer) const;

  bool operator==(const Certificate& other) const;  // same DER

 private:
  friend struct detail::Access;
  struct Impl;
  const Impl& get() const;  // throws PkiError when empty
  std::shared_ptr<const Impl> impl_;
};

// Concatenated PEM of the certificates, in order (a tls.crt chain or a ca.crt bundle).
std::string to_pem(const std::vector<Certificate>& chain);

}  // namespace capstan::pki
