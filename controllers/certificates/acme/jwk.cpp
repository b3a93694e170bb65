#include "controllers/certificates/acme/jwk.h"

#include "controllers/certificates/acme/openssl_detail.h"
#include "runtime/meta/base64.h"

#include <openssl/core_names.h>

#include <stdexcept>

namespace capstan::certificates::acme {
namespace {

using detail::BnPtr;

std::string b64(std::string_view raw) { return meta::base64url_encode(raw); }

BnPtr get_bn(const EVP_PKEY* key, const char* param) {
  BIGNUM* bn = nullptr;
  if (EVP_PKEY_get_bn_param(key, param, &bn) != 1) detail::fail_openssl(std::string("reading key parameter ") + param);
  return BnPtr(bn);
}

}  // namespace

Jwk Jwk::from_public_key(const pki::PublicKey& key) { return from_public_key_der(key.der()); }

Jwk Jwk::from_public_key_der(std::string_view spki_der) {
  ERR_clear_error();
  auto pkey = detail::load_public_key_der(spki_der);
  Jwk jwk;
  switch (EVP_PKEY_get_base_id(pkey.get())) {
    case EVP_PKEY_RSA: {
      jwk.kty = "RSA";
      jwk.n = b64(detail::bn_bytes(get_bn(pkey.get(), OSSL_PKEY_PARAM_RSA_N).get()));
      jwk.e = b64(detail::bn_bytes(get_bn(pkey.get(), OSSL_PKEY_PARAM_RSA_E).get()));
      return jwk;
    }
    case EVP_PKEY_EC: {
      char group[64] = {0};
      size_t len = 0;
      if (EVP_PKEY_get_group_name(pkey.get(), group, sizeof group, &len) != 1) detail::fail_openssl("reading EC curve");
      std::string_view g(group, len);
      int width = 0;
      if (g == "prime256v1" || g == "P-256") {
        jwk.crv = "P-256";
        width = 32;
      } else if (g == "secp384r1" || g == "P-384") {
        jwk.crv = "P-384";
        width = 48;
      } else if (g == "secp521r1" || g == "P-521") {
        jwk.crv = "P-521";
        width = 66;
      } else {
        throw std::runtime_error("JWK: unsupported EC curve " + std::string(g));
      }
      jwk.kty = "EC";
      jwk.x = b64(detail::bn_bytes(get_bn(pkey.get(), OSSL_PKEY_PARAM_EC_PUB_X).get(), width));
      jwk.y = b64(detail::bn_bytes(get_bn(pkey.get(), OSSL_PKEY_PARAM_EC_PUB_Y).get(), width));
      return jwk;
    }
    case EVP_PKEY_ED25519: {
      unsigned char raw[32];
      size_t len = sizeof raw;
      if (EVP_PKEY_get_raw_public_key(pkey.get(), raw, &len) != 1) detail::fail_openssl("reading Ed25519 public key");
      jwk.kty = "OKP";
      jwk.crv = "Ed25519";
      jwk.x = b64(std::string_view(reinterpret_cast<const char*>(raw), len));
      return jwk;
    }
    default:
      throw std::runtime_error("JWK: unsupported key type (want RSA, ECDSA or Ed25519)");
  }
}

Jwk Jwk::from_json(const json::Object& o) {
  auto member = [&](std::string_view name) {
    std::string_view v = json::get_string(o, {name});
    if (v.empty()) throw std::invalid_argument("JWK: missing member \"" + std::string(name) + "\"");
    return std::string(v);
  };
  Jwk jwk;
  jwk.kty = member("kty");
  if (jwk.kty == "RSA") {
    jwk.n = member("n");
    jwk.e = member("e");
  } else if (jwk.kty == "EC") {
    jwk.crv = member("crv");
    jwk.x = member("x");
    jwk.y = member("y");
  } else if (jwk.kty == "OKP") {
    jwk.crv = member("crv");
    jwk.x = member("x");
  } else {
    throw std::invalid_argument("JWK: unsupported kty \"" + jwk.kty + "\"");
  }
  return jwk;
}

json::Object Jwk::to_json() const {
  // Inserted in lexicographic order, so serialising this object is the RFC 7638 canonical form.
  json::Object o;
  if (kty == "RSA") {
    o["e"] = e;
    o["kty"] = kty;
    o["n"] = n;
  } else if (kty == "EC") {
    o["crv"] = crv;
    o["kty"] = kty;
    o["x"] = x;
    o["y"] = y;
  } else if (kty == "OKP") {
    o["crv"] = crv;
    o["kty"] = kty;
    o["x"] = x;
  } else {
    throw std::invalid_argument("JWK: unsupported kty \"" + kty + "\"");
  }
  return o;
}

std::string Jwk::canonical_json() const { return json::serialize(json::Value(to_json())); }

std::string Jwk::thumbprint() const { return b64(detail::sha256(canonical_json())); }

std::string key_authorization(std::string_view token, const Jwk& account_jwk) {
  std::string out(token);
  out += '.';
  out += account_jwk.thumbprint();
  return out;
}

std::string dns01_txt_value(std::string_view key_authorization) { return b64(detail::sha256(key_authorization)); }

}  // namespace capstan::certificates::acme
