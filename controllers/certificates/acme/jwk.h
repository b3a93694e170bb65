// JSON Web Keys (RFC 7517) for ACME account keys, their thumbprints (RFC 7638) and the
// key authorizations built from them (RFC 8555 §8.1).
//
//   auto jwk = acme::Jwk::from_public_key(key.public_key());
//   std::string ka = acme::key_authorization(challenge.token, jwk);  // "<token>.<thumbprint>"
#pragma once

#include "runtime/json/json.h"
#include "runtime/pki/key.h"

#include <string>
#include <string_view>

namespace capstan::certificates::acme {

// The public members of a JWK. Only the members of the key's type are set; every value is
// base64url without padding, as the JWK carries them.
struct Jwk {
  std::string kty;  // "EC" | "RSA" | "OKP"
  std::string crv;  // EC: "P-256" | "P-384" | "P-521"; OKP: "Ed25519"
  std::string x;    // EC, OKP
  std::string y;    // EC
  std::string n;    // RSA modulus
  std::string e;    // RSA exponent

  // RSA, ECDSA (P-256/P-384/P-521) and Ed25519 keys. EC coordinates are left-padded to the
  // curve's size, RSA integers are minimal (RFC 7518 §6). Throws std::runtime_error otherwise.
  static Jwk from_public_key(const pki::PublicKey& key);
  static Jwk from_public_key_der(std::string_view spki_der);
  // Reads the public members of a JWK object; throws std::invalid_argument when a required
  // member of its kty is missing or the kty is unknown.
  static Jwk from_json(const json::Object& jwk);

  // The JWK as JSON (the "jwk" member of a JWS protected header), required members only.
  json::Object to_json() const;
  // RFC 7638 §3: required members in lexicographic order, no whitespace.
  std::string canonical_json() const;
  // base64url(SHA-256(canonical_json())).
  std::string thumbprint() const;

  bool operator==(const Jwk&) const = default;
};

// RFC 8555 §8.1: token || "." || base64url(JWK thumbprint).
std::string key_authorization(std::string_view token, const Jwk& account_jwk);
// RFC 8555 §8.4: the DNS-01 TXT value, base64url(SHA-256(key authorization)).
std::string dns01_txt_value(std::string_view key_authorization);

}  // namespace capstan::certificates::acme
