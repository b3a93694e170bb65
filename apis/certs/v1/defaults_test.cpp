// Stored defaults (mutating webhook) and effective values (controller).
#include "apis/certs/v1/defaults.h"

#include "apis/certs/v1/test_util.h"
#include "runtime/json/patch.h"

#include <gtest/gtest.h>

namespace capstan::apis::certs::v1 {
namespace {

using namespace std::chrono_literals;
using std::chrono::nanoseconds;
using testing::J;

CertificateSpec spec(std::string_view json_text) { return CertificateSpec::from_json(J(json_text)); }

TEST(CertsDefaults, ApplyDefaultsStoresOnlyIndependentConstants) {
  json::Value cert = J(R"({"metadata": {"name": "web"},
                           "spec": {"secretName": "web-tls", "dnsNames": ["web.example.com"], "issuerRef": {"name": "ca"}}})");
  EXPECT_TRUE(apply_defaults(cert));
  EXPECT_TRUE(json::deep_equal(cert, J(R"({"metadata": {"name": "web"},
      "spec": {"secretName": "web-tls", "dnsNames": ["web.example.com"],
               "issuerRef": {"name": "ca", "kind": "Issuer", "group": "certs.capstan.dev"},
               "privateKey": {"rotationPolicy": "Always"},
               "revisionHistoryLimit": 1}})")))
      << json::serialize(cert);
  // Idempotent.
  json::Value again = cert;
  EXPECT_FALSE(apply_defaults(again));
  EXPECT_TRUE(json::deep_equal(again, cert));
  // Duration, key algorithm/size/encoding and usages stay implicit.
  EXPECT_EQ(json::find(cert, {"spec", "duration"}), nullptr);
  EXPECT_EQ(json::find(cert, {"spec", "privateKey", "algorithm"}), nullptr);
  EXPECT_EQ(json::find(cert, {"spec", "privateKey", "size"}), nullptr);
  EXPECT_EQ(json::find(cert, {"spec", "usages"}), nullptr);
}

TEST(CertsDefaults, ApplyDefaultsKeepsWhatIsSet) {
  json::Value cert = J(R"({"spec": {"issuerRef": {"name": "ext", "kind": "AWSPCAClusterIssuer", "group": "awspca.cert-manager.io"},
                                    "privateKey": {"algorithm": "ECDSA", "rotationPolicy": "Never"},
                                    "revisionHistoryLimit": 5}})");
  json::Value before = cert;
  EXPECT_FALSE(apply_defaults(cert));
  EXPECT_TRUE(json::deep_equal(cert, before)) << json::serialize(cert);

  // A missing issuerRef is left for the schema to report as required.
  json::Value no_spec = J(R"({"metadata": {"name": "x"}})");
  EXPECT_TRUE(apply_defaults(no_spec));
  EXPECT_EQ(json::find(no_spec, {"spec", "issuerRef"}), nullptr);
  EXPECT_EQ(json::get_string(no_spec, {"spec", "privateKey", "rotationPolicy"}), "Always");

  json::Value not_an_object = J("[]");
  EXPECT_FALSE(apply_defaults(not_an_object));
}

TEST(CertsDefaults, CertificateRequestDefaultsTheIssuerGroup) {
  json::Value cr = J(R"({"spec": {"issuerRef": {"name": "ca"}, "request": "eA=="}})");
  EXPECT_TRUE(apply_certificate_request_defaults(cr));
  EXPECT_EQ(json::get_string(cr, {"spec", "issuerRef", "group"}), "certs.capstan.dev");
  EXPECT_EQ(json::find(cr, {"spec", "issuerRef", "kind"}), nullptr);  // as cert-manager's CRD
  EXPECT_FALSE(apply_certificate_request_defaults(cr));
}

TEST(CertsDefaults, EffectiveValuesOfAnEmptySpec) {
  CertificateSpec s;
  EXPECT_EQ(effective_duration(s), nanoseconds(2160h));
  EXPECT_EQ(effective_key_algorithm(s), pki::KeyAlgorithm::RSA);
  EXPECT_EQ(effective_key_size(s), 2048);
  EXPECT_EQ(effective_key_encoding(s), pki::KeyEncoding::PKCS1);
  EXPECT_EQ(effective_rotation_policy(s), RotationPolicy::Always);
  EXPECT_EQ(effective_revision_history_limit(s), 1);
  EXPECT_EQ(effective_usages(s), (std::vector<std::string>{"digital signature", "key encipherment"}));
  EXPECT_TRUE(effective_encode_usages_in_request(s));
  EXPECT_EQ(effective_issuer_ref(IssuerReference{"ca", "", ""}), (IssuerReference{"ca", "Issuer", "certs.capstan.dev"}));
  EXPECT_TRUE(is_builtin_issuer(IssuerReference{"ca", "ClusterIssuer", ""}));
  EXPECT_FALSE(is_builtin_issuer(IssuerReference{"ca", "Issuer", "awspca.cert-manager.io"}));
}

