#include "controllers/certificates/acme/jws.h"

#include "controllers/certificates/acme/openssl_detail.h"
#include "runtime/meta/base64.h"

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>

#include <stdexcept>

namespace capstan::certificates::acme {
namespace {

using detail::EcdsaSigPtr;
using detail::MdCtxPtr;
using detail::PkeyPtr;

struct AlgInfo {
  const EVP_MD* md = nullptr;  // null for EdDSA
  int ec_width = 0;            // bytes per ECDSA coordinate; 0 for non-EC
};

AlgInfo alg_info(std::string_view alg) {
  if (alg == "RS256") return {EVP_sha256(), 0};
  if (alg == "ES256") return {EVP_sha256(), 32};
  if (alg == "ES384") return {EVP_sha384(), 48};
  if (alg == "ES512") return {EVP_sha512(), 66};
  if (alg == "EdDSA") return {nullptr, 0};
  throw std::invalid_argument("JWS: unsupported alg \"" + std::string(alg) + "\"");
}

const EVP_MD* hmac_md(std::string_view alg) {
  if (alg == "HS256") return EVP_sha256();
  if (alg == "HS384") return EVP_sha384();
  if (alg == "HS512") return EVP_sha512();
  throw std::invalid_argument("JWS: unsupported MAC alg \"" + std::string(alg) + "\"");
}

std::string hmac(std::string_view alg, std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!HMAC(hmac_md(alg), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
            data.size(), out, &len))
    detail::fail_openssl("computing HMAC");
  return std::string(reinterpret_cast<const char*>(out), len);
}

int no_password(char*, int, int, void*) { return -1; }

PkeyPtr load_private_key(const pki::PrivateKey& key) {
  std::string pem = key.to_pem(pki::KeyEncoding::PKCS8);
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  if (!bio) {
    OPENSSL_cleanse(pem.data(), pem.size());
    detail::fail_openssl("loading account key");
  }
  PkeyPtr pkey(PEM_read_bio_PrivateKey(bio, nullptr, no_password, nullptr));
  BIO_free(bio);
  OPENSSL_cleanse(pem.data(), pem.size());
  if (!pkey) detail::fail_openssl("loading account key");
  return pkey;
}

std::string b64(std::string_view raw) { return meta::base64url_encode(raw); }

}  // namespace

struct Signer::Impl {
  PkeyPtr pkey;
  std::string alg;
  AlgInfo info;
  Jwk jwk;
  std::string thumbprint;
  pki::PublicKey public_key;
};

Signer Signer::from_private_key(const pki::PrivateKey& key) {
  if (key.empty()) throw std::runtime_error("JWS signer: empty private key");
  ERR_clear_error();
  auto impl = std::make_shared<Impl>();
  switch (key.algorithm()) {
    case pki::KeyAlgorithm::RSA:
      impl->alg = "RS256";
      break;
    case pki::KeyAlgorithm::ECDSA:
      switch (key.size()) {
        case 256: impl->alg = "ES256"; break;
        case 384: impl->alg = "ES384"; break;
        case 521: impl->alg = "ES512"; break;
        default: throw std::runtime_error("JWS signer: unsupported ECDSA key size " + std::to_string(key.size()));
      }
      break;
    case pki::KeyAlgorithm::Ed25519:
      impl->alg = "EdDSA";
      break;
  }
  impl->info = alg_info(impl->alg);
  impl->pkey = load_private_key(key);
  impl->public_key = key.public_key();
  impl->jwk = Jwk::from_public_key(impl->public_key);
  impl->thumbprint = impl->jwk.thumbprint();
  Signer s;
  s.impl_ = std::move(impl);
  return s;
}

const Signer::Impl& Signer::get() const {
  if (!impl_) throw std::runtime_error("JWS signer: empty");
  return *impl_;
}

const std::string& Signer::algorithm() const { return get().alg; }
const Jwk& Signer::jwk() const { return get().jwk; }
const std::string& Signer::thumbprint() const { return get().thumbprint; }
const pki::PublicKey& Signer::public_key() const { return get().public_key; }

std::string Signer::sign(std::string_view input) const {
  const Impl& impl = get();
  ERR_clear_error();
  MdCtxPtr ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, impl.info.md, nullptr, impl.pkey.get()) != 1)
    detail::fail_openssl("JWS " + impl.alg + ": initialising signature");
  size_t len = 0;
  const auto* data = reinterpret_cast<const unsigned char*>(input.data());
  if (EVP_DigestSign(ctx.get(), nullptr, &len, data, input.size()) != 1)
    detail::fail_openssl("JWS " + impl.alg + ": sizing signature");
  std::string sig(len, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(sig.data()), &len, data, input.size()) != 1)
    detail::fail_openssl("JWS " + impl.alg + ": signing");
  sig.resize(len);
  if (impl.info.ec_width == 0) return sig;
  // ECDSA: OpenSSL produces a DER ECDSA-Sig-Value; JWS wants the fixed-width r || s.
  const auto* p = reinterpret_cast<const unsigned char*>(sig.data());
  EcdsaSigPtr es(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(sig.size())));
  if (!es) detail::fail_openssl("JWS " + impl.alg + ": decoding ECDSA signature");
  const BIGNUM* r = nullptr;
  const BIGNUM* s = nullptr;
  ECDSA_SIG_get0(es.get(), &r, &s);
  return detail::bn_bytes(r, impl.info.ec_width) + detail::bn_bytes(s, impl.info.ec_width);
}

