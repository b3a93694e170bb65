#include "runtime/pki/csr.h"

#include <gtest/gtest.h>

#include "runtime/pki/error.h"
#include "runtime/pki/test_util.h"

namespace capstan::pki {
namespace {

CertificateTemplate full_template() {
  CertificateTemplate t;
  t.subject.common_name = "tamper-me.example.com";
  t.subject.organizations = {"Capstan", "Second Org"};
  t.subject.organizational_units = {"Platform"};
  t.subject.countries = {"DE", "FR"};
  t.subject.localities = {"Berlin"};
  t.subject.provinces = {"Berlin"};
  t.subject.street_addresses = {"Unter den Linden 1"};
  t.subject.postal_codes = {"10117"};
  t.subject.serial_number = "1234-5";
  t.dns_names = {"tamper-me.example.com", "*.example.com"};
  t.ip_addresses = {"10.0.0.1", "2001:db8::1"};
  t.uris = {"spiffe://cluster.local/ns/default/sa/app"};
  t.email_addresses = {"ops@example.com"};
  t.usages = {"digital signature", "key encipherment", "server auth", "client auth"};
  return t;
}

// ECDSA requests get their public key field from the key's point (ec_der.h), and the request
// made is cached as already verified: a fresh parse of the same bytes, which decodes the field
// and checks the signature itself, must agree for every curve and key algorithm.
TEST(PkiCsr, CreatedRequestsVerifyWhenParsedAfresh) {
  CertificateTemplate t;
  t.dns_names = {"fresh.example.com"};
  for (auto [algorithm, size] : {std::pair{KeyAlgorithm::ECDSA, 256}, {KeyAlgorithm::ECDSA, 384}, {KeyAlgorithm::ECDSA, 521},
                                 {KeyAlgorithm::RSA, 2048}, {KeyAlgorithm::Ed25519, 0}}) {
    PrivateKey key = PrivateKey::generate(algorithm, size);
    CertificateRequest made = CertificateRequest::parse(CertificateRequest::create(t, key));
    CertificateRequest fresh = CertificateRequest::parse_der(made.to_der());  // not through the cache
    EXPECT_TRUE(fresh.verify_signature()) << size;
    EXPECT_EQ(fresh.public_key().der(), key.public_key_der()) << size;
    EXPECT_EQ(made.public_key(), fresh.public_key()) << size;
    EXPECT_TRUE(made.verify_signature()) << size;
  }
}

TEST(PkiCsr, RoundTripKeepsEveryField) {
  PrivateKey key = PrivateKey::generate(KeyAlgorithm::ECDSA);
  CertificateTemplate t = full_template();
  std::string pem = CertificateRequest::create(t, key);
  EXPECT_TRUE(pem.starts_with("-----BEGIN CERTIFICATE REQUEST-----\n"));
  CertificateRequest csr = CertificateRequest::parse(pem);
  EXPECT_TRUE(csr.verify_signature());
  EXPECT_EQ(csr.public_key(), key.public_key());
  EXPECT_TRUE(key.matches(csr.public_key()));
  EXPECT_EQ(csr.fields(), t);  // usages were already canonical and in canonical order
  EXPECT_EQ(csr.to_pem(), pem);
  EXPECT_EQ(CertificateRequest::parse_der(csr.to_der()).fields(), t);
}

TEST(PkiCsr, UsagesAreNormalisedAndCaIsEncoded) {
  PrivateKey key = PrivateKey::generate(KeyAlgorithm::ECDSA);
  CertificateTemplate t;
  t.subject.common_name = "my-ca";
  t.is_ca = true;
  CertificateRequest csr = CertificateRequest::parse(CertificateRequest::create(t, key));
  EXPECT_TRUE(csr.fields().is_ca);
  EXPECT_EQ(csr.fields().usages,
            (std::vector<std::string>{"digital signature", "key encipherment", "cert sign"}));

  // encodeUsagesInRequest: false
  CertificateRequest bare = CertificateRequest::parse(CertificateRequest::create(t, key, CsrOptions{false, SignatureHash::Auto}));
  EXPECT_TRUE(bare.fields().usages.empty());
  EXPECT_TRUE(bare.fields().is_ca);
}

TEST(PkiCsr, Ed25519AndP521) {
  for (auto [alg, size] : {std::pair{KeyAlgorithm::Ed25519, 0}, std::pair{KeyAlgorithm::ECDSA, 521}}) {
    PrivateKey key = PrivateKey::generate(alg, size);
    CertificateTemplate t;
    t.dns_names = {"only-a-san.example"};  // empty subject
    CertificateRequest csr = CertificateRequest::parse(CertificateRequest::create(t, key));
    EXPECT_TRUE(csr.verify_signature());
    EXPECT_EQ(csr.public_key().algorithm(), alg);
    EXPECT_EQ(csr.fields().dns_names, t.dns_names);
    EXPECT_TRUE(csr.fields().subject.empty());
  }
}

TEST(PkiCsr, VerifySignatureDetectsTampering) {
  PrivateKey key = PrivateKey::generate(KeyAlgorithm::ECDSA);
  CertificateRequest csr = CertificateRequest::parse(CertificateRequest::create(full_template(), key));
  std::string der = csr.to_der();
  auto at = der.find("tamper-me");
  ASSERT_NE(at, std::string::npos);
  der[at] = 'T';
  CertificateRequest tampered = CertificateRequest::parse_der(der);
  EXPECT_EQ(tampered.fields().subject.common_name, "Tamper-me.example.com");
  EXPECT_FALSE(tampered.verify_signature());
}

TEST(PkiCsr, InvalidInputsGiveClearErrors) {
  PrivateKey key = PrivateKey::generate(KeyAlgorithm::ECDSA);
  auto message = [&](CertificateTemplate t) {
    try {
      CertificateRequest::create(t, key);
    } catch (const PkiError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CertificateTemplate t;
  t.subject.common_name = "x";
  t.usages = {"server auth", "bogus"};
  EXPECT_EQ(message(t), "unknown key usage \"bogus\"");
  t.usages = {};
  t.ip_addresses = {"10.0.0.300"};
  EXPECT_EQ(message(t), "creating certificate request: invalid IP address \"10.0.0.300\"");
  t.ip_addresses = {};
  t.email_addresses = {"nobody"};
  EXPECT_EQ(message(t), "creating certificate request: invalid email address \"nobody\"");
  EXPECT_EQ(message(CertificateTemplate{}),
            "creating certificate request: the request has neither a subject nor subject alternative names");
  CertificateTemplate country;
  country.subject.countries = {"GERMANY"};
  EXPECT_TRUE(message(country).starts_with("creating certificate request: setting subject countryName \"GERMANY\": "))
      << message(country);

  try {
    CertificateRequest::parse("-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n");
    FAIL();
  } catch (const PkiError& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("parsing certificate request PEM: ")) << e.what();
  }
}

}  // namespace
}  // namespace capstan::pki
