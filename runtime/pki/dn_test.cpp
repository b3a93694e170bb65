// RFC 4514 subjects (spec.literalSubject), otherName SANs, nameConstraints and chosen signature
// digests, through CSRs and signed certificates.
#include "runtime/pki/dn.h"

#include <gtest/gtest.h>

#include "runtime/pki/csr.h"
#include "runtime/pki/error.h"
#include "runtime/pki/sign.h"
#include "runtime/pki/test_util.h"
#include "runtime/pki/verify.h"

namespace capstan::pki {
namespace {
using namespace std::chrono;
using testing::error_of;

constexpr const char* kCN = "2.5.4.3";
constexpr const char* kO = "2.5.4.10";
constexpr const char* kC = "2.5.4.6";
constexpr const char* kUID = "0.9.2342.19200300.100.1.1";
constexpr const char* kUpn = "1.3.6.1.4.1.311.20.2.3";

TEST(PkiDn, RdnsComeInAsn1OrderTheReverseOfTheString) {
  NameSequence want{{{kC, "DE"}}, {{kO, "Acme, Inc."}}, {{kCN, "app"}}};
  EXPECT_EQ(parse_distinguished_name(R"(CN=app,O=Acme\, Inc.,C=DE)"), want);
  EXPECT_EQ(parse_distinguished_name(R"(  cn = app ; o=Acme\2C Inc. ;C=DE  )"), want) << "case, spaces and ';' as go-ldap";
  EXPECT_EQ(format_distinguished_name(want), R"(CN=app,O=Acme\, Inc.,C=DE)");
}

TEST(PkiDn, EscapesMultiValuedRdnsAndOids) {
  EXPECT_EQ(parse_distinguished_name(R"(CN=a\+b\"c\\d\;e\<f\>g\=h)"), (NameSequence{{{kCN, R"(a+b"c\d;e<f>g=h)"}}}));
  EXPECT_EQ(parse_distinguished_name(R"(CN=caf\C3\A9)"), (NameSequence{{{kCN, "caf\xC3\xA9"}}}));
  EXPECT_EQ(parse_distinguished_name(R"(CN=\ padded\ )"), (NameSequence{{{kCN, " padded "}}}));
  EXPECT_EQ(parse_distinguished_name(R"(CN=\#hash)"), (NameSequence{{{kCN, "#hash"}}}));
  EXPECT_EQ(parse_distinguished_name("CN=a=b"), (NameSequence{{{kCN, "a=b"}}})) << "'=' in a value, as go-ldap";
  EXPECT_EQ(parse_distinguished_name("CN=app+UID=42,O=Acme"), (NameSequence{{{kO, "Acme"}}, {{kCN, "app"}, {kUID, "42"}}}));
  EXPECT_EQ(parse_distinguished_name("1.2.840.113549.1.9.1=a@b.c,OID.2.5.4.3=x"),
            (NameSequence{{{kCN, "x"}}, {{"1.2.840.113549.1.9.1", "a@b.c"}}}));
}

TEST(PkiDn, ErrorsNameTheOffsetAndTheProblem) {
  EXPECT_EQ(error_of([] { parse_distinguished_name("   "); }), "the distinguished name is empty");
  EXPECT_EQ(error_of([] { parse_distinguished_name("CN=a,O"); }), R"(at byte 5: attribute type "O" is not followed by "=")");
  EXPECT_EQ(error_of([] { parse_distinguished_name("CN=a,"); }), "at byte 5: expected an attribute (type=value), found the end");
  EXPECT_EQ(error_of([] { parse_distinguished_name("=a"); }), R"(at byte 0: missing attribute type before "=")");
  EXPECT_EQ(error_of([] { parse_distinguished_name("XX=a"); }),
            R"(at byte 0: unknown attribute type "XX": use CN, C, O, OU, L, ST, STREET, POSTALCODE, SERIALNUMBER, DC, UID, or a dotted OID such as 1.2.840.113549.1.9.1)");
  EXPECT_EQ(error_of([] { parse_distinguished_name("1.02.3=a"); }).substr(0, 43), R"(at byte 0: unknown attribute type "1.02.3":)");
  EXPECT_EQ(error_of([] { parse_distinguished_name("CN=  ,O=x"); }), "at byte 5: the value of CN is empty");
  EXPECT_EQ(error_of([] { parse_distinguished_name(R"(CN=a\x)"); }),
            R"(at byte 4: invalid escape "\\x": escape only a space, ", #, +, ',', ;, <, =, >, \ or a byte as two hex digits)");
  EXPECT_EQ(error_of([] { parse_distinguished_name(R"(CN=a\4)"); }), R"(at byte 4: invalid escape "\\4": a hex escape is \ and two hex digits)");
  EXPECT_EQ(error_of([] { parse_distinguished_name(R"(CN=a\)"); }), "at byte 4: the escape at the end of the value of CN escapes nothing");
  EXPECT_EQ(error_of([] { parse_distinguished_name(R"(CN=\FF)"); }), "at byte 3: the value of CN is not valid UTF-8");
  EXPECT_EQ(error_of([] { parse_distinguished_name(R"(CN=a\00b)"); }), "at byte 3: the value of CN contains a NUL byte");
  EXPECT_NE(error_of([] { parse_distinguished_name("CN=#0403616263"); }).find("'#'-encoded (hex BER), which is not supported"),
            std::string::npos);
  EXPECT_EQ(error_of([] { parse_distinguished_name("CN=" + std::string(4094, 'a')); }),
            "the distinguished name is 4097 bytes long, more than the 4096 allowed");
  std::string many;
  for (int i = 0; i < 65; ++i) many += (i ? ",O=" : "O=") + std::to_string(i);
  EXPECT_EQ(error_of([&] { parse_distinguished_name(many); }).substr(0, 40), "at byte 310: more than 64 attributes");
}

TEST(PkiDn, ObjectIdentifierSyntax) {
  for (const char* ok : {"1.2", "2.5.4.3", "1.3.6.1.4.1.311.20.2.3", "0.39", "2.999.1"}) EXPECT_TRUE(is_object_identifier(ok)) << ok;
  for (const char* bad : {"", "1", "3.1", "1.40", "1..2", "1.2.", ".1.2", "1.02", "1.a", "1.2.99999999999999999999", " 1.2"})
    EXPECT_FALSE(is_object_identifier(bad)) << bad;
}

TEST(PkiDn, EncodingRefusesWhatX520Forbids) {
  EXPECT_NE(encode_name(parse_distinguished_name("CN=app,C=DE")), "");
  EXPECT_NE(error_of([] { encode_name(parse_distinguished_name("C=DEU")); }).find("attribute C=\"DEU\" cannot be encoded"),
            std::string::npos);
}

CertificateTemplate exotic_template() {
  CertificateTemplate t;
  t.literal_subject = parse_distinguished_name("CN=app+UID=42,O=Acme\\, Inc.,1.2.840.113549.1.9.1=a@b.c,C=DE");
  t.dns_names = {"app.example.com"};
  t.other_names = {{kUpn, "user@corp.example"}, {"1.2.3.4.5", "caf\xC3\xA9"}};
  return t;
}

NameConstraints constraints() {
  NameConstraints nc;
  nc.critical = true;
  nc.permitted.dns_domains = {"example.com", ".corp.example"};
  nc.permitted.ip_ranges = {"10.1.2.3/8", "2001:db8::/32"};
  nc.permitted.email_addresses = {"example.com"};
  nc.permitted.uri_domains = {".example.com"};
  nc.excluded.dns_domains = {"bad.example.com"};
  nc.excluded.ip_ranges = {"192.168.0.0/16"};
  return nc;
}

NameConstraints canonical(NameConstraints nc) {
  nc.permitted.ip_ranges[0] = "10.0.0.0/8";  // host bits cleared, as Go's net.ParseCIDR
  return nc;
}

TEST(PkiDn, CsrCarriesTheLiteralSubjectOtherNamesNameConstraintsAndDigest) {
  auto key = PrivateKey::generate(KeyAlgorithm::ECDSA);  // P-256: SHA-256 unless asked
  CertificateTemplate t = exotic_template();
  t.is_ca = true;
  t.name_constraints = constraints();
  CsrOptions o;
  o.hash = SignatureHash::SHA512;
  auto csr = CertificateRequest::parse(CertificateRequest::create(t, key, o));
  ASSERT_TRUE(csr.verify_signature());
  EXPECT_EQ(csr.subject_sequence(), t.literal_subject);
  EXPECT_EQ(csr.fields().subject.common_name, "app");
  EXPECT_EQ(csr.fields().other_names, t.other_names);
  ASSERT_TRUE(csr.fields().name_constraints);
  EXPECT_EQ(*csr.fields().name_constraints, canonical(constraints()));
  EXPECT_EQ(csr.signature_hash(), SignatureHash::SHA512);
  EXPECT_EQ(resolve_hash(csr.public_key(), SignatureHash::Auto), SignatureHash::SHA256);
  EXPECT_EQ(CertificateRequest::parse(CertificateRequest::create(t, key)).signature_hash(), SignatureHash::SHA256);

  auto ed = PrivateKey::generate(KeyAlgorithm::Ed25519);
  EXPECT_EQ(CertificateRequest::parse(CertificateRequest::create(t, ed)).signature_hash(), SignatureHash::Auto);
  EXPECT_NE(error_of([&] { CertificateRequest::create(t, ed, o); }).find("Ed25519 signatures take no separate digest"), std::string::npos);
  EXPECT_THROW(resolve_hash(ed.public_key(), SignatureHash::SHA256), PkiError);

  // A subject that is only a literal still counts as a subject: the SANs are not critical then,
  // and otherNames alone are enough for a request.
  CertificateTemplate only_other;
  only_other.other_names = {{kUpn, "u@corp"}};
  auto bare = CertificateRequest::parse(CertificateRequest::create(only_other, key));
  EXPECT_EQ(bare.fields().other_names, only_other.other_names);
  EXPECT_TRUE(bare.subject_sequence().empty());
}

TEST(PkiDn, SignedCertificatesCarryThemAndTheCsrSubjectVerbatim) {
  auto ca = testing::make_ca("Constrained Root");
  auto key = PrivateKey::generate(KeyAlgorithm::RSA, 2048);
  CertificateTemplate t = exotic_template();
  t.is_ca = true;
  t.name_constraints = constraints();
  CsrOptions co;
  co.hash = SignatureHash::SHA384;
  auto csr = CertificateRequest::parse(CertificateRequest::create(t, key, co));

  // The CA key decides the issued certificate's signature (ECDSA P-256: SHA-256).
  auto issued = sign_csr(csr, {}, &ca.cert, ca.key);
  EXPECT_EQ(issued.subject_sequence(), t.literal_subject);
  // OpenSSL prints RFC 2253 order: the reverse of ASN.1, attributes of a multi-valued RDN too.
  EXPECT_EQ(issued.subject_dn(), "UID=42+CN=app,O=Acme\\, Inc.,emailAddress=a@b.c,C=DE");
  EXPECT_EQ(issued.other_names(), t.other_names);
  ASSERT_TRUE(issued.name_constraints());
  EXPECT_EQ(*issued.name_constraints(), canonical(constraints()));
  EXPECT_TRUE(issued.is_ca());
  EXPECT_EQ(issued.signature_algorithm(), "ecdsa-with-SHA256");
  EXPECT_TRUE(issued.signed_by(ca.cert));

  // Self-signed with the request's own digest.
  SignOptions so;
  so.hash = csr.signature_hash();
  auto self = sign_csr(csr, {}, nullptr, key, so);
  EXPECT_EQ(self.signature_algorithm(), "sha384WithRSAEncryption");
  EXPECT_TRUE(self.is_self_signed());
  EXPECT_EQ(self.to_template().other_names, t.other_names);

  // From a template too, and without constraints there is no extension.
  CertificateTemplate leaf = exotic_template();
  auto direct = sign(leaf, key.public_key(), &ca.cert, ca.key, hours(1));
  EXPECT_EQ(direct.subject_sequence(), leaf.literal_subject);
  EXPECT_FALSE(direct.name_constraints());
}

TEST(PkiDn, NameConstraintsAreEnforcedByOpenssl) {
  auto root = testing::make_ca("Root");
  CertificateTemplate it;
  it.subject.common_name = "Constrained Intermediate";
  it.is_ca = true;
  it.name_constraints = NameConstraints{};
  it.name_constraints->critical = true;
  it.name_constraints->permitted.dns_domains = {"example.com"};
  auto inter = issue(it, root.cert, root.key, hours(1));
  CertificateTemplate ok;
  ok.dns_names = {"app.example.com"};
  CertificateTemplate outside;
  outside.dns_names = {"app.example.org"};
  auto good = issue(ok, inter.certificate, inter.key, hours(1));
  auto bad = issue(outside, inter.certificate, inter.key, hours(1));
  auto accepted = verify_chain(good.certificate, {inter.certificate}, {root.cert});
  EXPECT_TRUE(accepted.ok) << accepted.error;
  auto refused = verify_chain(bad.certificate, {inter.certificate}, {root.cert});
  EXPECT_FALSE(refused.ok);
  EXPECT_NE(refused.error.find("permitted subtree violation"), std::string::npos) << refused.error;
}

TEST(PkiDn, BadCidrsAndEmptyOtherNamesAreRefused) {
  auto key = PrivateKey::generate(KeyAlgorithm::ECDSA);
  CertificateTemplate t;
  t.subject.common_name = "x";
  t.is_ca = true;
  t.name_constraints = NameConstraints{};
  t.name_constraints->permitted.ip_ranges = {"10.0.0.0/33"};
  EXPECT_NE(error_of([&] { CertificateRequest::create(t, key); }).find("invalid CIDR address: 10.0.0.0/33"), std::string::npos);
  t.name_constraints->permitted.ip_ranges = {"10.0.0.0"};
  EXPECT_NE(error_of([&] { CertificateRequest::create(t, key); }).find("invalid CIDR address: 10.0.0.0"), std::string::npos);
  t.name_constraints.reset();
  t.other_names = {{"1.2.3", ""}};
  EXPECT_NE(error_of([&] { CertificateRequest::create(t, key); }).find("otherName 1.2.3 has an empty value"), std::string::npos);
  t.other_names = {{"not-an-oid", "v"}};
  EXPECT_NE(error_of([&] { CertificateRequest::create(t, key); }).find("invalid otherName OID"), std::string::npos);
}

}  // namespace
}  // namespace capstan::pki