std::string sign_flattened(const Signer& signer, const ProtectedHeader& header, std::string_view payload) {
  json::Object h;
  h["alg"] = signer.algorithm();
  if (header.kid.empty()) {
    h["jwk"] = signer.jwk().to_json();
  } else {
    h["kid"] = header.kid;
  }
  if (!header.nonce.empty()) h["nonce"] = header.nonce;
  h["url"] = header.url;
  std::string protected_b64 = b64(json::serialize(json::Value(std::move(h))));
  std::string payload_b64 = b64(payload);
  std::string signature = signer.sign(protected_b64 + "." + payload_b64);
  json::Object out;
  out["protected"] = protected_b64;
  out["payload"] = payload_b64;
  out["signature"] = b64(signature);
  return json::serialize(json::Value(std::move(out)));
}

json::Object external_account_binding(std::string_view key_id, std::string_view mac_key, std::string_view algorithm,
                                      const Jwk& account_jwk, std::string_view new_account_url) {
  json::Object h;
  h["alg"] = algorithm;
  h["kid"] = key_id;
  h["url"] = new_account_url;
  std::string protected_b64 = b64(json::serialize(json::Value(std::move(h))));
  std::string payload_b64 = b64(json::serialize(json::Value(account_jwk.to_json())));
  std::string mac = hmac(algorithm, mac_key, protected_b64 + "." + payload_b64);
  json::Object out;
  out["protected"] = protected_b64;
  out["payload"] = payload_b64;
  out["signature"] = b64(mac);
  return out;
}

DecodedJws decode_flattened(std::string_view text) {
  auto parsed = json::try_parse(text);
  if (!parsed || !parsed->is_object()) throw std::invalid_argument("JWS: not a JSON object");
  const auto& o = parsed->as_object();
  std::string_view prot = json::get_string(o, {"protected"});
  std::string_view payload = json::get_string(o, {"payload"});
  std::string_view sig = json::get_string(o, {"signature"});
  if (prot.empty() || sig.empty() || !json::find(o, {"payload"}))
    throw std::invalid_argument("JWS: missing protected, payload or signature");
  auto header_text = meta::base64url_decode(prot);
  auto payload_text = meta::base64url_decode(payload);
  auto sig_bytes = meta::base64url_decode(sig);
  if (!header_text || !payload_text || !sig_bytes) throw std::invalid_argument("JWS: invalid base64url");
  auto header = json::try_parse(*header_text);
  if (!header || !header->is_object()) throw std::invalid_argument("JWS: protected header is not a JSON object");
  DecodedJws out;
  out.header = header->as_object();
  out.signing_input = std::string(prot) + "." + std::string(payload);
  out.payload = std::move(*payload_text);
  out.signature = std::move(*sig_bytes);
  return out;
}

bool verify_signature(const DecodedJws& jws, const pki::PublicKey& key) {
  AlgInfo info;
  try {
    info = alg_info(json::get_string(jws.header, {"alg"}));
  } catch (const std::invalid_argument&) {
    return false;
  }
  ERR_clear_error();
  auto pkey = detail::load_public_key_der(key.der());
  std::string sig = jws.signature;
  if (info.ec_width > 0) {
    // Back from r || s to DER.
    if (sig.size() != static_cast<std::size_t>(2 * info.ec_width)) return false;
    EcdsaSigPtr es(ECDSA_SIG_new());
    BIGNUM* r = BN_bin2bn(reinterpret_cast<const unsigned char*>(sig.data()), info.ec_width, nullptr);
    BIGNUM* s = BN_bin2bn(reinterpret_cast<const unsigned char*>(sig.data()) + info.ec_width, info.ec_width, nullptr);
    if (!es || !r || !s || ECDSA_SIG_set0(es.get(), r, s) != 1) {
      BN_free(r);
      BN_free(s);
      return false;
    }
    unsigned char* der = nullptr;
    int len = i2d_ECDSA_SIG(es.get(), &der);
    if (len <= 0) return false;
    sig.assign(reinterpret_cast<const char*>(der), static_cast<std::size_t>(len));
    OPENSSL_free(der);
  }
  MdCtxPtr ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, info.md, nullptr, pkey.get()) != 1) {
    ERR_clear_error();
    return false;
  }
  int rc = EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(sig.data()), sig.size(),
                            reinterpret_cast<const unsigned char*>(jws.signing_input.data()), jws.signing_input.size());
  ERR_clear_error();
  return rc == 1;
}

bool verify_hmac(const DecodedJws& jws, std::string_view mac_key) {
  std::string expected;
  try {
    expected = hmac(json::get_string(jws.header, {"alg"}), mac_key, jws.signing_input);
  } catch (const std::invalid_argument&) {
    return false;
  }
  return expected.size() == jws.signature.size() &&
         CRYPTO_memcmp(expected.data(), jws.signature.data(), expected.size()) == 0;
}

}  // namespace capstan::certificates::acme
