// The trigger and readiness policies as pure functions, renewal time and failure backoff.
#include "apis/certs/v1/defaults.h"
#include "controllers/certificates/backoff.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/policies/match.h"
#include "controllers/certificates/policies/policies.h"
#include "controllers/certificates/readiness.h"
#include "controllers/certificates/tests/test_util.h"

#include <gtest/gtest.h>

namespace capstan::certificates {
namespace {

using namespace std::chrono_literals;
using namespace testing;
using policies::Input;

constexpr std::string_view kSpec = R"({"secretName":"web-tls","dnsNames":["web.shop.example"],
    "issuerRef":{"name":"ca","kind":"Issuer"},"privateKey":{"algorithm":"ECDSA","size":256}})";

class PoliciesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    crt = certificate(kSpec);
    key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
    not_before = std::chrono::floor<std::chrono::seconds>(pki::Clock::now()) - 1h;
    cert = issue_for(crt, key, ca, not_before, 90 * 24h);
    secret = secret_for(crt, key, cert, ca);
    request = request_for(crt, key);
  }
  Input input(const SecretView* s, const v1::CertificateRequest* r = nullptr, meta::TimePoint now = meta::Clock::now()) const {
    return Input{&crt, s, r, now};
  }
  std::optional<policies::Violation> trigger(const Input& in) const { return policies::evaluate(policies::trigger_chain(), in); }
  std::string trigger_reason(const Input& in) const {
    auto v = trigger(in);
    return v ? v->reason : "";
  }

  TestCa ca;
  v1::Certificate crt;
  pki::PrivateKey key;
  pki::TimePoint not_before;
  pki::Certificate cert;
  SecretView secret;
  v1::CertificateRequest request;
};

TEST_F(PoliciesTest, UpToDateSecretTriggersNothingAndIsReady) {
  EXPECT_EQ(trigger(input(&secret, &request)), std::nullopt);
  EXPECT_EQ(trigger(input(&secret, nullptr)), std::nullopt);  // fallback: the issued certificate matches
  Readiness r = compute_readiness(input(&secret, &request));
  EXPECT_EQ(r.status, "True");
  EXPECT_EQ(r.reason, "Ready");
  EXPECT_EQ(r.message, "Certificate is up to date and has not expired");
  ASSERT_TRUE(r.not_after && r.renewal_time && r.not_before);
  EXPECT_EQ(*r.not_before, not_before);
  EXPECT_EQ(*r.not_after, not_before + 90 * 24h);
  EXPECT_EQ(*r.renewal_time, not_before + 60 * 24h);  // 2/3 of the lifetime
}

TEST_F(PoliciesTest, MissingSecret) {
  auto v = trigger(input(nullptr));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "DoesNotExist");
  EXPECT_EQ(v->message, "Issuing certificate as Secret does not exist");
  Readiness r = compute_readiness(input(nullptr));
  EXPECT_EQ(r.status, "False");
  EXPECT_EQ(r.reason, "DoesNotExist");
  EXPECT_FALSE(r.not_after);
}

TEST_F(PoliciesTest, MissingData) {
  SecretView empty = secret;
  empty.data.clear();
  EXPECT_EQ(trigger(input(&empty))->message, "Issuing certificate as Secret does not contain any data");
  SecretView no_key = secret;
  no_key.data.erase("tls.key");
  EXPECT_EQ(trigger(input(&no_key))->message, "Issuing certificate as Secret does not contain a private key");
  SecretView no_cert = secret;
  no_cert.data["tls.crt"] = "";
  EXPECT_EQ(trigger(input(&no_cert))->reason, "MissingData");
}

TEST_F(PoliciesTest, KeyMismatchAndCorruptData) {
  SecretView other = secret;
  other.data["tls.key"] = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA).to_pem();
  auto v = trigger(input(&other, &request));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "InvalidKeyPair");
  EXPECT_EQ(v->message, "Issuing certificate as Secret contains a private key that does not match the certificate");

  SecretView garbage = secret;
  garbage.data["tls.crt"] = "not a certificate";
  EXPECT_EQ(trigger_reason(input(&garbage, &request)), "InvalidCertificate");
  garbage = secret;
  garbage.data["tls.key"] = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";
  EXPECT_EQ(trigger_reason(input(&garbage, &request)), "InvalidKeyPair");
}

