#include "controllers/certificates/acme/jwk.h"
#include "controllers/certificates/acme/jws.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/key.h"

#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/sha.h>
#include <openssl/x509.h>

namespace capstan::certificates::acme {
namespace {

// RFC 7638 §3.1's example RSA key.
constexpr const char* kRfcN =
    "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMs"
    "tn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5h"
    "ajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";
constexpr const char* kRfcThumbprint = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs";

// The DER SubjectPublicKeyInfo of an RSA key given as base64url n and e, built with OpenSSL.
std::string rsa_spki(const std::string& n_b64, const std::string& e_b64) {
  std::string n = *meta::base64url_decode(n_b64);
  std::string e = *meta::base64url_decode(e_b64);
  BIGNUM* bn_n = BN_bin2bn(reinterpret_cast<const unsigned char*>(n.data()), static_cast<int>(n.size()), nullptr);
  BIGNUM* bn_e = BN_bin2bn(reinterpret_cast<const unsigned char*>(e.data()), static_cast<int>(e.size()), nullptr);
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n);
  OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e);
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr);
  EVP_PKEY* pkey = nullptr;
  EXPECT_EQ(EVP_PKEY_fromdata_init(ctx), 1);
  EXPECT_EQ(EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params), 1);
  unsigned char* der = nullptr;
  int len = i2d_PUBKEY(pkey, &der);
  std::string out(reinterpret_cast<const char*>(der), static_cast<std::size_t>(len));
  OPENSSL_free(der);
  EVP_PKEY_free(pkey);
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(bld);
  BN_free(bn_n);
  BN_free(bn_e);
  return out;
}

EVP_PKEY* load_public(const pki::PublicKey& key) {
  const auto* p = reinterpret_cast<const unsigned char*>(key.der().data());
  return d2i_PUBKEY(nullptr, &p, static_cast<long>(key.der().size()));
}

json::Object parse_object(std::string_view text) { return json::parse(text).as_object(); }

TEST(JwsJwkTest, Rfc7638ThumbprintOfTheRsaExampleKey) {
  Jwk jwk = Jwk::from_public_key_der(rsa_spki(kRfcN, "AQAB"));
  EXPECT_EQ(jwk.kty, "RSA");
  EXPECT_EQ(jwk.n, kRfcN);
  EXPECT_EQ(jwk.e, "AQAB");
  EXPECT_EQ(jwk.canonical_json(), std::string(R"({"e":"AQAB","kty":"RSA","n":")") + kRfcN + "\"}");
  EXPECT_EQ(jwk.thumbprint(), kRfcThumbprint);
}

TEST(JwsJwkTest, ThumbprintFromJsonIgnoresOptionalMembers) {
  json::Object o;
  o["kid"] = "2011-04-29";
  o["n"] = kRfcN;
  o["alg"] = "RS256";
  o["kty"] = "RSA";
  o["e"] = "AQAB";
  EXPECT_EQ(Jwk::from_json(o).thumbprint(), kRfcThumbprint);
}

TEST(JwsJwkTest, KeyAuthorizationIsTokenDotThumbprint) {
  Jwk jwk = Jwk::from_public_key_der(rsa_spki(kRfcN, "AQAB"));
  EXPECT_EQ(key_authorization("evaGxfADs6pSRb2LAv9IZf17Dt3juxGJ-PCt92wr-oA", jwk),
            std::string("evaGxfADs6pSRb2LAv9IZf17Dt3juxGJ-PCt92wr-oA.") + kRfcThumbprint);
}

TEST(JwsJwkTest, EcCoordinatesHaveTheCurveWidth) {
  for (int i = 0; i < 16; ++i) {
    auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
    Jwk jwk = Jwk::from_public_key(key.public_key());
    EXPECT_EQ(jwk.kty, "EC");
    EXPECT_EQ(jwk.crv, "P-256");
    EXPECT_EQ(meta::base64url_decode(jwk.x)->size(), 32u);
    EXPECT_EQ(meta::base64url_decode(jwk.y)->size(), 32u);
    EXPECT_EQ(Jwk::from_json(jwk.to_json()), jwk);
    // RFC 7638: members in lexicographic order.
    EXPECT_EQ(jwk.canonical_json().rfind(R"({"crv":"P-256","kty":"EC","x":")", 0), 0u);
  }
  auto p521 = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 521);
  Jwk j521 = Jwk::from_public_key(p521.public_key());
  EXPECT_EQ(j521.crv, "P-521");
  EXPECT_EQ(meta::base64url_decode(j521.x)->size(), 66u);
}

