// Checks of our output with the real openssl CLI, and of openssl's output with our parser.
#include <gtest/gtest.h>

#include "runtime/pki/csr.h"
#include "runtime/pki/dn.h"
#include "runtime/pki/error.h"
#include "runtime/pki/sign.h"
#include "runtime/pki/test_util.h"

namespace capstan::pki {
namespace {
using namespace std::chrono;
using testing::run;

class PkiOpenssl : public ::testing::Test {
 protected:
  void SetUp() override {
    ossl_ = testing::openssl();
    if (ossl_.empty()) GTEST_SKIP() << "no /usr/bin/openssl";
  }
  std::string ossl_;
  testing::TempDir dir_;
};

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST_F(PkiOpenssl, VerifyAcceptsOurChainAndRejectsAForeignCa) {
  auto ca = testing::make_ca("CLI CA");
  auto serving = serving_certificate({"localhost", "127.0.0.1"}, ca.cert, ca.key, hours(1));
  std::string ca_pem = dir_.write("ca.pem", ca.cert.to_pem());
  std::string leaf_pem = dir_.write("leaf.pem", serving.certificate.to_pem());

  auto ok = run(ossl_ + " verify -CAfile " + ca_pem + " " + leaf_pem);
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_TRUE(contains(ok.output, leaf_pem + ": OK")) << ok.output;
  auto purpose = run(ossl_ + " verify -purpose sslserver -verify_hostname localhost -verify_ip 127.0.0.1 -CAfile " +
                     ca_pem + " " + leaf_pem);
  EXPECT_EQ(purpose.exit_code, 0) << purpose.output;

  auto other = testing::make_ca("CLI CA");
  auto foreign = serving_certificate({"localhost"}, other.cert, other.key, hours(1));
  auto bad = run(ossl_ + " verify -CAfile " + ca_pem + " " + dir_.write("foreign.pem", foreign.certificate.to_pem()));
  EXPECT_NE(bad.exit_code, 0) << bad.output;
  EXPECT_FALSE(contains(bad.output, ": OK")) << bad.output;

  // Through an intermediate, given as -untrusted.
  CertificateTemplate it;
  it.subject.common_name = "CLI Intermediate";
  it.is_ca = true;
  auto inter = issue(it, ca.cert, ca.key, hours(1));
  CertificateTemplate lt;
  lt.subject.common_name = "deep";
  auto deep = issue(lt, inter.certificate, inter.key, hours(1));
  auto chain = run(ossl_ + " verify -CAfile " + ca_pem + " -untrusted " +
                   dir_.write("inter.pem", inter.certificate.to_pem()) + " " +
                   dir_.write("deep.pem", deep.certificate.to_pem()));
  EXPECT_EQ(chain.exit_code, 0) << chain.output;
}

TEST_F(PkiOpenssl, TextShowsSansUsagesAndCaConstraints) {
  auto ca = testing::make_ca("Text CA");
  auto ca_text = run(ossl_ + " x509 -noout -text -in " + dir_.write("ca.pem", ca.cert.to_pem()));
  ASSERT_EQ(ca_text.exit_code, 0) << ca_text.output;
  EXPECT_TRUE(contains(ca_text.output, "Version: 3 (0x2)")) << ca_text.output;
  EXPECT_TRUE(contains(ca_text.output, "X509v3 Basic Constraints: critical\n                CA:TRUE")) << ca_text.output;
  EXPECT_TRUE(contains(ca_text.output, "X509v3 Key Usage: critical\n                Digital Signature, Key Encipherment, Certificate Sign"))
      << ca_text.output;
  EXPECT_TRUE(contains(ca_text.output, "X509v3 Subject Key Identifier")) << ca_text.output;
  EXPECT_TRUE(contains(ca_text.output, "Signature Algorithm: ecdsa-with-SHA256")) << ca_text.output;

  CertificateTemplate t;
  t.subject.common_name = "svc";
  t.subject.organizations = {"Capstan"};
  t.dns_names = {"svc.default.svc", "*.svc.example"};
  t.ip_addresses = {"10.1.2.3", "2001:db8::5"};
  t.uris = {"spiffe://cluster.local/ns/default/sa/svc"};
  t.email_addresses = {"svc@example.com"};
  t.usages = {"digital signature", "key encipherment", "server auth", "client auth", "code signing"};
  auto leaf = issue(t, ca.cert, ca.key, hours(1));
  auto text = run(ossl_ + " x509 -noout -text -in " + dir_.write("leaf.pem", leaf.certificate.to_pem()));
  ASSERT_EQ(text.exit_code, 0) << text.output;
  const std::string& out = text.output;
  EXPECT_TRUE(contains(out, "Issuer: CN = Text CA")) << out;
  EXPECT_TRUE(contains(out, "Subject: O = Capstan, CN = svc")) << out;
  EXPECT_TRUE(contains(out, "DNS:svc.default.svc, DNS:*.svc.example")) << out;
  EXPECT_TRUE(contains(out, "email:svc@example.com")) << out;
  EXPECT_TRUE(contains(out, "IP Address:10.1.2.3")) << out;
  EXPECT_TRUE(contains(out, "IP Address:2001:DB8:0:0:0:0:0:5") || contains(out, "IP Address:2001:db8::5")) << out;
  EXPECT_TRUE(contains(out, "URI:spiffe://cluster.local/ns/default/sa/svc")) << out;
  EXPECT_TRUE(contains(out, "X509v3 Key Usage: critical\n                Digital Signature, Key Encipherment\n")) << out;
  EXPECT_TRUE(contains(out, "TLS Web Server Authentication, TLS Web Client Authentication, Code Signing")) << out;
  EXPECT_TRUE(contains(out, "X509v3 Basic Constraints: critical\n                CA:FALSE")) << out;
  EXPECT_TRUE(contains(out, "X509v3 Subject Alternative Name: \n")) << out;  // not critical: subject set
  EXPECT_TRUE(contains(out, "X509v3 Authority Key Identifier")) << out;

  // With an empty subject the SAN extension is critical.
  CertificateTemplate bare;
  bare.dns_names = {"bare.example"};
  auto bare_leaf = issue(bare, ca.cert, ca.key, hours(1));
  auto bare_text = run(ossl_ + " x509 -noout -text -in " + dir_.write("bare.pem", bare_leaf.certificate.to_pem()));
  EXPECT_TRUE(contains(bare_text.output, "X509v3 Subject Alternative Name: critical")) << bare_text.output;

  // Fingerprint and serial agree with openssl's.
  auto fp = run(ossl_ + " x509 -noout -fingerprint -sha256 -serial -in " + dir_.file("leaf.pem"));
  std::string ours = leaf.certificate.fingerprint_sha256();
  std::string colons;
  for (size_t i = 0; i < ours.size(); i += 2) colons += (i ? ":" : "") + ours.substr(i, 2);
  for (auto& c : colons) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_TRUE(contains(fp.output, "=" + colons)) << fp.output << " vs " << colons;
  std::string serial = leaf.certificate.serial_hex();
  for (auto& c : serial) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_TRUE(contains(fp.output, "serial=" + std::string(serial.size() % 2 ? "0" : "") + serial)) << fp.output;
}

TEST_F(PkiOpenssl, ReqVerifyAcceptsOurCsrs) {
  for (auto [alg, size] : {std::pair{KeyAlgorithm::ECDSA, 256}, std::pair{KeyAlgorithm::ECDSA, 384},
                           std::pair{KeyAlgorithm::Ed25519, 0}}) {
    PrivateKey key = PrivateKey::generate(alg, size);
    CertificateTemplate t;
    t.subject.common_name = "csr.example";
    t.dns_names = {"csr.example"};
    t.ip_addresses = {"::1"};
    t.usages = {"server auth"};
    t.is_ca = true;
    std::string path = dir_.write("req.pem", CertificateRequest::create(t, key));
    auto r = run(ossl_ + " req -verify -noout -in " + path);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_TRUE(contains(r.output, "verify OK") || contains(r.output, "Certificate request self-signature verify OK"))
        << r.output;
    auto text = run(ossl_ + " req -noout -text -in " + path);
    EXPECT_TRUE(contains(text.output, "DNS:csr.example")) << text.output;
    EXPECT_TRUE(contains(text.output, "CA:TRUE")) << text.output;
    EXPECT_TRUE(contains(text.output, "Certificate Sign")) << text.output;
    EXPECT_TRUE(contains(text.output, "TLS Web Server Authentication")) << text.output;
  }
}

TEST_F(PkiOpenssl, PkeyReadsEveryAlgorithmAndEncoding) {
  // RSA is covered by PkiKey.RsaGenerateEncodeSignAndCheckWithOpenssl (one RSA key per binary).
  struct Case {
    KeyAlgorithm alg;
    int size;
    KeyEncoding enc;
    const char* header;
  };
  for (const Case& c : {Case{KeyAlgorithm::ECDSA, 256, KeyEncoding::PKCS1, "EC PRIVATE KEY"},
                        Case{KeyAlgorithm::ECDSA, 256, KeyEncoding::PKCS8, "PRIVATE KEY"},
                        Case{KeyAlgorithm::ECDSA, 384, KeyEncoding::PKCS1, "EC PRIVATE KEY"},
                        Case{KeyAlgorithm::ECDSA, 521, KeyEncoding::PKCS8, "PRIVATE KEY"},
                        Case{KeyAlgorithm::Ed25519, 0, KeyEncoding::PKCS1, "PRIVATE KEY"},
                        Case{KeyAlgorithm::Ed25519, 0, KeyEncoding::PKCS8, "PRIVATE KEY"}}) {
    PrivateKey key = PrivateKey::generate(c.alg, c.size);
    std::string pem = key.to_pem(c.enc);
    EXPECT_TRUE(pem.starts_with(std::string("-----BEGIN ") + c.header + "-----")) << pem;
    std::string path = dir_.write("key.pem", pem);
    auto r = run(ossl_ + " pkey -in " + path + " -noout");
    EXPECT_EQ(r.exit_code, 0) << algorithm_name(c.alg) << c.size << ": " << r.output;
    // openssl derives the same public key.
    auto pub = run(ossl_ + " pkey -in " + path + " -pubout");
    ASSERT_EQ(pub.exit_code, 0) << pub.output;
    EXPECT_EQ(PublicKey::from_pem(pub.output), key.public_key());
  }
}

TEST_F(PkiOpenssl, WeParseWhatOpensslMakes) {
  std::string key = dir_.file("k.pem"), cert = dir_.file("c.pem"), csr = dir_.file("r.pem");
  auto gen = run(ossl_ + " req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-384 -nodes -keyout " + key + " -out " +
                 cert + " -days 2 -subj '/C=DE/O=Ext Org/CN=ext.example' -addext 'subjectAltName=DNS:ext.example,IP:192.0.2.1'" +
                 " -addext 'extendedKeyUsage=serverAuth,1.2.3.4.5'");
  ASSERT_EQ(gen.exit_code, 0) << gen.output;
  auto gen_csr = run(ossl_ + " req -new -key " + key + " -out " + csr + " -subj '/CN=csr.ext' -addext 'subjectAltName=URI:urn:x'");
  ASSERT_EQ(gen_csr.exit_code, 0) << gen_csr.output;

  PrivateKey k = PrivateKey::from_pem(run("cat " + key).output);
  Certificate c = Certificate::parse_pem(run("cat " + cert).output);
  EXPECT_EQ(k.algorithm(), KeyAlgorithm::ECDSA);
  EXPECT_EQ(k.size(), 384);
  EXPECT_TRUE(k.matches(c));
  EXPECT_EQ(c.subject().countries, std::vector<std::string>{"DE"});
  EXPECT_EQ(c.subject().organizations, std::vector<std::string>{"Ext Org"});
  EXPECT_EQ(c.subject_dn(), "CN=ext.example,O=Ext Org,C=DE");
  EXPECT_EQ(c.dns_names(), std::vector<std::string>{"ext.example"});
  EXPECT_EQ(c.ip_addresses(), std::vector<std::string>{"192.0.2.1"});
  EXPECT_EQ(c.ext_key_usages(), std::vector<ExtKeyUsage>{ExtKeyUsage::ServerAuth});
  EXPECT_EQ(c.unknown_ext_key_usages(), std::vector<std::string>{"1.2.3.4.5"});
  EXPECT_TRUE(c.is_ca());  // openssl req -x509 marks CA:TRUE by default
  EXPECT_TRUE(c.is_self_signed());
  EXPECT_EQ(c.not_after() - c.not_before(), hours(48));

  CertificateRequest r = CertificateRequest::parse(run("cat " + csr).output);
  EXPECT_TRUE(r.verify_signature());
  EXPECT_EQ(r.fields().subject.common_name, "csr.ext");
  EXPECT_EQ(r.fields().uris, std::vector<std::string>{"urn:x"});
  EXPECT_TRUE(k.matches(r.public_key()));

  // And we can act as the CA for that key and CSR.
  auto ca = testing::make_ca();
  Certificate issued = sign_csr(r, {}, &ca.cert, ca.key);
  auto v = run(ossl_ + " verify -CAfile " + dir_.write("ca.pem", ca.cert.to_pem()) + " " +
               dir_.write("issued.pem", issued.to_pem()));
  EXPECT_EQ(v.exit_code, 0) << v.output;
}

}  // namespace
}  // namespace capstan::pki

