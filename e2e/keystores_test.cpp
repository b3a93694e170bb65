// spec.keystores as users meet them, on both backends: a Certificate from a CA Issuer asks for a
// JKS store whose password is in a Secret that does not exist yet (an Event says so, nothing is
// written half-way), then gets keystore.jks / truststore.jks / keystore.p12 / truststore.p12 that
// open with their passwords and hold the Secret's own key; a profile change rewrites only the
// PKCS#12 store, dropping the JKS store removes its entries, and a profile this build cannot
// write is refused at admission. On the same fixture: a Certificate with literalSubject,
// otherNames and signatureAlgorithm and a CA Certificate with nameConstraints, both from the CA
// Issuer, whose tls.crt carry them.
#include "runtime/meta/base64.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/dn.h"
#include "runtime/pki/error.h"
#include "runtime/pki/jks.h"
#include "runtime/pki/pkcs12.h"
#include "testing/certs_manifests.h"
#include "testing/controller_fixture.h"

#include <gtest/gtest.h>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const std::string kSetup = manifests::kShopCa + R"(---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: app, namespace: shop}
spec:
  secretName: app-tls
  dnsNames: [app.shop.example]
  privateKey: {algorithm: ECDSA}
  issuerRef: {name: shop-ca}
  keystores:
    jks: {create: true, alias: App, passwordSecretRef: {name: store-pass, key: password}}
    pkcs12: {create: true, password: p12-secret, profile: Modern2023}
)";

class KeystoresE2E : public ControllerFixture {
 protected:
  KeystoresE2E() : ControllerFixture({"keystores", false, "certificates,secrets,events"}) {}
  std::vector<std::string> manager_flags() override { return {"--controllers=certificates"}; }

  std::string data(const std::string& key) {
    std::string escaped;
    for (char c : key) escaped += c == '.' ? std::string("\\.") : std::string(1, c);
    auto text = get({"get", "secret", "app-tls", "-n", "shop", "-o", "jsonpath={.data." + escaped + "}"});
    return meta::base64_decode(text).value_or("");
  }
};

TEST_P(KeystoresE2E, StoresFollowTheSpecAndOpenWithTheirPasswords) {
  kubectl_->ok({"apply", "-f", "-"}, kSetup);
  ASSERT_TRUE(eventually([&] {
    return get({"get", "events", "-n", "shop", "--field-selector", "involvedObject.name=app,reason=KeystorePasswordError", "-o",
                "jsonpath={.items[*].message}"})
               .find(R"(spec.keystores.jks.passwordSecretRef: Secret "store-pass" not found)") != std::string::npos;
  }, 60s)) << manager_->logs();
  EXPECT_EQ(get({"get", "secret", "app-tls", "-n", "shop", "--ignore-not-found", "-o", "name"}), "")
      << "the Secret was written without the stores the spec asks for";

  kubectl_->ok({"create", "secret", "generic", "store-pass", "-n", "shop", "--from-literal=password=jks-secret"});
  ASSERT_TRUE(eventually([&] { return condition("certificate", "app", "shop", "Ready") == "True"; }, 90s)) << manager_->logs();
  ASSERT_TRUE(eventually([&] { return !data("truststore.p12").empty(); }, 30s));

  auto key = pki::PrivateKey::from_pem(data("tls.key"));
  auto ca = pki::Certificate::parse_pem(data("ca.crt"));
  auto jks = pki::decode_jks(data("keystore.jks"), "jks-secret");
  EXPECT_EQ(jks.key_alias, "app");
  EXPECT_TRUE(jks.key == key);
  ASSERT_EQ(jks.trusted.size(), 1u);
  EXPECT_EQ(jks.trusted[0].alias, "ca");
  EXPECT_TRUE(jks.trusted[0].certificate == ca);
  EXPECT_TRUE(pki::decode_jks(data("truststore.jks"), "jks-secret").trusted.at(0).certificate == ca);
  auto p12 = pki::decode_pkcs12(data("keystore.p12"), "p12-secret");
  EXPECT_TRUE(p12.key == key);
  EXPECT_EQ(p12.profile, pki::Pkcs12Profile::Modern2023);
  EXPECT_EQ(pki::decode_pkcs12(data("truststore.p12"), "p12-secret").certificates.size(), 1u);
  EXPECT_THROW(pki::decode_jks(data("keystore.jks"), "p12-secret"), pki::PkiError);

  // A profile change rewrites the PKCS#12 stores and leaves the JKS store's bytes alone.
  const std::string jks_before = data("keystore.jks");
  kubectl_->ok({"patch", "certificate", "app", "-n", "shop", "--type=merge", "-p",
                R"({"spec":{"keystores":{"pkcs12":{"profile":"LegacyDES"}}}})"});
  ASSERT_TRUE(eventually([&] {
    try {
      return pki::decode_pkcs12(data("keystore.p12"), "p12-secret").profile == pki::Pkcs12Profile::LegacyDES;
    } catch (const pki::PkiError&) {
      return false;
    }
  }, 30s)) << manager_->logs();
  EXPECT_EQ(data("keystore.jks"), jks_before);
  EXPECT_TRUE(pki::decode_pkcs12(data("keystore.p12"), "p12-secret").key == key) << "no new key for a new profile";

  // Dropping the JKS store removes its two entries.
  kubectl_->ok({"patch", "certificate", "app", "-n", "shop", "--type=json", "-p", R"([{"op":"remove","path":"/spec/keystores/jks"}])"});
  EXPECT_TRUE(eventually([&] { return data("keystore.jks").empty() && data("truststore.jks").empty(); }, 30s)) << manager_->logs();
  EXPECT_FALSE(data("keystore.p12").empty());

  // cert-manager's Modern2026 (PBMAC1) is refused, never accepted and ignored.
  auto refused = (*kubectl_)({"patch", "certificate", "app", "-n", "shop", "--type=merge", "-p",
                              R"({"spec":{"keystores":{"pkcs12":{"profile":"Modern2026"}}}})"});
  EXPECT_NE(refused.code, 0);
  EXPECT_NE(refused.err.find("Modern2026"), std::string::npos) << refused.err;
}

