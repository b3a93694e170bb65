// Setting a certificate's or request's SubjectPublicKeyInfo without OpenSSL 3.0's provider
// round trip. X509_set_pubkey on a provider-native key encodes it through an OSSL_ENCODER and
// decodes the result again through an OSSL_DECODER, each context built by walking every
// provider's algorithms under global locks: a tenth of the manager's CPU per certificate. For
// ECDSA and RSA keys the same field is written by the key type's own encoder instead (a legacy
// EVP_PKEY holding the same key): the DER is identical, checked by the tests against OpenSSL's
// own. Ed25519 keeps the provider path.
#define OPENSSL_SUPPRESS_DEPRECATED  // EVP_PKEY_get1_EC_KEY / _RSA and their assign: the legacy key types
#include "runtime/pki/detail.h"

#include <openssl/ec.h>
#include <openssl/rsa.h>

namespace capstan::pki::detail {

namespace {

// A legacy copy of `key` (of legacy type `K`, read by `get1`, freed by `free_key`), or nullptr.
template <typename K>
PkeyPtr legacy_copy(EVP_PKEY* key, int type, K* (*get1)(EVP_PKEY*), void (*free_key)(K*)) {
  PkeyPtr out(EVP_PKEY_new());
  K* legacy = out ? get1(key) : nullptr;
  if (!legacy) return nullptr;
  if (EVP_PKEY_assign(out.get(), type, legacy) != 1) {
    free_key(legacy);
    return nullptr;
  }
  return out;
}

// The same key as a legacy EVP_PKEY, or nullptr for a type without one here.
PkeyPtr legacy_copy(EVP_PKEY* key) {
  switch (EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_EC: return legacy_copy<EC_KEY>(key, EVP_PKEY_EC, EVP_PKEY_get1_EC_KEY, EC_KEY_free);
    case EVP_PKEY_RSA: return legacy_copy<RSA>(key, EVP_PKEY_RSA, EVP_PKEY_get1_RSA, RSA_free);
    default: return nullptr;
  }
}

template <typename Set>
void set_through(EVP_PKEY* key, Set&& set, std::string_view what) {
  PkeyPtr legacy = legacy_copy(key);
  ERR_clear_error();  // a key without a legacy form takes the provider path below
  if (set(legacy ? legacy.get() : key) != 1) fail(what, "setting public key");
}

}  // namespace

void set_public_key(X509* x, EVP_PKEY* key, std::string_view what) {
  set_through(key, [&](EVP_PKEY* k) { return X509_set_pubkey(x, k); }, what);
}

void set_public_key(X509_REQ* req, EVP_PKEY* key, std::string_view what) {
  set_through(key, [&](EVP_PKEY* k) { return X509_REQ_set_pubkey(req, k); }, what);
}

}  // namespace capstan::pki::detail