namespace capstan::pki {
namespace {

// An independent parser reads the literal subject (order, escapes, a multi-valued RDN, an OID
// attribute), the otherName SAN and the name constraints as we wrote them.
TEST(PkiOpensslText, LiteralSubjectOtherNameAndNameConstraints) {
  std::string ossl = testing::openssl();
  if (ossl.empty()) GTEST_SKIP() << "no /usr/bin/openssl";
  testing::TempDir dir;
  auto ca = testing::make_ca("Text Root");
  auto key = PrivateKey::generate(KeyAlgorithm::ECDSA);
  CertificateTemplate t;
  t.literal_subject = parse_distinguished_name(R"(CN=app+UID=42,O=Acme\, Inc.,1.2.840.113549.1.9.1=a@b.c,C=DE)");
  t.other_names = {{"1.3.6.1.4.1.311.20.2.3", "user@corp.example"}};
  t.is_ca = true;
  t.name_constraints = NameConstraints{};
  t.name_constraints->critical = true;
  t.name_constraints->permitted.dns_domains = {".example.com"};
  t.name_constraints->permitted.ip_ranges = {"10.0.0.0/8"};
  t.name_constraints->excluded.email_addresses = {"bad.example.com"};
  CsrOptions o;
  o.hash = SignatureHash::SHA384;
  auto csr = CertificateRequest::parse(CertificateRequest::create(t, key, o));
  auto cert = sign_csr(csr, {}, &ca.cert, ca.key);

  auto text = testing::run(ossl + " x509 -noout -text -nameopt RFC2253 -in " + dir.write("c.pem", cert.to_pem()));
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find(R"(Subject: UID=42+CN=app,O=Acme\, Inc.,emailAddress=a@b.c,C=DE)"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("othername: UPN::user@corp.example"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("X509v3 Name Constraints: critical"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("DNS:.example.com"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("IP:10.0.0.0/255.0.0.0"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("email:bad.example.com"), std::string::npos) << text.output;

  auto req = testing::run(ossl + " req -noout -text -nameopt RFC2253 -in " + dir.write("r.pem", csr.to_pem()));
  ASSERT_EQ(req.exit_code, 0) << req.output;
  EXPECT_NE(req.output.find("Signature Algorithm: ecdsa-with-SHA384"), std::string::npos) << req.output;
  EXPECT_NE(req.output.find("othername: UPN::user@corp.example"), std::string::npos) << req.output;
  EXPECT_NE(req.output.find("X509v3 Name Constraints: critical"), std::string::npos) << req.output;
}

}  // namespace
}  // namespace capstan::pki