TEST(CertsDefaults, EffectiveValuesFollowTheSpec) {
  EXPECT_EQ(effective_key_size(spec(R"({"privateKey": {"algorithm": "ECDSA"}})")), 256);
  EXPECT_EQ(effective_key_size(spec(R"({"privateKey": {"algorithm": "ECDSA", "size": 521}})")), 521);
  EXPECT_EQ(effective_key_size(spec(R"({"privateKey": {"algorithm": "Ed25519", "size": 4096}})")), 256);
  EXPECT_EQ(effective_key_size(spec(R"({"privateKey": {"size": 4096}})")), 4096);
  EXPECT_EQ(effective_key_algorithm(spec(R"({"privateKey": {"algorithm": "Ed25519"}})")), pki::KeyAlgorithm::Ed25519);
  EXPECT_EQ(effective_key_encoding(spec(R"({"privateKey": {"encoding": "PKCS8"}})")), pki::KeyEncoding::PKCS8);
  EXPECT_EQ(effective_rotation_policy(spec(R"({"privateKey": {"rotationPolicy": "Never"}})")), RotationPolicy::Never);
  EXPECT_EQ(effective_revision_history_limit(spec(R"({"revisionHistoryLimit": 7})")), 7);
  EXPECT_FALSE(effective_encode_usages_in_request(spec(R"({"encodeUsagesInRequest": false})")));
  EXPECT_EQ(effective_duration(spec(R"({"duration": "24h"})")), nanoseconds(24h));
  EXPECT_EQ(effective_usages(spec(R"({"isCA": true})")),
            (std::vector<std::string>{"digital signature", "key encipherment", "cert sign"}));
  EXPECT_EQ(effective_usages(spec(R"({"isCA": true, "usages": ["cert sign", "crl sign"]})")),
            (std::vector<std::string>{"cert sign", "crl sign"}));
  EXPECT_EQ(effective_usages(spec(R"({"usages": ["server auth"]})")), (std::vector<std::string>{"server auth"}));

  try {
    effective_key_algorithm(spec(R"({"privateKey": {"algorithm": "DSA"}})"));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), R"(spec.privateKey.algorithm: unsupported value "DSA")");
  }
  EXPECT_THROW(effective_key_encoding(spec(R"({"privateKey": {"encoding": "DER"}})")), std::invalid_argument);
  EXPECT_THROW(effective_rotation_policy(spec(R"({"privateKey": {"rotationPolicy": "Sometimes"}})")), std::invalid_argument);
}

TEST(CertsDefaults, RenewBeforeAndRenewalTime) {
  const nanoseconds lifetime = 90 * 24h;
  // Default: a third of the actual lifetime, so renewal at 2/3.
  EXPECT_EQ(effective_renew_before(CertificateSpec{}, lifetime), nanoseconds(30 * 24h));
  EXPECT_EQ(effective_renew_before(spec(R"({"renewBefore": "360h"})"), lifetime), nanoseconds(360h));
  // renewBefore not shorter than the lifetime the issuer gave: ignored.
  EXPECT_EQ(effective_renew_before(spec(R"({"renewBefore": "2200h"})"), lifetime), nanoseconds(30 * 24h));
  EXPECT_EQ(effective_renew_before(spec(R"({"renewBeforePercentage": 25})"), 60min), nanoseconds(15min));
  EXPECT_EQ(effective_renew_before(spec(R"({"renewBeforePercentage": 100})"), 60min), nanoseconds(20min));
  // No overflow for a 100-year lifetime at 50%.
  const nanoseconds century = 876000h;
  EXPECT_EQ(effective_renew_before(spec(R"({"renewBeforePercentage": 50})"), century), nanoseconds(438000h));

  auto nb = *meta::parse_rfc3339("2026-01-01T00:00:00Z");
  auto na = *meta::parse_rfc3339("2026-01-01T00:00:10Z");
  // 10s / 3 = 3.333s before expiry -> 6.666s after issuance, truncated to 6s.
  EXPECT_EQ(meta::format_rfc3339_micro(renewal_time(CertificateSpec{}, nb, na)), "2026-01-01T00:00:06.000000Z");
  auto na90 = *meta::parse_rfc3339("2026-04-01T00:00:00Z");
  EXPECT_EQ(meta::format_rfc3339(renewal_time(CertificateSpec{}, nb, na90)), "2026-03-02T00:00:00Z");
}

TEST(CertsDefaults, IssuanceBackoff) {
  EXPECT_EQ(issuance_backoff(0), nanoseconds(1h));
  EXPECT_EQ(issuance_backoff(1), nanoseconds(1h));
  EXPECT_EQ(issuance_backoff(2), nanoseconds(2h));
  EXPECT_EQ(issuance_backoff(6), nanoseconds(32h));
  EXPECT_EQ(issuance_backoff(7), nanoseconds(32h));
  EXPECT_EQ(issuance_backoff(1000), nanoseconds(32h));
}

}  // namespace
}  // namespace capstan::apis::certs::v1
