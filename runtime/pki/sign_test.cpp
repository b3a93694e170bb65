#include "runtime/pki/sign.h"

#include <gtest/gtest.h>

#include <thread>

#include "runtime/pki/error.h"
#include "runtime/pki/test_util.h"
#include "runtime/pki/verify.h"

namespace capstan::pki {
namespace {
using namespace std::chrono;
using testing::error_of;

VerifyOptions with_ip(std::string ip) {
  VerifyOptions o;
  o.ip_address = std::move(ip);
  return o;
}
VerifyOptions with_purpose(ExtKeyUsage u, std::string host = {}) {
  VerifyOptions o;
  o.purpose = u;
  o.dns_name = std::move(host);
  return o;
}


TEST(PkiSign, SelfSignedCa) {
  PrivateKey key = PrivateKey::generate(KeyAlgorithm::ECDSA);
  Certificate ca = self_signed_ca("Capstan Root", hours(24 * 365), key);
  EXPECT_TRUE(ca.is_ca());
  EXPECT_TRUE(ca.is_self_signed());
  EXPECT_EQ(ca.subject().common_name, "Capstan Root");
  EXPECT_EQ(ca.issuer(), ca.subject());
  EXPECT_EQ(ca.usages(), (std::vector<std::string>{"digital signature", "key encipherment", "cert sign"}));
  EXPECT_EQ(ca.not_after() - ca.not_before(), hours(24 * 365));
  EXPECT_TRUE(verify_chain(ca, {}, {ca}));
}

TEST(PkiSign, DefaultUsagesForLeaves) {
  auto ca = testing::make_ca();
  CertificateTemplate t;
  t.dns_names = {"a.example"};
  auto leaf = issue(t, ca.cert, ca.key, hours(1));
  EXPECT_EQ(leaf.certificate.usages(), (std::vector<std::string>{"digital signature", "key encipherment"}));
  EXPECT_TRUE(leaf.certificate.ext_key_usages().empty());
  EXPECT_FALSE(leaf.certificate.is_ca());
}

TEST(PkiSign, CaIssuerSignsACsrWithTheRequestsSpec) {
  auto ca = testing::make_ca();
  PrivateKey key = PrivateKey::generate(KeyAlgorithm::Ed25519);
  CertificateTemplate t;
  t.subject.common_name = "app";
  t.dns_names = {"app.example"};
  t.usages = {"server auth"};
  CertificateRequest csr = CertificateRequest::parse(CertificateRequest::create(t, key));

  // The CertificateRequest's spec.usages and spec.duration win over the CSR's.
  Certificate c = sign_csr(csr, CsrSigningSpec{std::vector<std::string>{"client auth"}, std::nullopt, hours(5)},
                           &ca.cert, ca.key);
  EXPECT_EQ(c.usages(), std::vector<std::string>{"client auth"});
  EXPECT_EQ(c.not_after() - c.not_before(), hours(5));
  EXPECT_EQ(c.public_key(), key.public_key());
  EXPECT_EQ(c.dns_names(), t.dns_names);
  EXPECT_TRUE(verify_chain(c, {}, {ca.cert}));

  Certificate own = sign_csr(csr, {}, &ca.cert, ca.key);
  EXPECT_EQ(own.usages(), std::vector<std::string>{"server auth"});

  // A SelfSigned issuer signs with the CSR's own key.
  Certificate self = sign_csr(csr, {}, nullptr, key);
  EXPECT_TRUE(self.is_self_signed());
  EXPECT_EQ(self.signature_algorithm(), "ED25519");
}

TEST(PkiSign, RejectsMismatchedKeys) {
  auto ca = testing::make_ca();
  PrivateKey other = PrivateKey::generate(KeyAlgorithm::ECDSA);
  CertificateTemplate t;
  t.subject.common_name = "x";
  EXPECT_EQ(error_of([&] { sign(t, other.public_key(), &ca.cert, other, hours(1)); }),
            "signing certificate: the issuer private key does not match the issuer certificate");
  EXPECT_EQ(error_of([&] { sign(t, other.public_key(), nullptr, ca.key, hours(1)); }),
            "signing self-signed certificate: the subject public key is not the signing key's");
  // A tampered CSR is refused.
  PrivateKey key = PrivateKey::generate(KeyAlgorithm::ECDSA);
  t.subject.common_name = "abcdef";
  std::string der = CertificateRequest::parse(CertificateRequest::create(t, key)).to_der();
  der[der.find("abcdef")] = 'X';
  EXPECT_EQ(error_of([&] { sign_csr(CertificateRequest::parse_der(der), {}, &ca.cert, ca.key); }),
            "signing certificate request: the request's signature does not verify");
}

TEST(PkiSign, RejectsBadTemplates) {
  PrivateKey key = PrivateKey::generate(KeyAlgorithm::ECDSA);
  CertificateTemplate t;
  EXPECT_EQ(error_of([&] { sign(t, key.public_key(), nullptr, key); }),
            "signing certificate: the certificate has neither a subject nor subject alternative names");
  t.subject.common_name = "x";
  t.usages = {"cert sign", "rubbish"};
  EXPECT_EQ(error_of([&] { sign(t, key.public_key(), nullptr, key); }), "unknown key usage \"rubbish\"");
  t.usages = {};
  t.dns_names = {"caf\xc3\xa9.example"};
  EXPECT_EQ(error_of([&] { sign(t, key.public_key(), nullptr, key); }),
            "signing certificate: DNS name \"caf\xc3\xa9.example\" must be ASCII (IA5String)");
}

TEST(PkiSign, SignatureDigestFollowsTheSigningKey) {
  CertificateTemplate t;
  t.subject.common_name = "x";
  PrivateKey p384 = PrivateKey::generate(KeyAlgorithm::ECDSA, 384);
  PrivateKey p521 = PrivateKey::generate(KeyAlgorithm::ECDSA, 521);
  EXPECT_EQ(sign(t, p384.public_key(), nullptr, p384).signature_algorithm(), "ecdsa-with-SHA384");
  EXPECT_EQ(sign(t, p521.public_key(), nullptr, p521).signature_algorithm(), "ecdsa-with-SHA512");
  SignOptions sha256;
  sha256.hash = SignatureHash::SHA256;
  EXPECT_EQ(sign(t, p384.public_key(), nullptr, p384, std::nullopt, sha256).signature_algorithm(),
            "ecdsa-with-SHA256");
  PrivateKey ed = PrivateKey::generate(KeyAlgorithm::Ed25519);
  EXPECT_EQ(sign(t, ed.public_key(), nullptr, ed).signature_algorithm(), "ED25519");
  EXPECT_THROW(sign(t, ed.public_key(), nullptr, ed, std::nullopt, sha256), PkiError);
}

TEST(PkiSign, ApiServerCertificates) {
  auto ca = testing::make_ca("capstan-apiserver-ca");
  auto serving = serving_certificate({"localhost", "127.0.0.1", "::1"}, ca.cert, ca.key, hours(24));
  EXPECT_EQ(serving.certificate.subject().common_name, "localhost");
  EXPECT_EQ(serving.certificate.dns_names(), std::vector<std::string>{"localhost"});
  EXPECT_EQ(serving.certificate.ip_addresses(), (std::vector<std::string>{"127.0.0.1", "::1"}));
  EXPECT_TRUE(serving.key.matches(serving.certificate));
  EXPECT_TRUE(verify_chain(serving.certificate, {}, {ca.cert},
                           with_purpose(ExtKeyUsage::ServerAuth, "localhost")));
  EXPECT_TRUE(verify_chain(serving.certificate, {}, {ca.cert}, with_ip("127.0.0.1")));

  auto admin = client_certificate("admin", {"system:masters"}, ca.cert, ca.key, hours(24));
  EXPECT_EQ(admin.certificate.subject_dn(), "CN=admin,O=system:masters");
  EXPECT_EQ(admin.certificate.usages(),
            (std::vector<std::string>{"digital signature", "key encipherment", "client auth"}));
  EXPECT_TRUE(verify_chain(admin.certificate, {}, {ca.cert}, with_purpose(ExtKeyUsage::ClientAuth)));
  EXPECT_FALSE(verify_chain(admin.certificate, {}, {ca.cert}, with_purpose(ExtKeyUsage::ServerAuth)));
  EXPECT_TRUE(is_ip_address("fe80::1"));
  EXPECT_FALSE(is_ip_address("localhost"));
}

TEST(PkiSign, ConcurrentUseFromManyThreads) {
  auto ca = testing::make_ca();
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      for (int j = 0; j < 15; ++j) {
        CertificateTemplate t;
        t.dns_names.push_back(std::to_string(i * 100 + j));
        t.dns_names.back().append(".example");
        // Shared CA objects, distinct leaves.
        auto leaf = issue(t, ca.cert, ca.key, hours(1));
        auto parsed = Certificate::parse_pem(leaf.certificate.to_pem());
        if (verify_chain(parsed, {}, {ca.cert}) && leaf.key.matches(parsed) && parsed.signed_by(ca.cert) &&
            PrivateKey::from_pem(leaf.key.to_pem()) == leaf.key)
          ++ok;
        // Errors are per thread: a failure here must not leak into another thread's message.
        try {
          Certificate::parse_pem("garbage");
        } catch (const PkiError&) {
        }
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 60);
}

TEST(PkiSign, IssuerUrlsAreEmbeddedAsOpenSslReadsThem) {
  auto ca = testing::make_ca();
  CertificateTemplate t;
  t.dns_names = {"web.example.com"};
  PrivateKey key = PrivateKey::generate(KeyAlgorithm::ECDSA);
  SignOptions o;
  o.crl_distribution_points = {"http://crl.example.com/root.crl", "http://crl2.example.com/root.crl"};
  o.ocsp_servers = {"http://ocsp.example.com"};
  o.issuing_certificate_urls = {"http://ca.example.com/root.crt"};
  Certificate leaf = sign(t, key.public_key(), &ca.cert, ca.key, hours(1), o);
  EXPECT_EQ(leaf.crl_distribution_points(), o.crl_distribution_points);
  EXPECT_EQ(leaf.ocsp_servers(), o.ocsp_servers);
  EXPECT_EQ(leaf.issuing_certificate_urls(), o.issuing_certificate_urls);
  EXPECT_TRUE(verify_chain(leaf, {}, {ca.cert}));
  // Without them: no such extensions.
  Certificate plain = sign(t, key.public_key(), &ca.cert, ca.key, hours(1));
  EXPECT_TRUE(plain.crl_distribution_points().empty());
  EXPECT_TRUE(plain.ocsp_servers().empty());
}

}  // namespace
}  // namespace capstan::pki
