// Private and public keys (RSA, ECDSA P-256/P-384/P-521, Ed25519).
//
// Both types are immutable values with shared ownership of the underlying OpenSSL object:
// copies are cheap, and any number of threads may use the same or different objects at once.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace capstan::pki {

namespace detail {
struct Access;
}

class Certificate;

enum class KeyAlgorithm { RSA, ECDSA, Ed25519 };

// How a private key is written. PKCS1 is cert-manager's name for the "traditional" encodings:
// "RSA PRIVATE KEY" (PKCS#1) for RSA and "EC PRIVATE KEY" (SEC 1) for ECDSA. Ed25519 has no
// traditional encoding and is always written as PKCS#8, as cert-manager does.
enum class KeyEncoding { PKCS1, PKCS8 };

std::string_view algorithm_name(KeyAlgorithm a);  // "RSA", "ECDSA", "Ed25519"

class PublicKey {
 public:
  PublicKey() = default;  // empty; every accessor except empty() throws on it

  // "PUBLIC KEY" PEM / DER SubjectPublicKeyInfo.
  static PublicKey from_pem(std::string_view pem);
  static PublicKey from_der(std::string_view der);

  bool empty() const { return !impl_; }
  KeyAlgorithm algorithm() const;
  // RSA: modulus bits; ECDSA: 256/384/521; Ed25519: 256.
  int size() const;
  // DER SubjectPublicKeyInfo; equality of public keys is equality of this encoding.
  const std::string& der() const;
  std::string to_pem() const;
  bool matches(const Certificate& cert) const;

  bool operator==(const PublicKey& other) const;

 private:
  friend struct detail::Access;
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

class PrivateKey {
 public:
  PrivateKey() = default;  // empty; every accessor except empty() throws on it

  // RSA: size 2048..8192 (0 = 2048). ECDSA: 256, 384 or 521 (0 = 256). Ed25519: size ignored.
  static PrivateKey generate(KeyAlgorithm algorithm, int size = 0);
  // Accepts unencrypted PKCS#1 "RSA PRIVATE KEY", SEC 1 "EC PRIVATE KEY" and PKCS#8
  // "PRIVATE KEY"; other PEM blocks before the key (e.g. a certificate) are skipped.
  // Encrypted keys are rejected (never prompts for a password).
  static PrivateKey from_pem(std::string_view pem);

  bool empty() const { return !impl_; }
  KeyAlgorithm algorithm() const;
  int size() const;  // as PublicKey::size()
  std::string to_pem(KeyEncoding encoding = KeyEncoding::PKCS1) const;
  // PKCS#8 PrivateKeyInfo, DER (unencrypted).
  std::string to_pkcs8_der() const;

  PublicKey public_key() const;
  std::string public_key_der() const;  // DER SubjectPublicKeyInfo
  // Whether this key is the private half of the certificate's (or CSR's) public key.
  bool matches(const Certificate& cert) const;
  bool matches(const PublicKey& key) const;

  // Compares public halves only.
  bool operator==(const PrivateKey& other) const;

 private:
  friend struct detail::Access;
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

}  // namespace capstan::pki
