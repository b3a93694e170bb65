#include "runtime/pki/key.h"

#include "runtime/pki/detail.h"
#include "runtime/pki/ec_der.h"

#include <gtest/gtest.h>

#include "runtime/pki/certificate.h"
#include "runtime/pki/error.h"
#include "runtime/pki/sign.h"
#include "runtime/pki/test_util.h"

#include <openssl/pem.h>
#include <openssl/x509.h>

namespace capstan::pki {
namespace {

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(PkiKey, GeneratesEcdsaCurves) {
  for (int size : {256, 384, 521}) {
    PrivateKey k = PrivateKey::generate(KeyAlgorithm::ECDSA, size);
    EXPECT_EQ(k.algorithm(), KeyAlgorithm::ECDSA);
    EXPECT_EQ(k.size(), size);
    EXPECT_EQ(k.public_key().size(), size);
  }
  EXPECT_EQ(PrivateKey::generate(KeyAlgorithm::ECDSA).size(), 256);  // 0 = cert-manager's default
}

TEST(PkiKey, RejectsUnsupportedSizesWithoutGenerating) {
  try {
    PrivateKey::generate(KeyAlgorithm::ECDSA, 300);
    FAIL();
  } catch (const PkiError& e) {
    EXPECT_STREQ(e.what(), "generating ECDSA key: unsupported size 300 (want 256, 384 or 521)");
  }
  EXPECT_THROW(PrivateKey::generate(KeyAlgorithm::RSA, 1024), PkiError);
  EXPECT_THROW(PrivateKey::generate(KeyAlgorithm::RSA, 16384), PkiError);
}

TEST(PkiKey, EcdsaEncodings) {
  PrivateKey k = PrivateKey::generate(KeyAlgorithm::ECDSA, 384);
  std::string sec1 = k.to_pem(KeyEncoding::PKCS1);
  std::string pkcs8 = k.to_pem(KeyEncoding::PKCS8);
  EXPECT_TRUE(sec1.starts_with("-----BEGIN EC PRIVATE KEY-----\n")) << sec1;
  EXPECT_TRUE(pkcs8.starts_with("-----BEGIN PRIVATE KEY-----\n")) << pkcs8;
  for (const auto& pem : {sec1, pkcs8}) {
    PrivateKey back = PrivateKey::from_pem(pem);
    EXPECT_EQ(back.algorithm(), KeyAlgorithm::ECDSA);
    EXPECT_EQ(back.size(), 384);
    EXPECT_EQ(back, k);
    EXPECT_EQ(back.public_key_der(), k.public_key_der());
  }
}

// ECDSA keys are encoded by ec_der.h rather than by OpenSSL's encoders: the bytes must be
// OpenSSL's own, for every curve and for scalars and points of any leading zeros (20 keys per
// curve give a P-256 scalar below 2^248 about once in 13 runs; the padding is also pinned by
// parsing back).
TEST(PkiKey, EcdsaEncodingsAreOpenSslsOwn) {
  auto openssl = [](EVP_PKEY* key, int which) {
    BIO* bio = BIO_new(BIO_s_mem());
    int ok = which == 0   ? PEM_write_bio_PrivateKey_traditional(bio, key, nullptr, nullptr, 0, nullptr, nullptr)
             : which == 1 ? PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr)
                          : i2d_PKCS8PrivateKey_bio(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
    EXPECT_EQ(ok, 1);
    char* data = nullptr;
    long n = BIO_get_mem_data(bio, &data);
    std::string out(data, static_cast<std::size_t>(n));
    BIO_free(bio);
    return out;
  };
  for (int size : {256, 384, 521}) {
    for (int i = 0; i < 20; ++i) {
      PrivateKey k = PrivateKey::generate(KeyAlgorithm::ECDSA, size);
      EVP_PKEY* raw = detail::Access::pkey(k);
      EXPECT_EQ(k.to_pem(KeyEncoding::PKCS1), openssl(raw, 0)) << size;
      EXPECT_EQ(k.to_pem(KeyEncoding::PKCS8), openssl(raw, 1)) << size;
      EXPECT_EQ(k.to_pkcs8_der(), openssl(raw, 2)) << size;
      unsigned char* spki = nullptr;
      int n = i2d_PUBKEY(raw, &spki);
      ASSERT_GT(n, 0);
      EXPECT_EQ(k.public_key_der(), std::string(reinterpret_cast<char*>(spki), static_cast<std::size_t>(n))) << size;
      OPENSSL_free(spki);
    }
  }
}

// Keys read back through ec_der.h's import are the keys OpenSSL's decoder reads: the same
// public key, a private key that signs for it, and the same encodings written again. Input the
// import does not take (no public key, another curve, RSA under "PRIVATE KEY", trailing bytes)
// still parses through OpenSSL or fails with its message.
TEST(PkiKey, EcdsaKeysReadBackAsOpenSslReadsThem) {
  for (int size : {256, 384, 521}) {
    PrivateKey k = PrivateKey::generate(KeyAlgorithm::ECDSA, size);
    for (KeyEncoding e : {KeyEncoding::PKCS1, KeyEncoding::PKCS8}) {
      std::string pem = k.to_pem(e);
      std::string der = *detail::ec_pem_body(pem);
      EVP_PKEY* imported = detail::ec_key_from_der(der);
      ASSERT_NE(imported, nullptr) << size;
      BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
      EVP_PKEY* decoded = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
      BIO_free(bio);
      ASSERT_NE(decoded, nullptr);
      EXPECT_EQ(EVP_PKEY_eq(imported, decoded), 1) << size;
      EVP_PKEY_free(imported);
      EVP_PKEY_free(decoded);
    }
  }
  // Through from_pem (not from the parse cache: wrapped differently, so another text).
  PrivateKey k = PrivateKey::generate(KeyAlgorithm::ECDSA, 256);
  std::string rewrapped = "\n" + k.to_pem(KeyEncoding::PKCS1);
  PrivateKey back = PrivateKey::from_pem(rewrapped);
  EXPECT_EQ(back, k);
  EXPECT_EQ(back.to_pem(KeyEncoding::PKCS8), k.to_pem(KeyEncoding::PKCS8));
  Certificate self = self_signed_ca("read-back", std::chrono::hours(1), back);
  EXPECT_TRUE(k.matches(self));
  EXPECT_TRUE(self.is_self_signed());  // the imported private key signs for the public key

  std::string der = *detail::ec_pem_body(k.to_pem(KeyEncoding::PKCS1));
  EXPECT_EQ(detail::ec_key_from_der(der + std::string(1, '\0')), nullptr);
  EXPECT_EQ(detail::ec_key_from_der(der.substr(0, der.size() - 1)), nullptr);
  std::string rsa = PrivateKey::generate(KeyAlgorithm::RSA, 2048).to_pem(KeyEncoding::PKCS8);
  EXPECT_EQ(detail::ec_key_from_der(*detail::ec_pem_body(rsa)), nullptr);
  EXPECT_EQ(PrivateKey::from_pem("\n" + rsa).algorithm(), KeyAlgorithm::RSA);
  EXPECT_FALSE(detail::ec_pem_body("-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nAAAA\n-----END EC PRIVATE KEY-----\n"));
  try {
    PrivateKey::from_pem("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n");
    FAIL();
  } catch (const PkiError& e) {
    EXPECT_TRUE(contains(e.what(), "parsing private key PEM")) << e.what();
  }
}

TEST(PkiKey, Ed25519IsAlwaysPkcs8) {
  PrivateKey k = PrivateKey::generate(KeyAlgorithm::Ed25519, 12345);  // size ignored
  EXPECT_EQ(k.algorithm(), KeyAlgorithm::Ed25519);
  EXPECT_EQ(k.size(), 256);
  EXPECT_EQ(k.to_pem(KeyEncoding::PKCS1), k.to_pem(KeyEncoding::PKCS8));
  EXPECT_TRUE(k.to_pem(KeyEncoding::PKCS1).starts_with("-----BEGIN PRIVATE KEY-----\n"));
  EXPECT_EQ(PrivateKey::from_pem(k.to_pem()), k);
}

// The only RSA key generated in this test binary: generation costs ~0.4 s.
TEST(PkiKey, RsaGenerateEncodeSignAndCheckWithOpenssl) {
  PrivateKey k = PrivateKey::generate(KeyAlgorithm::RSA, 2048);
  EXPECT_EQ(k.algorithm(), KeyAlgorithm::RSA);
  EXPECT_EQ(k.size(), 2048);
  std::string pkcs1 = k.to_pem(KeyEncoding::PKCS1);
  std::string pkcs8 = k.to_pem(KeyEncoding::PKCS8);
  EXPECT_TRUE(pkcs1.starts_with("-----BEGIN RSA PRIVATE KEY-----\n"));
  EXPECT_TRUE(pkcs8.starts_with("-----BEGIN PRIVATE KEY-----\n"));
  EXPECT_EQ(PrivateKey::from_pem(pkcs1), k);
  EXPECT_EQ(PrivateKey::from_pem(pkcs8), k);

  // An RSA CA signs an ECDSA leaf; the leaf signature is sha256WithRSAEncryption.
  Certificate ca = self_signed_ca("RSA CA", std::chrono::hours(1), k);
  EXPECT_EQ(ca.public_key().algorithm(), KeyAlgorithm::RSA);
  EXPECT_EQ(ca.signature_algorithm(), "sha256WithRSAEncryption");
  CertificateTemplate t;
  t.dns_names = {"rsa.example"};
  auto leaf = issue(t, ca, k, std::chrono::minutes(30));
  EXPECT_EQ(leaf.certificate.signature_algorithm(), "sha256WithRSAEncryption");
  EXPECT_TRUE(leaf.certificate.signed_by(ca));

  std::string ossl = testing::openssl();
  if (ossl.empty()) GTEST_SKIP() << "no openssl CLI";
  testing::TempDir dir;
  for (const auto& [name, pem] : {std::pair{"pkcs1.pem", pkcs1}, std::pair{"pkcs8.pem", pkcs8}}) {
    auto r = testing::run(ossl + " pkey -in " + dir.write(name, pem) + " -noout");
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.output;
  }
  auto r = testing::run(ossl + " verify -CAfile " + dir.write("ca.pem", ca.to_pem()) + " " +
                        dir.write("leaf.pem", leaf.certificate.to_pem()));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, ": OK")) << r.output;
}