TEST_F(PoliciesTest, SanChangeAgainstTheCurrentRequestAndAgainstTheCertificate) {
  v1::Certificate changed = certificate(R"({"secretName":"web-tls","dnsNames":["web.shop.example","www.shop.example"],
      "issuerRef":{"name":"ca","kind":"Issuer"},"privateKey":{"algorithm":"ECDSA","size":256}})");
  Input with_request{&changed, &secret, &request, meta::Clock::now()};
  auto v = policies::evaluate(policies::trigger_chain(), with_request);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "RequestChanged");
  EXPECT_EQ(v->message, "Fields on existing CertificateRequest resource not up to date: [spec.dnsNames]");
  Input without_request{&changed, &secret, nullptr, meta::Clock::now()};
  v = policies::evaluate(policies::trigger_chain(), without_request);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "SecretMismatch");
  EXPECT_EQ(v->message, "Issuing certificate as Existing issued Secret is not up to date for spec: [spec.dnsNames]");
  EXPECT_EQ(compute_readiness(with_request).reason, "RequestChanged");
}

TEST_F(PoliciesTest, IssuerChange) {
  v1::Certificate changed = certificate(R"({"secretName":"web-tls","dnsNames":["web.shop.example"],
      "issuerRef":{"name":"other","kind":"ClusterIssuer"},"privateKey":{"algorithm":"ECDSA","size":256}})");
  Input in{&changed, &secret, &request, meta::Clock::now()};
  auto v = policies::evaluate(policies::trigger_chain(), in);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "IncorrectIssuer");
  EXPECT_EQ(v->message, "Issuing certificate as Secret was previously issued by \"Issuer.certs.capstan.dev/ca\"");
}

TEST_F(PoliciesTest, CertificateNameAnnotation) {
  SecretView s = secret;
  s.annotations["certs.capstan.dev/certificate-name"] = "api";
  EXPECT_EQ(trigger_reason(input(&s, &request)), "IncorrectCertificate");
}

TEST_F(PoliciesTest, KeySpecChange) {
  v1::Certificate rsa = certificate(R"({"secretName":"web-tls","dnsNames":["web.shop.example"],
      "issuerRef":{"name":"ca","kind":"Issuer"}})");
  Input in{&rsa, &secret, &request, meta::Clock::now()};
  auto v = policies::evaluate(policies::trigger_chain(), in);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "SecretMismatch");
  EXPECT_EQ(v->message, "Existing private key is not up to date for spec: [spec.privateKey.algorithm]");
  EXPECT_EQ(policies::private_key_matches_spec(pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 384), crt.spec),
            std::vector<std::string>{"spec.privateKey.size"});
}

TEST_F(PoliciesTest, SecretKeyDiffersFromTheCurrentRequest) {
  auto other_request = request_for(crt, pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA));
  auto v = trigger(input(&secret, &other_request));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "SecretMismatch");
  EXPECT_EQ(v->message, "Secret contains a private key that does not match the current CertificateRequest");
}

TEST_F(PoliciesTest, RenewalDueAndExpiry) {
  auto renewal = not_before + 60 * 24h;
  EXPECT_EQ(trigger(input(&secret, &request, renewal - 1s)), std::nullopt);
  auto v = trigger(input(&secret, &request, renewal));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->reason, "Renewing");
  EXPECT_EQ(v->message, "Renewing certificate as renewal was scheduled at " + meta::format_rfc3339(renewal));
  // Due for renewal but not expired: still Ready.
  EXPECT_EQ(compute_readiness(input(&secret, &request, renewal)).status, "True");
  auto expired = compute_readiness(input(&secret, &request, not_before + 91 * 24h));
  EXPECT_EQ(expired.status, "False");
  EXPECT_EQ(expired.reason, "Expired");
  EXPECT_EQ(expired.message, "Certificate expired on " + policies::format_rfc1123(not_before + 90 * 24h));
}

TEST_F(PoliciesTest, TheFirstFailingCheckOfTheChainWins) {
  SecretView s = secret;
  s.annotations["certs.capstan.dev/issuer-name"] = "elsewhere";
  s.data["tls.key"] = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA).to_pem();
  EXPECT_EQ(trigger_reason(input(&s, &request)), "InvalidKeyPair");  // before IncorrectIssuer
}

TEST_F(PoliciesTest, MetadataDriftIsSeparateFromTheTriggers) {
  EXPECT_EQ(policies::secret_metadata_mismatch(input(&secret, &request)), std::nullopt);
  SecretView s = secret;
  s.labels.erase("controller.certs.capstan.dev/fao");
  EXPECT_EQ(trigger(input(&s, &request)), std::nullopt);
  EXPECT_EQ(policies::secret_metadata_mismatch(input(&s, &request))->reason, "SecretManagedMetadataMismatch");
  v1::Certificate templated = certificate(R"({"secretName":"web-tls","dnsNames":["web.shop.example"],
      "issuerRef":{"name":"ca","kind":"Issuer"},"privateKey":{"algorithm":"ECDSA","size":256},
      "secretTemplate":{"labels":{"team":"shop"}}})");
  Input in{&templated, &secret, &request, meta::Clock::now()};
  EXPECT_EQ(policies::secret_metadata_mismatch(in)->reason, "SecretTemplateMismatch");
}

