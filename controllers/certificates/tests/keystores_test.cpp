// spec.keystores: the four Secret entries, reuse of a store that still holds the same content,
// and a rewrite when the password, profile, alias or certificate changes.
#include "controllers/certificates/keystores.h"
#include "controllers/certificates/tests/test_util.h"
#include "runtime/pki/jks.h"
#include "runtime/pki/pkcs12.h"

#include <gtest/gtest.h>

namespace capstan::certificates {
namespace {

using namespace std::chrono_literals;
using namespace testing;

struct Issued {
  TestCa ca;
  v1::Certificate crt;
  pki::PrivateKey key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  std::string cert_pem, key_pem, ca_pem;
  explicit Issued(std::string_view spec) : crt(certificate(spec)) {
    cert_pem = issue_for(crt, key, ca, pki::Clock::now(), 24h).to_pem();
    key_pem = encode_private_key(key, crt.spec);
    ca_pem = ca.cert.to_pem();
  }
  KeystoreInput input() const { return {key_pem, cert_pem, ca_pem}; }
};

constexpr std::string_view kBoth = R"({"secretName":"web-tls","dnsNames":["web.example"],"issuerRef":{"name":"ca"},
    "keystores":{"jks":{"create":true,"password":"j"},"pkcs12":{"create":true,"password":"p","profile":"LegacyDES"}}})";

TEST(Keystores, FourEntriesThatOpenWithTheirPasswords) {
  Issued in(kBoth);
  KeystorePasswords pw{"j", "p"};
  auto out = keystore_outputs(in.crt.spec, pw, in.input(), nullptr);
  ASSERT_EQ(out.size(), 4u);
  auto jks = pki::decode_jks(out.at("keystore.jks"), "j");
  EXPECT_EQ(jks.key_alias, "certificate");
  EXPECT_TRUE(jks.key == in.key);
  EXPECT_TRUE(jks.trusted.at(0).certificate == in.ca.cert);
  auto p12 = pki::decode_pkcs12(out.at("keystore.p12"), "p");
  EXPECT_EQ(p12.profile, pki::Pkcs12Profile::LegacyDES);
  ASSERT_EQ(p12.certificates.size(), 2u);  // the leaf and the CA
  EXPECT_EQ(pki::decode_pkcs12(out.at("truststore.p12"), "p").certificates.size(), 1u);
  EXPECT_EQ(pki::decode_jks(out.at("truststore.jks"), "j").trusted.size(), 1u);

  // Without a CA there is no trust store; without `create` no store at all.
  auto no_ca = keystore_outputs(in.crt.spec, pw, {in.key_pem, in.cert_pem, ""}, nullptr);
  EXPECT_EQ(no_ca.count("truststore.jks") + no_ca.count("truststore.p12"), 0u);
  EXPECT_EQ(no_ca.count("keystore.jks") + no_ca.count("keystore.p12"), 2u);
  EXPECT_TRUE(keystore_outputs(in.crt.spec, {}, in.input(), nullptr).empty());
  // A key that does not match the chain: no store (the policies reissue).
  auto other = encode_private_key(pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA), in.crt.spec);
  EXPECT_TRUE(keystore_outputs(in.crt.spec, pw, {other, in.cert_pem, in.ca_pem}, nullptr).empty());
}

TEST(Keystores, StoresStillRightAreKeptAndOthersRewritten) {
  Issued in(kBoth);
  KeystorePasswords pw{"j", "p"};
  auto first = keystore_outputs(in.crt.spec, pw, in.input(), nullptr);
  EXPECT_EQ(keystore_outputs(in.crt.spec, pw, in.input(), &first), first);
  EXPECT_EQ(keystore_mismatch(first, first), std::nullopt);

  // A new password rewrites that store only.
  auto changed = keystore_outputs(in.crt.spec, {"j2", "p"}, in.input(), &first);
  EXPECT_NE(changed.at("keystore.jks"), first.at("keystore.jks"));
  EXPECT_EQ(changed.at("keystore.p12"), first.at("keystore.p12"));
  EXPECT_EQ(keystore_mismatch(changed, first), "keystore.jks");

  // A new profile or alias rewrites too.
  Issued modern(R"({"secretName":"web-tls","dnsNames":["web.example"],"issuerRef":{"name":"ca"},
      "keystores":{"jks":{"create":true,"password":"j","alias":"other"},"pkcs12":{"create":true,"password":"p"}}})");
  auto again = keystore_outputs(modern.crt.spec, pw, in.input(), &first);
  EXPECT_NE(again.at("keystore.jks"), first.at("keystore.jks"));
  EXPECT_EQ(pki::decode_jks(again.at("keystore.jks"), "j").key_alias, "other");
  EXPECT_EQ(pki::decode_pkcs12(again.at("keystore.p12"), "p").profile, pki::Pkcs12Profile::LegacyRC2);  // the default

  // A damaged store is replaced; entries no longer asked for are reported.
  auto damaged = first;
  damaged["keystore.p12"] = "junk";
  EXPECT_NE(keystore_outputs(in.crt.spec, pw, in.input(), &damaged).at("keystore.p12"), "junk");
  EXPECT_EQ(keystore_mismatch({}, first), "keystore.jks");
  EXPECT_EQ(keystore_mismatch({}, {{"tls.crt", "x"}}), std::nullopt);
}

}  // namespace
}  // namespace capstan::certificates