const std::string kSubjects = manifests::kShopCa + R"(---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: literal, namespace: shop}
spec:
  secretName: literal-tls
  literalSubject: 'CN=app+UID=7,O=Acme\, Inc.,1.2.840.113549.1.9.1=app@shop.example,C=DE'
  otherNames: [{oid: 1.3.6.1.4.1.311.20.2.3, utf8Value: app@shop.example}]
  dnsNames: [app.shop.example]
  privateKey: {algorithm: ECDSA}
  signatureAlgorithm: ECDSAWithSHA384
  issuerRef: {name: shop-ca}
---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: sub-ca, namespace: shop}
spec:
  secretName: sub-ca
  isCA: true
  commonName: Shop Sub CA
  privateKey: {algorithm: ECDSA}
  issuerRef: {name: shop-ca}
  nameConstraints:
    critical: true
    permitted: {dnsDomains: [shop.example], ipRanges: [10.1.0.0/16]}
    excluded: {emailAddresses: [evil.example]}
)";

TEST_P(KeystoresE2E, LiteralSubjectOtherNamesAndNameConstraintsReachTheSecret) {
  kubectl_->ok({"apply", "-f", "-"}, kSubjects);
  for (const char* name : {"literal", "sub-ca"})
    ASSERT_TRUE(eventually([&] { return condition("certificate", name, "shop", "Ready") == "True"; }, 90s)) << name << manager_->logs();
  auto tls = [&](const std::string& secret) {
    return meta::base64_decode(get({"get", "secret", secret, "-n", "shop", "-o", "jsonpath={.data.tls\\.crt}"})).value_or("");
  };
  auto root = pki::Certificate::parse_pem(meta::base64_decode(get({"get", "secret", "shop-root", "-n", "shop", "-o",
                                                                    "jsonpath={.data.tls\\.crt}"})).value_or(""));

  auto leaf = pki::Certificate::parse_pem(tls("literal-tls"));
  EXPECT_TRUE(leaf.signed_by(root));
  // ASN.1 order C, emailAddress, O, CN+UID: the reverse of the string; OpenSSL prints it as RFC 2253.
  EXPECT_EQ(leaf.subject_dn(), "UID=7+CN=app,O=Acme\\, Inc.,emailAddress=app@shop.example,C=DE");
  ASSERT_EQ(leaf.subject_sequence().size(), 4u);
  EXPECT_EQ(leaf.subject_sequence()[0], (pki::RelativeName{{"2.5.4.6", "DE"}}));
  EXPECT_EQ(leaf.subject_sequence()[2], (pki::RelativeName{{"2.5.4.10", "Acme, Inc."}}));
  EXPECT_EQ(leaf.other_names(), (std::vector<pki::OtherName>{{"1.3.6.1.4.1.311.20.2.3", "app@shop.example"}}));
  EXPECT_EQ(leaf.dns_names(), std::vector<std::string>{"app.shop.example"});
  EXPECT_EQ(leaf.signature_algorithm(), "ecdsa-with-SHA256") << "the CA issuer signs with its own key's default";
  auto request = get({"get", "certificaterequest", "literal-1", "-n", "shop", "-o", "jsonpath={.spec.request}"});
  EXPECT_EQ(pki::CertificateRequest::parse(meta::base64_decode(request).value_or("")).signature_hash(), pki::SignatureHash::SHA384);

  auto sub = pki::Certificate::parse_pem(tls("sub-ca"));
  EXPECT_TRUE(sub.is_ca());
  ASSERT_TRUE(sub.name_constraints());
  EXPECT_TRUE(sub.name_constraints()->critical);
  EXPECT_EQ(sub.name_constraints()->permitted.dns_domains, std::vector<std::string>{"shop.example"});
  EXPECT_EQ(sub.name_constraints()->permitted.ip_ranges, std::vector<std::string>{"10.1.0.0/16"});
  EXPECT_EQ(sub.name_constraints()->excluded.email_addresses, std::vector<std::string>{"evil.example"});

  // This fixture runs without the admission webhooks (their texts are unit-tested); the CRD's
  // schema still refuses a signature algorithm outside its enum.
  auto refused = (*kubectl_)({"patch", "certificate", "literal", "-n", "shop", "--type=merge", "-p",
                              R"({"spec":{"signatureAlgorithm":"MD5WithRSA"}})"});
  EXPECT_NE(refused.code, 0);
  EXPECT_NE(refused.err.find("spec.signatureAlgorithm"), std::string::npos) << refused.err;
}

CAPSTAN_E2E_BACKENDS(KeystoresE2E);

}  // namespace
}  // namespace capstan::e2e
