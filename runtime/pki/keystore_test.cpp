// PKCS#12 and JKS stores: our own round trips, hostile input, and the real readers (openssl
// pkcs12, the JDK's keytool) on what we write; our readers on what keytool writes.
#include <gtest/gtest.h>

#include "runtime/pki/error.h"
#include "runtime/pki/jks.h"
#include "runtime/pki/pkcs12.h"
#include "runtime/pki/sign.h"
#include "runtime/pki/test_util.h"

#include <fstream>
#include <sstream>

namespace capstan::pki {
namespace {
using namespace std::chrono;
using testing::run;

struct Chain {
  testing::TestCa ca;
  PrivateKey key;
  std::vector<Certificate> chain;  // leaf, intermediate
};

Chain make_chain() {
  Chain c{testing::make_ca("Store Root"), {}, {}};
  CertificateTemplate it;
  it.subject.common_name = "Store Intermediate";
  it.is_ca = true;
  auto inter = issue(it, c.ca.cert, c.ca.key, hours(1));
  CertificateTemplate lt;
  lt.subject.common_name = "store.example.com";
  lt.dns_names = {"store.example.com"};
  auto leaf = issue(lt, inter.certificate, inter.key, hours(1));
  c.key = leaf.key;
  c.chain = {leaf.certificate, inter.certificate};
  return c;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

constexpr Pkcs12Profile kProfiles[] = {Pkcs12Profile::LegacyRC2, Pkcs12Profile::LegacyDES, Pkcs12Profile::Modern2023};

TEST(Pkcs12, KeyStoreRoundTripsInEveryProfile) {
  auto c = make_chain();
  for (auto profile : kProfiles) {
    SCOPED_TRACE(std::string(pkcs12_profile_name(profile)));
    std::string der = encode_pkcs12(c.key, {c.chain[0], c.chain[1], c.ca.cert}, "s3cret", profile);
    auto got = decode_pkcs12(der, "s3cret");
    EXPECT_TRUE(got.key == c.key);
    ASSERT_EQ(got.certificates.size(), 3u);
    EXPECT_TRUE(got.certificates[0] == c.chain[0]);
    EXPECT_EQ(got.profile, profile);
    EXPECT_THROW(decode_pkcs12(der, "wrong"), PkiError);
  }
}

TEST(Pkcs12, TrustStoreHoldsCertificatesOnly) {
  auto c = make_chain();
  auto other = testing::make_ca("Second Root");
  for (auto profile : kProfiles) {
    std::string der = encode_pkcs12_truststore({c.ca.cert, other.cert}, "pw", profile);
    auto got = decode_pkcs12(der, "pw");
    EXPECT_TRUE(got.key.empty());
    ASSERT_EQ(got.certificates.size(), 2u);
    EXPECT_EQ(got.profile, profile);
  }
}

TEST(Pkcs12, RefusesWhatItCannotWriteOrRead) {
  auto c = make_chain();
  auto stranger = PrivateKey::generate(KeyAlgorithm::ECDSA, 256);
  EXPECT_THROW(encode_pkcs12(stranger, c.chain, "pw", Pkcs12Profile::Modern2023), PkiError);
  EXPECT_THROW(encode_pkcs12(c.key, {}, "pw", Pkcs12Profile::Modern2023), PkiError);
  EXPECT_THROW(encode_pkcs12(c.key, c.chain, std::string("a\0b", 3), Pkcs12Profile::Modern2023), PkiError);
  EXPECT_THROW(decode_pkcs12("not pkcs12", "pw"), PkiError);
  std::string der = encode_pkcs12(c.key, c.chain, "pw", Pkcs12Profile::Modern2023);
  EXPECT_THROW(decode_pkcs12(der.substr(0, der.size() / 2), "pw"), PkiError);
  EXPECT_THROW(decode_pkcs12(std::string(2 << 20, '0'), "pw"), PkiError);
  EXPECT_EQ(parse_pkcs12_profile("Modern2023"), Pkcs12Profile::Modern2023);
  EXPECT_EQ(parse_pkcs12_profile("Modern2026"), std::nullopt);
}

TEST(Jks, RoundTripsKeyChainAndTrustedEntries) {
  auto c = make_chain();
  JksContents in{"Certificate", c.key, c.chain, {{"ca", c.ca.cert}}};
  std::string data = encode_jks(in, "changeit", c.chain[0].not_before());
  auto got = decode_jks(data, "changeit");
  EXPECT_EQ(got.key_alias, "certificate");  // lower-cased as the JDK stores aliases
  EXPECT_TRUE(got.key == c.key);
  ASSERT_EQ(got.chain.size(), 2u);
  EXPECT_TRUE(got.chain[1] == c.chain[1]);
  ASSERT_EQ(got.trusted.size(), 1u);
  EXPECT_EQ(got.trusted[0].alias, "ca");
  EXPECT_TRUE(got.trusted[0].certificate == c.ca.cert);
  // Non-ASCII passwords and aliases survive (UTF-16 in the file).
  JksContents wide{"clé-𝒜", c.key, c.chain, {}};
  auto back = decode_jks(encode_jks(wide, "pässwörd-𝒜", {}), "pässwörd-𝒜");
  EXPECT_EQ(back.key_alias, "clé-𝒜");
}

TEST(Jks, RefusesBadInput) {
  auto c = make_chain();
  std::string data = encode_jks({"k", c.key, c.chain, {{"ca", c.ca.cert}}}, "pw", {});
  EXPECT_THROW(decode_jks(data, "other"), PkiError);
  EXPECT_THROW(decode_jks(data.substr(0, data.size() - 1), "pw"), PkiError);
  std::string flipped = data;
  flipped[40] = static_cast<char>(flipped[40] ^ 1);
  EXPECT_THROW(decode_jks(flipped, "pw"), PkiError);
  EXPECT_THROW(decode_jks(std::string(2 << 20, 'x'), "pw"), PkiError);
  EXPECT_THROW(encode_jks({"k", c.key, c.chain, {{"K", c.ca.cert}}}, "pw", {}), PkiError);  // alias twice
  EXPECT_THROW(encode_jks({"", c.key, c.chain, {}}, "pw", {}), PkiError);
  EXPECT_THROW(encode_jks({"k", PrivateKey::generate(KeyAlgorithm::ECDSA, 256), c.chain, {}}, "pw", {}), PkiError);
  EXPECT_THROW(encode_jks({"k", c.key, c.chain, {}}, "\xff", {}), PkiError);  // not UTF-8
}

class KeystoreTools : public ::testing::Test {
 protected:
  void SetUp() override {
    keytool_ = testing::keytool();
    ossl_ = testing::openssl();
    if (keytool_.empty() || ossl_.empty()) GTEST_SKIP() << "no /usr/bin/keytool or /usr/bin/openssl";
  }
  std::string keytool_, ossl_;
  testing::TempDir dir_;
  Chain c_ = make_chain();
};

TEST_F(KeystoreTools, KeytoolAndOpensslReadOurPkcs12) {
  for (auto profile : kProfiles) {
    std::string name(pkcs12_profile_name(profile));
    SCOPED_TRACE(name);
    std::string ks = dir_.write(name + ".p12", encode_pkcs12(c_.key, c_.chain, "s3cret", profile));
    std::string ts = dir_.write(name + "-trust.p12", encode_pkcs12_truststore({c_.ca.cert}, "s3cret", profile));
    auto list = run(keytool_ + " -list -storetype PKCS12 -keystore " + ks + " -storepass s3cret");
    EXPECT_EQ(list.exit_code, 0) << list.output;
    EXPECT_TRUE(contains(list.output, "PrivateKeyEntry")) << list.output;
    auto trust = run(keytool_ + " -list -v -storetype PKCS12 -keystore " + ts + " -storepass s3cret");
    EXPECT_EQ(trust.exit_code, 0) << trust.output;
    EXPECT_TRUE(contains(trust.output, "trustedCertEntry")) << trust.output;
    EXPECT_TRUE(contains(trust.output, "CN=Store Root")) << trust.output;
    std::string legacy = profile == Pkcs12Profile::LegacyRC2 ? " -legacy" : "";
    auto info = run(ossl_ + " pkcs12" + legacy + " -info -noout -in " + ks + " -passin pass:s3cret");
    EXPECT_EQ(info.exit_code, 0) << info.output;
    if (profile == Pkcs12Profile::Modern2023) {
      EXPECT_TRUE(contains(info.output, "MAC: sha256")) << info.output;
      EXPECT_TRUE(contains(info.output, "PBES2, PBKDF2, AES-256-CBC")) << info.output;
    } else {
      EXPECT_TRUE(contains(info.output, "MAC: sha1")) << info.output;
    }
    // The key openssl recovers is ours.
    auto key = run(ossl_ + " pkcs12" + legacy + " -nocerts -nodes -in " + ks + " -passin pass:s3cret -out " + dir_.file(name + ".key"));
    ASSERT_EQ(key.exit_code, 0) << key.output;
    EXPECT_TRUE(PrivateKey::from_pem(read_file(dir_.file(name + ".key"))) == c_.key);
  }
}

TEST_F(KeystoreTools, KeytoolReadsOurJksAndRecoversTheKey) {
  std::string ks = dir_.write("keystore.jks", encode_jks({"certificate", c_.key, c_.chain, {{"ca", c_.ca.cert}}}, "changeit",
                                                         c_.chain[0].not_before()));
  auto list = run(keytool_ + " -list -v -storetype JKS -keystore " + ks + " -storepass changeit");
  ASSERT_EQ(list.exit_code, 0) << list.output;
  EXPECT_TRUE(contains(list.output, "Alias name: certificate")) << list.output;
  EXPECT_TRUE(contains(list.output, "PrivateKeyEntry")) << list.output;
  EXPECT_TRUE(contains(list.output, "Certificate chain length: 2")) << list.output;
  EXPECT_TRUE(contains(list.output, "Alias name: ca")) << list.output;
  EXPECT_TRUE(contains(list.output, "trustedCertEntry")) << list.output;
  // keytool decrypts our protected key when it converts the store to PKCS#12.
  std::string out = dir_.file("converted.p12");
  auto conv = run(keytool_ + " -importkeystore -noprompt -srcstoretype JKS -srckeystore " + ks +
                  " -srcstorepass changeit -deststoretype PKCS12 -destkeystore " + out + " -deststorepass changeit");
  ASSERT_EQ(conv.exit_code, 0) << conv.output;
  auto back = decode_pkcs12(read_file(out), "changeit");
  EXPECT_TRUE(back.key == c_.key);
}

TEST_F(KeystoreTools, WeReadWhatKeytoolWrites) {
  std::string ks = dir_.file("generated.jks");
  auto gen = run(keytool_ + " -genkeypair -storetype JKS -keystore " + ks +
                 " -storepass changeit -keypass changeit -alias Service -keyalg EC -groupname secp256r1"
                 " -dname CN=generated -validity 2");
  ASSERT_EQ(gen.exit_code, 0) << gen.output;
  auto got = decode_jks(read_file(ks), "changeit");
  EXPECT_EQ(got.key_alias, "service");
  ASSERT_EQ(got.chain.size(), 1u);
  EXPECT_TRUE(got.key.matches(got.chain[0]));
  EXPECT_EQ(got.chain[0].subject().common_name, "generated");
}

}  // namespace
}  // namespace capstan::pki