TEST(JwsJwkTest, Ed25519IsAnOkpKey) {
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::Ed25519);
  Jwk jwk = Jwk::from_public_key(key.public_key());
  EXPECT_EQ(jwk.kty, "OKP");
  EXPECT_EQ(jwk.crv, "Ed25519");
  EXPECT_EQ(meta::base64url_decode(jwk.x)->size(), 32u);
  EXPECT_EQ(jwk.canonical_json().rfind(R"({"crv":"Ed25519","kty":"OKP","x":")", 0), 0u);
}

TEST(JwsJwkTest, FromJsonRejectsIncompleteKeys) {
  json::Object o;
  o["kty"] = "EC";
  o["crv"] = "P-256";
  EXPECT_THROW(Jwk::from_json(o), std::invalid_argument);
  json::Object oct;
  oct["kty"] = "oct";
  EXPECT_THROW(Jwk::from_json(oct), std::invalid_argument);
}

TEST(JwsTest, Es256HeaderWithKidAndRawSignatureVerifiesWithOpenSsl) {
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
  Signer signer = Signer::from_private_key(key);
  EXPECT_EQ(signer.algorithm(), "ES256");
  std::string text = sign_flattened(signer, {"nonce-1", "https://acme.test/new-order", "https://acme.test/acct/1"},
                                    R"({"identifiers":[]})");

  json::Object outer = parse_object(text);
  EXPECT_EQ(outer.size(), 3u);
  DecodedJws jws = decode_flattened(text);
  EXPECT_EQ(json::get_string(jws.header, {"alg"}), "ES256");
  EXPECT_EQ(json::get_string(jws.header, {"nonce"}), "nonce-1");
  EXPECT_EQ(json::get_string(jws.header, {"url"}), "https://acme.test/new-order");
  EXPECT_EQ(json::get_string(jws.header, {"kid"}), "https://acme.test/acct/1");
  EXPECT_EQ(json::find(jws.header, {"jwk"}), nullptr);
  EXPECT_EQ(jws.payload, R"({"identifiers":[]})");
  ASSERT_EQ(jws.signature.size(), 64u);  // r || s, not DER

  // Independently of the library: rebuild the ECDSA_SIG from r || s and check the digest.
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(jws.signing_input.data()), jws.signing_input.size(), digest);
  ECDSA_SIG* sig = ECDSA_SIG_new();
  const auto* raw = reinterpret_cast<const unsigned char*>(jws.signature.data());
  ECDSA_SIG_set0(sig, BN_bin2bn(raw, 32, nullptr), BN_bin2bn(raw + 32, 32, nullptr));
  unsigned char* der = nullptr;
  int der_len = i2d_ECDSA_SIG(sig, &der);
  EVP_PKEY* pub = load_public(key.public_key());
  EVP_PKEY_CTX* vctx = EVP_PKEY_CTX_new(pub, nullptr);
  ASSERT_EQ(EVP_PKEY_verify_init(vctx), 1);
  EXPECT_EQ(EVP_PKEY_verify(vctx, der, static_cast<std::size_t>(der_len), digest, sizeof digest), 1);
  EVP_PKEY_CTX_free(vctx);
  EVP_PKEY_free(pub);
  OPENSSL_free(der);
  ECDSA_SIG_free(sig);

  EXPECT_TRUE(verify_signature(jws, key.public_key()));
}

TEST(JwsTest, Rs256VerifiesWithOpenSsl) {
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::RSA, 2048);
  Signer signer = Signer::from_private_key(key);
  EXPECT_EQ(signer.algorithm(), "RS256");
  DecodedJws jws = decode_flattened(sign_flattened(signer, {"n", "https://acme.test/x", "kid"}, "{}"));
  EXPECT_EQ(jws.signature.size(), 256u);
  EVP_PKEY* pub = load_public(key.public_key());
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  ASSERT_EQ(EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, pub), 1);
  EXPECT_EQ(EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char*>(jws.signature.data()), jws.signature.size(),
                             reinterpret_cast<const unsigned char*>(jws.signing_input.data()), jws.signing_input.size()),
            1);
  EVP_MD_CTX_free(ctx);
  EVP_PKEY_free(pub);
}

