// Internal to runtime/pki: the DER forms of ECDSA keys on the three NIST curves, written here
// instead of through OpenSSL 3.0's OSSL_ENCODER. Building an encoder context walks every
// provider's algorithms under global locks; for a P-256 key that costs more than generating it,
// and the certificates controller encodes each new key three times (its SubjectPublicKeyInfo,
// the temporary Secret's PKCS#8, the Secret's SEC 1). The bytes are OpenSSL's own (the tests
// compare them); any other key, or an EC key this code does not recognise, goes to OpenSSL.
#pragma once

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <optional>
#include <string>
#include <string_view>

namespace capstan::pki::detail {

struct EcKeyParts {
  int size = 0;        // 256, 384 or 521
  std::string point;   // uncompressed public point (0x04 || X || Y)
  std::string scalar;  // private scalar padded to the order's length; empty for a public key
  EcKeyParts() = default;
  EcKeyParts(EcKeyParts&&) = default;  // a scalar (32 bytes or more) is never in-place: moving hands over its buffer
  EcKeyParts& operator=(EcKeyParts&&) = delete;
  ~EcKeyParts();  // wipes the scalar
};

// The parts of an ECDSA key of `size` bits (describe_key's), or nullopt for anything else: other
// key types, a compressed public point, a missing private scalar when `with_private`.
std::optional<EcKeyParts> ec_key_parts(EVP_PKEY* key, int size, bool with_private);

std::string ec_spki_der(const EcKeyParts& k);   // SubjectPublicKeyInfo
std::string ec_sec1_der(const EcKeyParts& k);   // ECPrivateKey (RFC 5915) with the curve
std::string ec_pkcs8_der(const EcKeyParts& k);  // PrivateKeyInfo (RFC 5208) around ECPrivateKey

// The inverse for exactly those two forms (the public key present, one of the three curves),
// made through the EC key manager's import rather than OpenSSL 3.0's decoder chain, whose setup
// costs more than an ECDSA signature: a key is read back at every issuance, and from every
// Secret after a restart. nullptr for anything else, which the caller hands to OpenSSL.
EVP_PKEY* ec_key_from_der(std::string_view der);

// The DER of `pem` when it is one PEM block labelled "EC PRIVATE KEY" or "PRIVATE KEY" (nothing
// before it but whitespace, no headers), else nullopt. The caller wipes what it gets.
std::optional<std::string> ec_pem_body(std::string_view pem);

// Writes the SubjectPublicKeyInfo of an ECDSA key into `field` (a request's) from its point,
// without converting the key to a legacy one as X509_REQ_set_pubkey does. False when `key` is
// no such key: the caller then takes OpenSSL's path. OpenSSL keeps no EVP_PKEY for the field
// so written, so X509_REQ_get0_pubkey of that object answers null: only for objects whose key
// the caller holds (a request it creates), never for certificates, whose chain checks need it.
bool set_ec_public_key(X509_PUBKEY* field, EVP_PKEY* key, int size);

// "-----BEGIN <label>-----", base64 in lines of 64, "-----END <label>-----", as PEM_write_bio.
std::string pem_armor(std::string_view label, std::string_view der);

}  // namespace capstan::pki::detail
