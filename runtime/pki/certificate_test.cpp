#include "runtime/pki/certificate.h"

#include <gtest/gtest.h>

#include "runtime/pki/error.h"
#include "runtime/pki/sign.h"
#include "runtime/pki/test_util.h"

namespace capstan::pki {
namespace {
using namespace std::chrono;

TEST(PkiCertificate, FieldsOfASignedLeaf) {
  auto ca = testing::make_ca("Fields CA");
  CertificateTemplate t;
  t.subject.common_name = "svc.default.svc";
  t.subject.organizations = {"Capstan"};
  t.subject.organizational_units = {"Platform"};
  t.subject.countries = {"DE"};
  t.subject.localities = {"Berlin"};
  t.subject.provinces = {"BE"};
  t.subject.street_addresses = {"Street 1"};
  t.subject.postal_codes = {"10117"};
  t.subject.serial_number = "42";
  t.dns_names = {"svc.default.svc", "svc"};
  t.ip_addresses = {"127.0.0.1", "::1"};
  t.uris = {"spiffe://cluster.local/ns/default/sa/svc"};
  t.email_addresses = {"svc@example.com"};
  t.usages = {"server auth", "signing"};
  auto now = floor<seconds>(system_clock::now());
  SignOptions opts;
  opts.now = now;
  PrivateKey key = PrivateKey::generate(KeyAlgorithm::ECDSA);
  Certificate c = sign(t, key.public_key(), &ca.cert, ca.key, hours(2), opts);

  EXPECT_EQ(c.subject(), t.subject);
  EXPECT_EQ(c.issuer().common_name, "Fields CA");
  EXPECT_EQ(c.issuer_dn(), "CN=Fields CA");
  EXPECT_EQ(c.subject_dn(), "serialNumber=42,CN=svc.default.svc,OU=Platform,O=Capstan,postalCode=10117,"
                            "street=Street 1,L=Berlin,ST=BE,C=DE");
  EXPECT_EQ(c.not_before(), now);
  EXPECT_EQ(c.not_after(), now + hours(2));
  EXPECT_EQ(c.dns_names(), t.dns_names);
  EXPECT_EQ(c.ip_addresses(), t.ip_addresses);
  EXPECT_EQ(c.uris(), t.uris);
  EXPECT_EQ(c.email_addresses(), t.email_addresses);
  EXPECT_EQ(c.key_usages(), std::vector<KeyUsage>{KeyUsage::DigitalSignature});
  EXPECT_EQ(c.ext_key_usages(), std::vector<ExtKeyUsage>{ExtKeyUsage::ServerAuth});
  EXPECT_EQ(c.usages(), (std::vector<std::string>{"digital signature", "server auth"}));
  EXPECT_FALSE(c.is_ca());
  EXPECT_EQ(c.subject_key_id().size(), 40u);
  EXPECT_EQ(c.authority_key_id(), ca.cert.subject_key_id());
  EXPECT_EQ(ca.cert.authority_key_id(), ca.cert.subject_key_id());
  EXPECT_EQ(c.public_key(), key.public_key());
  EXPECT_EQ(c.public_key_der(), key.public_key_der());
  EXPECT_EQ(c.signature_algorithm(), "ecdsa-with-SHA256");
  EXPECT_EQ(c.fingerprint_sha256().size(), 64u);
  EXPECT_TRUE(c.signed_by(ca.cert));
  EXPECT_FALSE(c.is_self_signed());
  EXPECT_TRUE(ca.cert.is_self_signed());

  // 128 random bits: at most 32 hex digits, positive, and different every time.
  EXPECT_LE(c.serial_hex().size(), 32u);
  EXPECT_NE(c.serial_hex().front(), '-');
  EXPECT_NE(c.serial_hex(), sign(t, key.public_key(), &ca.cert, ca.key, hours(2), opts).serial_hex());

  CertificateTemplate back = c.to_template();
  EXPECT_EQ(back.subject, t.subject);
  EXPECT_EQ(back.usages, c.usages());
  EXPECT_EQ(back.not_after, now + hours(2));
}

TEST(PkiCertificate, PemDerRoundTripAndChains) {
  auto root = testing::make_ca("Root");
  CertificateTemplate inter_t;
  inter_t.subject.common_name = "Intermediate";
  inter_t.is_ca = true;
  auto inter = issue(inter_t, root.cert, root.key, hours(1));
  CertificateTemplate leaf_t;
  leaf_t.dns_names = {"leaf.example"};
  auto leaf = issue(leaf_t, inter.certificate, inter.key, hours(1));

  std::string bundle = to_pem({leaf.certificate, inter.certificate, root.cert});
  auto chain = Certificate::parse_chain(bundle);
  ASSERT_EQ(chain.size(), 3u);
  EXPECT_EQ(chain[0], leaf.certificate);
  EXPECT_EQ(chain[1], inter.certificate);
  EXPECT_EQ(chain[2], root.cert);
  EXPECT_EQ(Certificate::parse_pem(bundle), leaf.certificate);
  EXPECT_EQ(Certificate::parse_der(leaf.certificate.to_der()), leaf.certificate);

  // A key between the certificates (a combined PEM) is skipped.
  auto mixed = Certificate::parse_chain(leaf.certificate.to_pem() + leaf.key.to_pem() + root.cert.to_pem());
  ASSERT_EQ(mixed.size(), 2u);
  EXPECT_EQ(mixed[1], root.cert);
}

TEST(PkiCertificate, ParseErrorsCarryOpensslReasons) {
  try {
    Certificate::parse_pem("hello");
    FAIL();
  } catch (const PkiError& e) {
    std::string msg = e.what();
    EXPECT_TRUE(msg.starts_with("parsing certificate PEM: ")) << msg;
    EXPECT_NE(msg.find("PEM routines::no start line"), std::string::npos) << msg;
  }
  EXPECT_THROW(Certificate::parse_chain(""), PkiError);
  // A malformed second certificate is an error, not the end of the chain.
  auto ca = testing::make_ca();
  std::string broken = ca.cert.to_pem() + "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
  EXPECT_THROW(Certificate::parse_chain(broken), PkiError);
  EXPECT_THROW(Certificate::parse_der("\x30\x03\x02\x01\x01"), PkiError);
  EXPECT_THROW(Certificate().subject(), PkiError);
}

TEST(PkiCertificate, DurationsAndClampingToTheIssuer) {
  auto ca = testing::make_ca();  // valid 24h
  PrivateKey key = PrivateKey::generate(KeyAlgorithm::ECDSA);
  CertificateTemplate t;
  t.subject.common_name = "long";
  Certificate c = sign(t, key.public_key(), &ca.cert, ca.key, hours(24 * 365));
  EXPECT_EQ(c.not_after(), ca.cert.not_after());
  SignOptions no_clamp;
  no_clamp.clamp_to_issuer = false;
  c = sign(t, key.public_key(), &ca.cert, ca.key, hours(24 * 365), no_clamp);
  EXPECT_EQ(c.not_after() - c.not_before(), hours(24 * 365));

  SignOptions backdated;
  backdated.now = floor<seconds>(system_clock::now());
  backdated.backdate = minutes(5);
  c = sign(t, key.public_key(), nullptr, key, hours(1), backdated);
  EXPECT_EQ(c.not_before(), *backdated.now - minutes(5));
  EXPECT_EQ(c.not_after(), *backdated.now + minutes(55));

  // Template duration, then the 90-day default.
  Certificate self = sign(t, key.public_key(), nullptr, key);
  EXPECT_EQ(self.not_after() - self.not_before(), hours(24 * 90));
  t.duration = hours(3);
  self = sign(t, key.public_key(), nullptr, key);
  EXPECT_EQ(self.not_after() - self.not_before(), hours(3));
  // Explicit validity, past 2049 (GeneralizedTime).
  t.not_before = sys_days(2030y / 1 / 1);
  t.not_after = sys_days(2060y / 6 / 15) + hours(12);
  self = sign(t, key.public_key(), nullptr, key);
  EXPECT_EQ(self.not_before(), *t.not_before);
  EXPECT_EQ(self.not_after(), *t.not_after);
  t.not_after = t.not_before;
  EXPECT_THROW(sign(t, key.public_key(), nullptr, key), PkiError);
}

}  // namespace
}  // namespace capstan::pki
