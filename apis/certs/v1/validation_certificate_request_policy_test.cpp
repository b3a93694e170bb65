// CertificateRequestPolicy: decoding, the CRD's schema bounds and webhook validation.
#include "apis/certs/v1/certificate_request_policy.h"
#include "apis/certs/v1/group.h"
#include "apis/certs/v1/validation.h"

#include "apis/certs/v1/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apis::certs::v1 {
namespace {

using testing::errors_of;
using testing::Y;
using Strings = std::vector<std::string>;

Strings errors(std::string_view spec_yaml) {
  json::Value policy = Y("apiVersion: certs.capstan.dev/v1\nkind: CertificateRequestPolicy\nmetadata: {name: p}\n");
  policy.get_object()["spec"] = Y(spec_yaml);
  return errors_of(validate_certificate_request_policy(policy, nullptr));
}

TEST(CertificateRequestPolicyTypes, DecodesApproverPolicyShape) {
  auto p = CertificateRequestPolicy::from_json(Y(R"(
apiVersion: certs.capstan.dev/v1
kind: CertificateRequestPolicy
metadata: {name: example-com}
spec:
  allowed:
    commonName: {value: "example.com", required: true}
    dnsNames: {values: ["example.com", "*.example.com"]}
    isCA: false
    usages: ["server auth"]
  constraints:
    maxDuration: 2160h
    privateKey: {algorithm: RSA, minSize: 2048}
  selector:
    issuerRef: {name: letsencrypt-prod, kind: Issuer, group: certs.capstan.dev}
    namespace: {matchNames: ["team-*"], matchLabels: {env: prod}}
)"));
  ASSERT_TRUE(p.spec.allowed && p.spec.allowed->common_name);
  EXPECT_EQ(p.spec.allowed->common_name->value, "example.com");
  EXPECT_TRUE(p.spec.allowed->common_name->required);
  EXPECT_EQ(p.spec.allowed->dns_names->values, (Strings{"example.com", "*.example.com"}));
  EXPECT_FALSE(p.spec.allowed->ip_addresses.has_value()) << "unset and empty stay distinct";
  EXPECT_EQ(p.spec.allowed->is_ca, false);
  EXPECT_EQ(p.spec.constraints->max_duration, std::chrono::hours(2160));
  EXPECT_EQ(p.spec.constraints->private_key->min_size, 2048);
  EXPECT_EQ(p.spec.selector.issuer_ref->name, "letsencrypt-prod");
  EXPECT_EQ(p.spec.selector.namespace_->match_labels.at("env"), "prod");
  // The selector's `{}` survives a round trip (it is the wildcard, not "unset").
  auto wildcard = CertificateRequestPolicy::from_json(Y("metadata: {name: w}\nspec: {selector: {issuerRef: {}}}"));
  EXPECT_EQ(json::serialize(*json::find(wildcard.to_json(), {"spec", "selector"})), R"({"issuerRef":{}})");
}

TEST(CertificateRequestPolicyValidation, SamplesAreValid) {
  EXPECT_EQ(errors("selector: {issuerRef: {}}"), Strings{});
  EXPECT_EQ(errors("selector: {namespace: {matchNames: [shop]}}"), Strings{});
  EXPECT_EQ(errors(R"(
allowed:
  commonName: {value: "*", required: true}
  dnsNames: {values: ["*.shop.example"], required: true}
  ipAddresses: {values: ["10.0.0.*"]}
  uris: {values: ["spiffe://shop/*"]}
  emailAddresses: {values: ["*@shop.example"]}
  isCA: false
  usages: [digital signature, key encipherment, server auth]
constraints: {minDuration: 1h, maxDuration: 720h, privateKey: {algorithm: ECDSA, minSize: 256, maxSize: 384}}
selector: {issuerRef: {name: "shop-*", kind: Issuer}}
)"),
            Strings{});
}

TEST(CertificateRequestPolicyValidation, RefusesNamingTheField) {
  EXPECT_EQ(errors("allowed: {isCA: true}"),
            Strings{"spec.selector: Required value: one of issuerRef or namespace must be defined, hint: `{}` on either field is a "
                    "wildcard match"});
  EXPECT_EQ(errors("selector: {issuerRef: {}}\nconstraints: {minDuration: 2h, maxDuration: 1h}"),
            Strings{"spec.constraints.maxDuration: Invalid value: \"1h0m0s\": maxDuration must be greater than or equal to minDuration"});
  EXPECT_EQ(errors("selector: {issuerRef: {}}\nconstraints: {minDuration: -1h}"),
            Strings{"spec.constraints.minDuration: Invalid value: \"-1h0m0s\": must be 0 or longer"});
  EXPECT_EQ(errors("selector: {issuerRef: {}}\nconstraints: {privateKey: {minSize: 4096, maxSize: 2048}}"),
            Strings{"spec.constraints.privateKey.maxSize: Invalid value: 2048: maxSize must be greater than or equal to minSize"});
  EXPECT_EQ(errors("selector: {issuerRef: {}}\nconstraints: {privateKey: {algorithm: DSA}}"),
            Strings{"spec.constraints.privateKey.algorithm: Unsupported value: \"DSA\": supported values: \"RSA\", \"ECDSA\", \"Ed25519\""});
  EXPECT_EQ(errors("selector: {issuerRef: {}}\nallowed: {usages: [server auth, teleport]}"),
            Strings{"spec.allowed.usages[1]: Unsupported value: \"teleport\": supported values: " + [] {
              std::string all;
              for (auto u : kKeyUsages) all += (all.empty() ? "\"" : ", \"") + std::string(u) + "\"";
              return all;
            }()});
  EXPECT_EQ(errors("selector: {issuerRef: {}}\nallowed: {dnsNames: {required: true}}"),
            Strings{"spec.allowed.dnsNames.required: Invalid value: true: cannot be required when no values are allowed"});
  EXPECT_EQ(errors("selector: {issuerRef: {}}\nallowed: {commonName: {required: true}}"),
            Strings{"spec.allowed.commonName.required: Invalid value: true: cannot be required when no value is allowed"});
  EXPECT_EQ(errors("selector: {namespace: {matchLabels: {\"bad key!\": x}}}").size(), 1u);
  EXPECT_EQ(errors("selector: {issuerRef: {}}\nallowed: {dnsNames: {values: 3}}"),
            Strings{"spec: Invalid value: null: spec.allowed.dnsNames.values: expected an array, got number"});
}

TEST(CertificateRequestPolicyValidation, BoundsEveryList) {
  std::string many = "[";
  for (std::size_t i = 0; i <= policy_limits::kMaxValues; ++i) many += (i ? ",x" : "x") + std::to_string(i);
  many += "]";
  EXPECT_EQ(errors("selector: {issuerRef: {}}\nallowed: {dnsNames: {values: " + many + "}}"),
            Strings{"spec.allowed.dnsNames.values: Too many: 101: must have at most 100 items"});
  EXPECT_EQ(errors("selector: {namespace: {matchNames: " + many + "}}"),
            Strings{"spec.selector.namespace.matchNames: Too many: 101: must have at most 100 items"});
  const std::string long_value(policy_limits::kMaxValueLength + 1, 'a');
  EXPECT_EQ(errors("selector: {issuerRef: {}}\nallowed: {uris: {values: [" + long_value + "]}}"),
            Strings{"spec.allowed.uris.values[0]: Too long: may not be more than 1024 bytes"});
  EXPECT_EQ(errors("selector: {issuerRef: {name: " + std::string(254, 'n') + "}}"),
            Strings{"spec.selector.issuerRef.name: Too long: may not be more than 253 bytes"});
  // The schema holds the same bounds.
  const auto schema = CertificateRequestPolicy::schema().json();
  const auto* values = json::find(schema, {"properties", "spec", "properties", "allowed", "properties", "dnsNames", "properties", "values"});
  ASSERT_NE(values, nullptr);
  EXPECT_EQ(json::get_int(*values, {"maxItems"}), 100);
  EXPECT_EQ(json::get_int(*values, {"items", "maxLength"}), 1024);
}

}  // namespace
}  // namespace capstan::apis::certs::v1