TEST(PkiKey, MatchesAndEquality) {
  PrivateKey a = PrivateKey::generate(KeyAlgorithm::ECDSA);
  PrivateKey b = PrivateKey::generate(KeyAlgorithm::ECDSA);
  Certificate ca = self_signed_ca("a", std::chrono::hours(1), a);
  EXPECT_TRUE(a.matches(ca));
  EXPECT_FALSE(b.matches(ca));
  EXPECT_TRUE(a.matches(a.public_key()));
  EXPECT_FALSE(a.matches(b.public_key()));
  EXPECT_TRUE(a.public_key().matches(ca));
  EXPECT_FALSE(a == b);
  EXPECT_TRUE(a == PrivateKey::from_pem(a.to_pem()));
  EXPECT_EQ(a.public_key(), ca.public_key());
  EXPECT_NE(a.public_key(), b.public_key());
  EXPECT_EQ(PrivateKey(), PrivateKey());
  EXPECT_NE(PrivateKey(), a);
}

TEST(PkiKey, PublicKeyPemAndDerRoundTrip) {
  PublicKey pub = PrivateKey::generate(KeyAlgorithm::ECDSA, 521).public_key();
  std::string pem = pub.to_pem();
  EXPECT_TRUE(pem.starts_with("-----BEGIN PUBLIC KEY-----\n"));
  EXPECT_EQ(PublicKey::from_pem(pem), pub);
  EXPECT_EQ(PublicKey::from_der(pub.der()), pub);
  EXPECT_EQ(PublicKey::from_der(pub.der()).size(), 521);
  EXPECT_THROW(PublicKey::from_der(pub.der() + "x"), PkiError);
}

