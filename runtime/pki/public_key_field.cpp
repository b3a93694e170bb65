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

// The same key as a legacy EVP_PKEY, or nullptr for a type without one here.
PkeyPtr legacy_copy(EVP_PKEY* key) {
  PkeyPtr out(EVP_PKEY_new());
  if (!out) return nullptr;
  switch (EVP_PKEY_get_base_id(key)) {
    case EVP_PKEY_EC: {
      EC_KEY* ec = EVP_PKEY_get1_EC_KEY(key);
      if (!ec) return nullptr;
      if (EVP_PKEY_assign_EC_KEY(out.get(), ec) != 1) {
        EC_KEY_free(ec);
        return nullptr;
      }
      return out;
    }
    case EVP_PKEY_RSA: {
      RSA* rsa = EVP_PKEY_get1_RSA(key);
      if (!rsa) return nullptr;
      if (EVP_PKEY_assign_RSA(out.get(), rsa) != 1) {
        RSA_free(rsa);
        return nullptr;
      }
      return out;
    }
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