// ---- renewal time (pkg/util/pki/renewaltime.go) ----------------------------------------------

TEST(RenewalTime, DefaultIsTwoThirdsOfTheActualLifetime) {
  auto spec = certificate(R"({"secretName":"s","issuerRef":{"name":"i"}})").spec;
  meta::TimePoint nb = meta::parse_rfc3339("2026-01-01T00:00:00Z").value();
  EXPECT_EQ(v1::renewal_time(spec, nb, nb + 90 * 24h), nb + 60 * 24h);
  // The issued lifetime counts, not spec.duration.
  EXPECT_EQ(v1::renewal_time(spec, nb, nb + 3h), nb + 2h);
}

TEST(RenewalTime, RenewBeforeAndPercentage) {
  meta::TimePoint nb = meta::parse_rfc3339("2026-01-01T00:00:00Z").value();
  auto before = certificate(R"({"secretName":"s","issuerRef":{"name":"i"},"renewBefore":"360h"})").spec;
  EXPECT_EQ(v1::renewal_time(before, nb, nb + 90 * 24h), nb + 75 * 24h);
  // renewBefore not shorter than the lifetime: the default applies.
  EXPECT_EQ(v1::renewal_time(before, nb, nb + 10 * 24h), nb + 10 * 24h - 10 * 24h / 3);
  auto pct = certificate(R"({"secretName":"s","issuerRef":{"name":"i"},"renewBeforePercentage":25})").spec;
  EXPECT_EQ(v1::renewal_time(pct, nb, nb + 100h), nb + 75h);
  // Truncated to whole seconds.
  EXPECT_EQ(v1::renewal_time(pct, nb, nb + 1001ms * 4), nb + 3s);
}

// ---- failure backoff -------------------------------------------------------------------------

TEST(IssuanceBackoff, OneHourDoublingCappedAt32Hours) {
  EXPECT_EQ(v1::issuance_backoff(1), 1h);
  EXPECT_EQ(v1::issuance_backoff(2), 2h);
  EXPECT_EQ(v1::issuance_backoff(3), 4h);
  EXPECT_EQ(v1::issuance_backoff(6), 32h);
  EXPECT_EQ(v1::issuance_backoff(7), 32h);
  EXPECT_EQ(v1::issuance_backoff(100), 32h);
}

TEST(IssuanceBackoff, RetryTimeFromTheLastFailure) {
  meta::TimePoint failed = meta::parse_rfc3339("2026-01-01T00:00:00Z").value();
  v1::CertificateStatus st;
  EXPECT_EQ(issuance_retry_time(st, true, failed), std::nullopt);  // never failed
  st.last_failure_time = failed;
  st.failed_issuance_attempts = 1;
  EXPECT_EQ(issuance_retry_time(st, true, failed + 30min), failed + 1h);
  EXPECT_EQ(issuance_retry_time(st, true, failed + 1h), std::nullopt);
  st.failed_issuance_attempts = 3;
  EXPECT_EQ(issuance_retry_time(st, true, failed + 1h), failed + 4h);
  st.failed_issuance_attempts = 9;
  EXPECT_EQ(issuance_retry_time(st, true, failed + 31h), failed + 32h);
  // The spec changed since the failed request: no backoff.
  EXPECT_EQ(issuance_retry_time(st, false, failed + 1min), std::nullopt);
}

// ---- matching helpers ------------------------------------------------------------------------

TEST(Match, IpsAndUsagesAreComparedCanonically) {
  EXPECT_EQ(policies::normalise_ips({"0:0:0:0:0:0:0:1", "010.0.0.1"}).front(), "::1");
  EXPECT_TRUE(policies::equal_unsorted({"b", "a"}, {"a", "b"}));
  EXPECT_EQ(policies::normalise_usages({"signing", "key encipherment"}),
            (std::vector<std::string>{"digital signature", "key encipherment"}));
}

TEST(Match, CertificateNamesMayMoveBetweenCommonNameAndDnsNames) {
  TestCa ca;
  auto crt = certificate(R"({"secretName":"s","issuerRef":{"name":"i"},"commonName":"a.example","dnsNames":["b.example"]})");
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  pki::CertificateTemplate t;
  t.dns_names = {"a.example", "b.example"};
  auto cert = pki::sign(t, key.public_key(), &ca.cert, ca.key, std::chrono::hours(1));
  EXPECT_EQ(policies::certificate_matches_spec(cert, crt.spec), std::vector<std::string>{});
  auto other = certificate(R"({"secretName":"s","issuerRef":{"name":"i"},"dnsNames":["c.example"]})");
  EXPECT_EQ(policies::certificate_matches_spec(cert, other.spec), std::vector<std::string>{"spec.dnsNames"});
}

}  // namespace
}  // namespace capstan::certificates
