// The ingress-shim's Certificates for an Ingress, as cert-manager's ingress-shim makes them.
#include "controllers/certificates/ingress_shim.h"

#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::certificates {
namespace {

using Strings = std::vector<std::string>;

json::Value ingress(const std::string& annotations, const std::string& tls) {
  return json::from_yaml("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web, namespace: shop, uid: u-1, annotations: " +
                         annotations + "}\nspec: {tls: " + tls + "}");
}

TEST(IngressShim, OneCertificatePerSecretOwnedByTheIngress) {
  auto r = certificates_for_ingress(
      ingress("{certs.capstan.dev/cluster-issuer: letsencrypt, certs.capstan.dev/duration: 2160h, certs.capstan.dev/usages: 'server auth, "
              "digital signature', certs.capstan.dev/private-key-algorithm: ECDSA, certs.capstan.dev/private-key-size: '384'}",
              "[{hosts: [shop.example.com, www.shop.example.com], secretName: shop-tls}, {hosts: [api.example.com], secretName: "
              "api-tls}, {hosts: [shop.example.com, m.shop.example.com], secretName: shop-tls}]"),
      {});
  EXPECT_TRUE(r.annotated);
  EXPECT_EQ(r.errors, Strings{});
  ASSERT_EQ(r.certificates.size(), 2u);
  EXPECT_EQ(json::serialize(r.certificates[1]),
            R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"shop-tls","namespace":"shop",)"
            R"("ownerReferences":[{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","name":"web","uid":"u-1","controller":true,)"
            R"("blockOwnerDeletion":true}]},"spec":{"duration":"2160h","usages":["server auth","digital signature"],)"
            R"("privateKey":{"algorithm":"ECDSA","size":384},"dnsNames":["shop.example.com","www.shop.example.com","m.shop.example.com"],)"
            R"("secretName":"shop-tls","issuerRef":{"name":"letsencrypt","kind":"ClusterIssuer","group":"certs.capstan.dev"}}})");
  EXPECT_EQ(json::get_string(r.certificates[0], {"metadata", "name"}), "api-tls");
}

TEST(IngressShim, IssuerKindsAndTheDefaultIssuer) {
  auto external = certificates_for_ingress(
      ingress("{certs.capstan.dev/issuer: vault, certs.capstan.dev/issuer-kind: VaultIssuer, certs.capstan.dev/issuer-group: vault.example}",
              "[{hosts: [a.example], secretName: a}]"),
      {});
  ASSERT_EQ(external.certificates.size(), 1u);
  EXPECT_EQ(json::serialize(*json::find(external.certificates[0], {"spec", "issuerRef"})),
            R"({"name":"vault","kind":"VaultIssuer","group":"vault.example"})");
  auto acme = ingress("{kubernetes.io/tls-acme: 'true'}", "[{hosts: [a.example], secretName: a}]");
  EXPECT_EQ(certificates_for_ingress(acme, {}).errors,
            Strings{"kubernetes.io/tls-acme is set but the manager has no default issuer (--default-issuer-name)"});
  auto with_default = certificates_for_ingress(acme, {"le", "ClusterIssuer", "certs.capstan.dev"});
  ASSERT_EQ(with_default.certificates.size(), 1u);
  EXPECT_EQ(json::get_string(with_default.certificates[0], {"spec", "issuerRef", "kind"}), "ClusterIssuer");
  EXPECT_FALSE(certificates_for_ingress(ingress("{}", "[{hosts: [a.example], secretName: a}]"), {}).annotated);
}

