// PKCS#10 certificate signing requests.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "runtime/pki/key.h"
#include "runtime/pki/template.h"

namespace capstan::pki {

// Digest for a signature. Auto picks what Go (and so cert-manager) picks for the signing key:
// SHA-256 for RSA, the curve's hash for ECDSA (P-256: SHA-256, P-384: SHA-384, P-521: SHA-512)
// and none for Ed25519 (which accepts only Auto).
enum class SignatureHash { Auto, SHA256, SHA384, SHA512 };

struct CsrOptions {
  // cert-manager's encodeUsagesInRequest: put keyUsage/extendedKeyUsage in the request.
  bool encode_usages = true;
  SignatureHash hash = SignatureHash::Auto;
};

// The digest a signature by `key` with `hash` uses: `hash` itself, or for Auto the one
// CsrOptions/SignOptions pick (Auto stays Auto for Ed25519). Throws PkiError when `key` cannot
// sign with `hash` (Ed25519 with a separate digest).
SignatureHash resolve_hash(const PublicKey& key, SignatureHash hash);

class CertificateRequest {
 public:
  CertificateRequest() = default;  // empty; every accessor except empty() throws on it

  // A PEM "CERTIFICATE REQUEST" for the template's subject and SANs, signed by `key`. Its
  // extension request carries subjectAltName (critical when the subject is empty), keyUsage
  // and extendedKeyUsage (effective_usages(), when encode_usages) and, for a CA,
  // basicConstraints CA:TRUE. Validity fields of the template are ignored.
  static std::string create(const CertificateTemplate& tmpl, const PrivateKey& key,
                            const CsrOptions& options = {});
  static CertificateRequest parse(std::string_view pem);
  static CertificateRequest parse_der(std::string_view der);

  bool empty() const { return !impl_; }
  // Subject, SANs (otherNames with UTF8String values included), isCA, nameConstraints and the
  // usages found in the request (canonical names; empty when the request has none). Validity
  // fields and literal_subject are unset.
  const CertificateTemplate& fields() const;
  // The subject exactly as the request has it (ASN.1 order, multi-valued RDNs kept).
  const NameSequence& subject_sequence() const;
  // The digest of the request's signature: SHA256/384/512, or Auto for Ed25519 and any other.
  SignatureHash signature_hash() const;
  const PublicKey& public_key() const;
  // Whether the request is signed by the private half of public_key().
  bool verify_signature() const;
  std::string to_pem() const;
  std::string to_der() const;  // what ACME's finalize wants (base64url of this)

 private:
  friend struct detail::Access;
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

}  // namespace capstan::pki
