#include "runtime/pki/verify.h"

#include <gtest/gtest.h>

#include "runtime/pki/error.h"
#include "runtime/pki/sign.h"
#include "runtime/pki/test_util.h"

namespace capstan::pki {
namespace {
using namespace std::chrono;

VerifyOptions with_host(std::string h) {
  VerifyOptions o;
  o.dns_name = std::move(h);
  return o;
}
VerifyOptions with_ip(std::string ip) {
  VerifyOptions o;
  o.ip_address = std::move(ip);
  return o;
}
VerifyOptions with_time(TimePoint t) {
  VerifyOptions o;
  o.at = t;
  return o;
}
VerifyOptions with_purpose(ExtKeyUsage u, std::string host = {}) {
  VerifyOptions o;
  o.purpose = u;
  o.dns_name = std::move(host);
  return o;
}

TEST(PkiVerify, ChainThroughAnIntermediate) {
  auto root = testing::make_ca("Root");
  CertificateTemplate it;
  it.subject.common_name = "Intermediate";
  it.is_ca = true;
  auto inter = issue(it, root.cert, root.key, hours(2));
  CertificateTemplate lt;
  lt.dns_names = {"svc.example"};
  lt.usages = {"digital signature", "server auth"};
  auto leaf = issue(lt, inter.certificate, inter.key, hours(1));

  EXPECT_TRUE(verify_chain(leaf.certificate, {inter.certificate}, {root.cert}));
  EXPECT_TRUE(verify_chain(leaf.certificate, {inter.certificate}, {root.cert, root.cert}));
  EXPECT_TRUE(verify_chain(leaf.certificate, {}, {inter.certificate}));  // intermediate as anchor
  VerifyResult missing = verify_chain(leaf.certificate, {}, {root.cert});
  EXPECT_FALSE(missing);
  EXPECT_EQ(missing.error, "certificate 0: unable to get local issuer certificate")
      << "got: " << missing.error;
}

TEST(PkiVerify, LeafSignedByAnotherCaFails) {
  auto ca = testing::make_ca("Real CA");
  auto impostor = testing::make_ca("Real CA");  // same name, other key
  CertificateTemplate t;
  t.subject.common_name = "leaf";
  auto leaf = issue(t, impostor.cert, impostor.key, hours(1));
  VerifyResult r = verify_chain(leaf.certificate, {}, {ca.cert});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("certificate 0 (CN=leaf)"), std::string::npos) << r.error;
  EXPECT_FALSE(leaf.certificate.signed_by(ca.cert));
}

TEST(PkiVerify, TimeHostAndIpChecks) {
  auto ca = testing::make_ca();
  CertificateTemplate t;
  t.subject.common_name = "web";
  t.dns_names = {"web.example", "*.apps.example"};
  t.ip_addresses = {"192.0.2.7"};
  auto leaf = issue(t, ca.cert, ca.key, hours(1));
  EXPECT_TRUE(verify_chain(leaf.certificate, {}, {ca.cert}, with_host("x.apps.example")));
  VerifyResult host = verify_chain(leaf.certificate, {}, {ca.cert}, with_host("other.example"));
  EXPECT_FALSE(host);
  EXPECT_NE(host.error.find("hostname mismatch"), std::string::npos) << host.error;
  EXPECT_TRUE(verify_chain(leaf.certificate, {}, {ca.cert}, with_ip("192.0.2.7")));
  EXPECT_FALSE(verify_chain(leaf.certificate, {}, {ca.cert}, with_ip("192.0.2.8")));

  VerifyResult expired = verify_chain(leaf.certificate, {}, {ca.cert}, with_time(system_clock::now() + hours(3)));
  EXPECT_FALSE(expired);
  EXPECT_NE(expired.error.find("certificate has expired"), std::string::npos) << expired.error;
  VerifyResult early = verify_chain(leaf.certificate, {}, {ca.cert}, with_time(system_clock::now() - hours(3)));
  EXPECT_NE(early.error.find("certificate is not yet valid"), std::string::npos) << early.error;
  EXPECT_THROW(verify_chain(leaf.certificate, {}, {ca.cert}, with_purpose(ExtKeyUsage::IpsecUser)), PkiError);
}

TEST(PkiVerify, NonCaCannotIssue) {
  auto ca = testing::make_ca();
  CertificateTemplate t;
  t.subject.common_name = "not-a-ca";
  auto fake = issue(t, ca.cert, ca.key, hours(1));
  CertificateTemplate lt;
  lt.subject.common_name = "victim";
  auto leaf = issue(lt, fake.certificate, fake.key, hours(1));
  VerifyResult r = verify_chain(leaf.certificate, {fake.certificate}, {ca.cert});
  EXPECT_FALSE(r);
  EXPECT_NE(r.error.find("invalid CA certificate"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace capstan::pki
