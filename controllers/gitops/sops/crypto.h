// The primitives age and SOPS are built from, over OpenSSL 3 (internal to this folder): X25519,
// HKDF-SHA256, HMAC-SHA256 and the two AEADs. Keys, nonces and results are byte strings; an
// AEAD open that fails authentication returns nullopt, never partial plaintext.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::gitops::sops::crypto {

// X25519(scalar, point); both 32 bytes. nullopt when the result is all zeros (a low-order point).
std::optional<std::string> x25519(std::string_view scalar, std::string_view point);
// X25519(scalar, basepoint): the public key of a 32-byte secret.
std::string x25519_public(std::string_view scalar);
std::string hkdf_sha256(std::string_view ikm, std::string_view salt, std::string_view info, std::size_t length);
std::string hmac_sha256(std::string_view key, std::string_view data);
// ChaCha20-Poly1305 (RFC 8439): 32-byte key, 12-byte nonce, `sealed` = ciphertext || 16-byte tag.
std::optional<std::string> chacha20poly1305_open(std::string_view key, std::string_view nonce, std::string_view sealed,
                                                 std::string_view aad = {});
// AES-256-GCM with a nonce of any length (SOPS uses 32 bytes) and a separate 16-byte tag.
std::optional<std::string> aes256gcm_open(std::string_view key, std::string_view iv, std::string_view ciphertext,
                                          std::string_view tag, std::string_view aad);
// Constant-time equality of two byte strings of the same length.
bool equal(std::string_view a, std::string_view b);

}  // namespace capstan::gitops::sops::crypto
