#include "controllers/gitops/sops/crypto.h"

#include "controllers/gitops/sops/error.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include <memory>

namespace capstan::gitops::sops::crypto {
namespace {

const unsigned char* bytes(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

[[noreturn]] void fail(std::string_view what) {
  ERR_clear_error();
  throw DecryptError(std::string(what) + " failed in OpenSSL");
}

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct PkeyCtxFree {
  void operator()(EVP_PKEY_CTX* p) const { EVP_PKEY_CTX_free(p); }
};
struct CipherCtxFree {
  void operator()(EVP_CIPHER_CTX* p) const { EVP_CIPHER_CTX_free(p); }
};
struct KdfFree {
  void operator()(EVP_KDF* p) const { EVP_KDF_free(p); }
};
struct KdfCtxFree {
  void operator()(EVP_KDF_CTX* p) const { EVP_KDF_CTX_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

Pkey x25519_key(std::string_view raw, bool secret) {
  if (raw.size() != 32) throw DecryptError("an X25519 key must be 32 bytes");
  EVP_PKEY* key = secret ? EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nullptr, bytes(raw), raw.size())
                         : EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nullptr, bytes(raw), raw.size());
  if (key == nullptr) fail("loading an X25519 key");
  return Pkey(key);
}

// One AEAD open: the cipher, its nonce length, the tag; false on a bad tag.
std::optional<std::string> aead_open(const EVP_CIPHER* cipher, std::string_view key, std::string_view nonce,
                                     std::string_view ciphertext, std::string_view tag, std::string_view aad) {
  std::unique_ptr<EVP_CIPHER_CTX, CipherCtxFree> ctx(EVP_CIPHER_CTX_new());
  if (!ctx || EVP_DecryptInit_ex(ctx.get(), cipher, nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(nonce.size()), nullptr) != 1 ||
      EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, bytes(key), bytes(nonce)) != 1)
    fail("setting up a decryption");
  int len = 0;
  if (!aad.empty() && EVP_DecryptUpdate(ctx.get(), nullptr, &len, bytes(aad), static_cast<int>(aad.size())) != 1)
    fail("authenticating additional data");
  std::string out(ciphertext.size(), '\0');
  if (!ciphertext.empty() &&
      EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &len, bytes(ciphertext),
                        static_cast<int>(ciphertext.size())) != 1)
    fail("decrypting");
  std::string tag_copy(tag);
  if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag_copy.size()), tag_copy.data()) != 1)
    fail("setting an authentication tag");
  int final_len = 0;
  if (EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(out.data()) + len, &final_len) != 1) {
    ERR_clear_error();
    OPENSSL_cleanse(out.data(), out.size());
    return std::nullopt;
  }
  out.resize(static_cast<std::size_t>(len + final_len));
  return out;
}

}  // namespace

std::optional<std::string> x25519(std::string_view scalar, std::string_view point) {
  Pkey secret = x25519_key(scalar, true);
  Pkey peer = x25519_key(point, false);
  std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree> ctx(EVP_PKEY_CTX_new(secret.get(), nullptr));
  std::size_t len = 32;
  std::string out(32, '\0');
  if (!ctx || EVP_PKEY_derive_init(ctx.get()) != 1 || EVP_PKEY_derive_set_peer(ctx.get(), peer.get()) != 1) fail("X25519");
  // OpenSSL refuses an all-zero shared secret (a low-order point): age's "invalid X25519 recipient".
  if (EVP_PKEY_derive(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &len) != 1 || len != 32) {
    ERR_clear_error();
    return std::nullopt;
  }
  if (equal(out, std::string(32, '\0'))) return std::nullopt;
  return out;
}

std::string x25519_public(std::string_view scalar) {
  Pkey secret = x25519_key(scalar, true);
  std::string out(32, '\0');
  std::size_t len = out.size();
  if (EVP_PKEY_get_raw_public_key(secret.get(), reinterpret_cast<unsigned char*>(out.data()), &len) != 1 || len != 32)
    fail("deriving an X25519 public key");
  return out;
}

std::string hkdf_sha256(std::string_view ikm, std::string_view salt, std::string_view info, std::size_t length) {
  std::unique_ptr<EVP_KDF, KdfFree> kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr));
  if (!kdf) fail("HKDF");
  std::unique_ptr<EVP_KDF_CTX, KdfCtxFree> ctx(EVP_KDF_CTX_new(kdf.get()));
  if (!ctx) fail("HKDF");
  char digest[] = "SHA256";
  OSSL_PARAM params[5];
  int n = 0;
  params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0);
  params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<char*>(ikm.data()), ikm.size());
  // An empty salt is HKDF's default (HashLen zeros), which OpenSSL applies when none is given.
  if (!salt.empty())
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<char*>(salt.data()), salt.size());
  params[n++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<char*>(info.data()), info.size());
  params[n] = OSSL_PARAM_construct_end();
  std::string out(length, '\0');
  if (EVP_KDF_derive(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), out.size(), params) != 1) fail("HKDF");
  return out;
}

std::string hmac_sha256(std::string_view key, std::string_view data) {
  std::string out(32, '\0');
  std::size_t len = 0;
  if (EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, key.data(), key.size(), bytes(data), data.size(),
                reinterpret_cast<unsigned char*>(out.data()), out.size(), &len) == nullptr ||
      len != 32)
    fail("HMAC-SHA256");
  return out;
}

std::optional<std::string> chacha20poly1305_open(std::string_view key, std::string_view nonce, std::string_view sealed,
                                                 std::string_view aad) {
  if (key.size() != 32 || nonce.size() != 12) throw DecryptError("ChaCha20-Poly1305 takes a 32-byte key and a 12-byte nonce");
  if (sealed.size() < 16) return std::nullopt;
  return aead_open(EVP_chacha20_poly1305(), key, nonce, sealed.substr(0, sealed.size() - 16),
                   sealed.substr(sealed.size() - 16), aad);
}

std::optional<std::string> aes256gcm_open(std::string_view key, std::string_view iv, std::string_view ciphertext,
                                          std::string_view tag, std::string_view aad) {
  if (key.size() != 32) throw DecryptError("AES-256-GCM takes a 32-byte key");
  if (iv.empty() || iv.size() > 64 || tag.size() != 16) return std::nullopt;
  return aead_open(EVP_aes_256_gcm(), key, iv, ciphertext, tag, aad);
}

bool equal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace capstan::gitops::sops::crypto
