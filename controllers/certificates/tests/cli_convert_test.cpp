#include "controllers/certificates/cli/convert.h"

#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::certificates::cli {
namespace {

Converted convert(std::string_view yaml) { return convert_from_cert_manager(json::from_yaml_documents(yaml)); }

TEST(CertsConvert, WhatCapstanDoesNotServeIsNamedInTheNotes) {
  auto out = convert(R"(apiVersion: cert-manager.io/v1alpha2
kind: Certificate
metadata: {name: old, namespace: shop}
---
apiVersion: cert-manager.io/v1
kind: Issuer
metadata: {name: vault, namespace: shop}
spec: {vault: {server: https://vault.example}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: hooks, annotations: {cert-manager.io/inject-ca-from: shop/hooks-tls}}
---
apiVersion: acme.cert-manager.io/v1
kind: Challenge
metadata: {name: c, namespace: shop}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: untouched, namespace: shop, annotations: {other.io/a: b}}
)");
  ASSERT_EQ(out.objects.size(), 4u);  // the Challenge is dropped
  EXPECT_EQ(json::get_string(out.objects[0], {"apiVersion"}), "cert-manager.io/v1alpha2");
  EXPECT_EQ(json::get_string(out.objects[1], {"apiVersion"}), "certs.capstan.dev/v1");
  EXPECT_EQ(json::get_string(out.objects[2], {"metadata", "annotations", "cert-manager.io/inject-ca-from"}), "shop/hooks-tls");
  EXPECT_EQ(json::serialize(out.objects[3]),
            R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"untouched","namespace":"shop","annotations":{"other.io/a":"b"}}})");
  ASSERT_EQ(out.notes.size(), 4u);
  EXPECT_EQ(out.notes[0], "Certificate shop/old: cert-manager.io/v1alpha2 is not converted (convert it to cert-manager.io/v1 first: cmctl convert)");
  EXPECT_EQ(out.notes[1], "Issuer shop/vault: spec.vault issuers are not served by Capstan; the webhook will refuse this issuer");
  EXPECT_EQ(out.notes[2], "ValidatingWebhookConfiguration hooks: annotation cert-manager.io/inject-ca-from (cainjector) has no Capstan "
                          "counterpart; it is kept as is and does nothing");
  EXPECT_EQ(out.notes[3], "Challenge shop/c: dropped (ACME Orders and Challenges are the controller's own state; Capstan keeps them in "
                          "the CertificateRequest)");
}

TEST(CertsConvert, RequestsAndRfc2136SolversConvertWithoutNotes) {
  auto out = convert(R"(apiVersion: cert-manager.io/v1
kind: CertificateRequest
metadata: {name: r, namespace: shop}
spec: {request: eA==, issuerRef: {name: ca, group: cert-manager.io}}
---
apiVersion: cert-manager.io/v1
kind: ClusterIssuer
metadata: {name: le}
spec: {acme: {server: https://acme.example, privateKeySecretRef: {name: k}, solvers: [{dns01: {cnameStrategy: Follow, rfc2136: {nameserver: 10.0.0.53}}}]}}
)");
  EXPECT_TRUE(out.notes.empty()) << out.notes[0];
  EXPECT_EQ(json::get_string(out.objects[0], {"spec", "issuerRef", "group"}), "certs.capstan.dev");
  EXPECT_EQ(json::get_string(out.objects[1], {"apiVersion"}), "certs.capstan.dev/v1");
}

}  // namespace
}  // namespace capstan::certificates::cli

namespace capstan::certificates::cli {
namespace {

TEST(CertsConvert, ApproverPolicyKindConvertsAndNamesWhatIsDropped) {
  auto out = convert_from_cert_manager(json::from_yaml_documents(R"(apiVersion: policy.cert-manager.io/v1alpha1
kind: CertificateRequestPolicy
metadata: {name: shop}
spec:
  allowed:
    dnsNames: {values: ["*.shop.example"], validations: [{rule: "self.size() < 64"}]}
    subject: {organizations: {values: [Shop]}}
  selector: {issuerRef: {name: shop-ca, kind: Issuer, group: cert-manager.io}}
)"));
  ASSERT_EQ(out.objects.size(), 1u);
  EXPECT_EQ(json::get_string(out.objects[0], {"apiVersion"}), "certs.capstan.dev/v1");
  EXPECT_EQ(json::get_string(out.objects[0], {"spec", "selector", "issuerRef", "group"}), "certs.capstan.dev");
  EXPECT_EQ(out.notes, (std::vector<std::string>{
                           "CertificateRequestPolicy shop: spec.allowed.subject is not served by Capstan; it is dropped (a request with "
                           "a subject beyond its commonName is then judged without it)",
                           "CertificateRequestPolicy shop: spec.allowed.dnsNames.validations (CEL) are not served by Capstan; they are "
                           "dropped"}));
}

}  // namespace
}  // namespace capstan::certificates::cli
