// JSON Web Signatures (RFC 7515) as ACME uses them (RFC 8555 §6.2): a protected header with
// alg, nonce, url and either jwk (newAccount, revokeCert by certificate key) or kid (the
// account URL), in the flattened JSON serialization, sent as application/jose+json.
//
//   auto signer = acme::Signer::from_private_key(account_key);   // ES256 for a P-256 key
//   std::string body = acme::sign_flattened(signer, {nonce, url, kid}, R"({"status":"valid"})");
#pragma once

#include "controllers/certificates/acme/jwk.h"
#include "runtime/json/json.h"
#include "runtime/pki/key.h"

#include <memory>
#include <string>
#include <string_view>

namespace capstan::certificates::acme {

// Signs JWS signing inputs with a private key: RS256 (RSA), ES256/ES384/ES512 (ECDSA P-256,
// P-384, P-521; the signature is the raw r||s pair, RFC 7518 §3.4) or EdDSA (Ed25519, RFC 8037).
// Immutable and shared: copies are cheap and any number of threads may sign at once. The
// private key never leaves it (it is neither logged nor serialised).
class Signer {
 public:
  Signer() = default;  // empty; every accessor except empty() throws on it

  // Throws std::runtime_error for an empty key or an unsupported algorithm.
  static Signer from_private_key(const pki::PrivateKey& key);

  bool empty() const { return !impl_; }
  const std::string& algorithm() const;  // "ES256", "RS256", ...
  const Jwk& jwk() const;
  const std::string& thumbprint() const;  // jwk().thumbprint(), computed once
  const pki::PublicKey& public_key() const;
  // The JWS signature of `signing_input` (ASCII(BASE64URL(header) || '.' || BASE64URL(payload))).
  std::string sign(std::string_view signing_input) const;

 private:
  struct Impl;
  const Impl& get() const;
  std::shared_ptr<const Impl> impl_;
};

// The variable members of an ACME protected header; alg comes from the signer.
struct ProtectedHeader {
  std::string nonce;  // omitted when empty
  std::string url;
  std::string kid;    // the account URL; empty = embed the signer's jwk instead
};

// The flattened JWS {"protected", "payload", "signature"} as JSON text. `payload` is the
// payload's JSON text; an empty payload is ACME's POST-as-GET (RFC 8555 §6.3).
std::string sign_flattened(const Signer& signer, const ProtectedHeader& header, std::string_view payload);

// External account binding (RFC 8555 §7.3.4): a JWS over the account's JWK, MAC'd with the
// CA-provided key. `mac_key` is the raw key (already base64url-decoded); `algorithm` is
// "HS256", "HS384" or "HS512".
json::Object external_account_binding(std::string_view key_id, std::string_view mac_key, std::string_view algorithm,
                                      const Jwk& account_jwk, std::string_view new_account_url);

// A parsed flattened JWS (for tests and fake servers).
struct DecodedJws {
  json::Object header;
  std::string signing_input;  // protected "." payload (base64url, as sent)
  std::string payload;        // decoded payload text ("" for POST-as-GET)
  std::string signature;      // decoded signature bytes
};
// Throws std::invalid_argument when `text` is not a flattened JWS.
DecodedJws decode_flattened(std::string_view text);
// Whether the signature verifies with `key` under the header's alg (RS256, ES256/384/512,
// EdDSA; false for anything else).
bool verify_signature(const DecodedJws& jws, const pki::PublicKey& key);
// Whether an HMAC JWS (the EAB object) verifies with `mac_key`.
bool verify_hmac(const DecodedJws& jws, std::string_view mac_key);

}  // namespace capstan::certificates::acme
