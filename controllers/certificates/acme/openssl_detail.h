// Internal to controllers/certificates/acme (only its .cpp files include it): OpenSSL RAII
// handles and error-queue text, so OpenSSL's headers stay out of the public headers.
#pragma once

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace capstan::certificates::acme::detail {

template <class T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using BnPtr = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, Deleter<EVP_MD_CTX, EVP_MD_CTX_free>>;
using EcdsaSigPtr = std::unique_ptr<ECDSA_SIG, Deleter<ECDSA_SIG, ECDSA_SIG_free>>;

// Drains this thread's OpenSSL error queue into "reason; reason" (empty when it is empty).
std::string drain_openssl_errors();

// Throws std::runtime_error("<what>: <queue>").
[[noreturn]] void fail_openssl(std::string_view what);

// The public half of a DER SubjectPublicKeyInfo as an EVP_PKEY.
PkeyPtr load_public_key_der(std::string_view der);

// Big-endian unsigned bytes of a BIGNUM, left-padded with zeros to `width` (0 = minimal).
std::string bn_bytes(const BIGNUM* bn, int width = 0);

// SHA-256 of `data` (32 raw bytes).
std::string sha256(std::string_view data);

}  // namespace capstan::certificates::acme::detail