TEST(PkiKey, ParsesKeyAfterOtherPemBlocks) {
  auto ca = testing::make_ca();
  PrivateKey back = PrivateKey::from_pem(ca.cert.to_pem() + ca.key.to_pem(KeyEncoding::PKCS8));
  EXPECT_EQ(back, ca.key);
}

TEST(PkiKey, ParseErrorsNameTheOperationAndNeverEchoKeyMaterial) {
  try {
    PrivateKey::from_pem("not a key");
    FAIL();
  } catch (const PkiError& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("parsing private key PEM: ")) << e.what();
  }
  // A damaged real key: the message must not contain any line of the key's base64.
  std::string pem = PrivateKey::generate(KeyAlgorithm::ECDSA).to_pem(KeyEncoding::PKCS8);
  std::string body = pem.substr(pem.find('\n') + 1, 40);
  std::string damaged = pem;
  damaged[damaged.find('\n') + 10] = '*';
  try {
    PrivateKey::from_pem(damaged);
    FAIL();
  } catch (const PkiError& e) {
    std::string msg = e.what();
    EXPECT_TRUE(msg.starts_with("parsing private key PEM: ")) << msg;
    EXPECT_FALSE(contains(msg, body.substr(0, 12))) << msg;
  }
}

TEST(PkiKey, EncryptedKeyIsRejectedWithoutPrompting) {
  std::string ossl = testing::openssl();
  if (ossl.empty()) GTEST_SKIP() << "no openssl CLI";
  testing::TempDir dir;
  std::string path = dir.file("enc.pem");
  auto r = testing::run(ossl + " genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -aes256 -pass pass:secret -out " +
                        path + " </dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::string pem = testing::run("cat " + path).output;
  ASSERT_TRUE(contains(pem, "ENCRYPTED PRIVATE KEY"));
  EXPECT_THROW(PrivateKey::from_pem(pem), PkiError);
}

TEST(PkiKey, EmptyKeyThrows) {
  PrivateKey k;
  EXPECT_TRUE(k.empty());
  EXPECT_THROW(k.to_pem(), PkiError);
  EXPECT_THROW(k.algorithm(), PkiError);
  EXPECT_THROW(PublicKey().der(), PkiError);
}

}  // namespace
}  // namespace capstan::pki