TEST(JwsTest, EveryAlgorithmRoundTrips) {
  struct Case {
    pki::KeyAlgorithm algorithm;
    int size;
    std::string alg;
    std::size_t sig_size;
  };
  for (const auto& c : {Case{pki::KeyAlgorithm::ECDSA, 384, "ES384", 96}, Case{pki::KeyAlgorithm::ECDSA, 521, "ES512", 132},
                        Case{pki::KeyAlgorithm::Ed25519, 0, "EdDSA", 64}}) {
    auto key = pki::PrivateKey::generate(c.algorithm, c.size);
    Signer signer = Signer::from_private_key(key);
    EXPECT_EQ(signer.algorithm(), c.alg);
    DecodedJws jws = decode_flattened(sign_flattened(signer, {"n", "https://acme.test/x", "k"}, R"({"a":1})"));
    EXPECT_EQ(jws.signature.size(), c.sig_size) << c.alg;
    EXPECT_TRUE(verify_signature(jws, key.public_key())) << c.alg;
    auto other = pki::PrivateKey::generate(c.algorithm, c.size);
    EXPECT_FALSE(verify_signature(jws, other.public_key())) << c.alg;
  }
}

TEST(JwsTest, NewAccountEmbedsTheJwk) {
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
  Signer signer = Signer::from_private_key(key);
  DecodedJws jws = decode_flattened(sign_flattened(signer, {"n", "https://acme.test/new-acct", ""}, "{}"));
  EXPECT_EQ(json::find(jws.header, {"kid"}), nullptr);
  const json::Object* jwk = json::get_object(jws.header, {"jwk"});
  ASSERT_NE(jwk, nullptr);
  EXPECT_EQ(Jwk::from_json(*jwk), signer.jwk());
  EXPECT_EQ(Jwk::from_json(*jwk).thumbprint(), signer.thumbprint());
}

TEST(JwsTest, PostAsGetHasAnEmptyPayload) {
  Signer signer = Signer::from_private_key(pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA));
  std::string text = sign_flattened(signer, {"n", "https://acme.test/order/1", "k"}, "");
  EXPECT_EQ(json::get_string(parse_object(text), {"payload"}), "");
  EXPECT_TRUE(verify_signature(decode_flattened(text), signer.public_key()));
}

TEST(JwsTest, TamperingBreaksTheSignature) {
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
  Signer signer = Signer::from_private_key(key);
  DecodedJws jws = decode_flattened(sign_flattened(signer, {"n", "https://acme.test/x", "k"}, R"({"a":1})"));
  jws.signing_input += "x";
  EXPECT_FALSE(verify_signature(jws, key.public_key()));
}

TEST(JwsTest, ExternalAccountBindingIsAnHmacOverTheAccountJwk) {
  Signer signer = Signer::from_private_key(pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA));
  std::string mac_key = "0123456789abcdef0123456789abcdef";
  json::Object eab = external_account_binding("kid-1", mac_key, "HS256", signer.jwk(), "https://acme.test/new-acct");
  DecodedJws jws = decode_flattened(json::serialize(json::Value(eab)));
  EXPECT_EQ(json::get_string(jws.header, {"alg"}), "HS256");
  EXPECT_EQ(json::get_string(jws.header, {"kid"}), "kid-1");
  EXPECT_EQ(json::get_string(jws.header, {"url"}), "https://acme.test/new-acct");
  EXPECT_EQ(json::find(jws.header, {"nonce"}), nullptr);
  EXPECT_EQ(Jwk::from_json(json::parse(jws.payload).as_object()), signer.jwk());
  EXPECT_TRUE(verify_hmac(jws, mac_key));
  EXPECT_FALSE(verify_hmac(jws, "another key"));
}

TEST(JwsTest, DecodeRejectsNonJws) {
  EXPECT_THROW(decode_flattened("not json"), std::invalid_argument);
  EXPECT_THROW(decode_flattened(R"({"protected":"e30"})"), std::invalid_argument);
  EXPECT_THROW(decode_flattened(R"({"protected":"!!","payload":"","signature":"AA"})"), std::invalid_argument);
}

TEST(JwsTest, EmptySignerThrows) {
  Signer s;
  EXPECT_TRUE(s.empty());
  EXPECT_THROW(s.algorithm(), std::runtime_error);
  EXPECT_THROW(Signer::from_private_key(pki::PrivateKey()), std::runtime_error);
}

}  // namespace
}  // namespace capstan::certificates::acme