TEST(IngressShim, BadEntriesAndAnnotationsAreNamed) {
  auto r = certificates_for_ingress(ingress("{certs.capstan.dev/issuer: ca}", "[{hosts: [a.example]}, {secretName: b}, {hosts: [c.example], secretName: c}]"),
                                    {});
  EXPECT_EQ(r.errors, (Strings{"spec.tls[0]: the entry has no secretName", "spec.tls[1] (secret b): the entry has no hosts"}));
  ASSERT_EQ(r.certificates.size(), 1u) << "the good entry is still served";
  auto bad = certificates_for_ingress(
      ingress("{certs.capstan.dev/issuer: ca, certs.capstan.dev/cluster-issuer: ca}", "[{hosts: [a.example], secretName: a}]"), {});
  EXPECT_EQ(bad.errors, Strings{"both certs.capstan.dev/issuer and certs.capstan.dev/cluster-issuer are set: choose one"});
  auto duration = certificates_for_ingress(
      ingress("{certs.capstan.dev/issuer: ca, certs.capstan.dev/duration: 90d}", "[{hosts: [a.example], secretName: a}]"), {});
  EXPECT_EQ(duration.errors, Strings{"annotation certs.capstan.dev/duration: invalid duration \"90d\""});
  EXPECT_TRUE(duration.certificates.empty());
}

}  // namespace
}  // namespace capstan::certificates

namespace capstan::certificates {
namespace {

json::Value gateway(const std::string& listeners) {
  return json::from_yaml(
      "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: edge, namespace: shop, uid: g-1, annotations: "
      "{certs.capstan.dev/issuer: shop-ca}}\nspec: {gatewayClassName: envoy, listeners: " +
      listeners + "}");
}

TEST(GatewayShim, OneCertificatePerSecretWithTheHostnamesOfItsListeners) {
  auto r = certificates_for_gateway(gateway(R"([
      {name: http, port: 80, protocol: HTTP, hostname: shop.example.com},
      {name: https, port: 443, protocol: HTTPS, hostname: shop.example.com, tls: {certificateRefs: [{name: shop-tls}]}},
      {name: https-www, port: 443, protocol: HTTPS, hostname: www.shop.example.com,
       tls: {mode: Terminate, certificateRefs: [{kind: Secret, group: '', name: shop-tls}]}},
      {name: passthrough, port: 8443, protocol: TLS, hostname: db.example.com, tls: {mode: Passthrough}}])"),
                                    {});
  EXPECT_TRUE(r.annotated);
  EXPECT_EQ(r.errors, std::vector<std::string>{});
  ASSERT_EQ(r.certificates.size(), 1u);
  EXPECT_EQ(json::serialize(r.certificates[0]),
            R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"shop-tls","namespace":"shop",)"
            R"("ownerReferences":[{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","name":"edge","uid":"g-1","controller":true,)"
            R"("blockOwnerDeletion":true}]},"spec":{"dnsNames":["shop.example.com","www.shop.example.com"],"secretName":"shop-tls",)"
            R"("issuerRef":{"name":"shop-ca","kind":"Issuer","group":"certs.capstan.dev"}}})");
}

TEST(GatewayShim, ListenersThatCannotGetACertificateAreNamed) {
  auto r = certificates_for_gateway(gateway(R"([
      {name: a, port: 443, protocol: HTTPS, tls: {certificateRefs: [{name: no-host}]}},
      {name: b, port: 443, protocol: HTTPS, hostname: b.example.com, tls: {certificateRefs: [{name: other, namespace: certs}]}},
      {name: c, port: 443, protocol: HTTPS, hostname: c.example.com, tls: {certificateRefs: [{kind: ConfigMap, name: c}]}},
      {name: d, port: 443, protocol: HTTPS, hostname: d.example.com, tls: {certificateRefs: [{name: d-tls}]}}])"),
                                    {});
  EXPECT_EQ(r.errors, (std::vector<std::string>{
                          "spec.listeners[0].hostname: the listener has no hostname to put in a certificate",
                          "spec.listeners[1].tls.certificateRefs[0]: the Secret is in namespace certs; Certificates are made in the "
                          "Gateway's namespace only",
                          "spec.listeners[2].tls.certificateRefs[0]: only Secrets (core group) hold certificates, not ConfigMap"}));
  ASSERT_EQ(r.certificates.size(), 1u);  // the good listener is still served
  EXPECT_EQ(json::get_string(r.certificates[0], {"metadata", "name"}), "d-tls");
}

}  // namespace
}  // namespace capstan::certificates
