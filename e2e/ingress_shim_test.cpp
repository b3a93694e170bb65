// cert-manager's ingress-shim as users meet it, on both backends: an Ingress annotated with a
// ClusterIssuer gets a Ready Certificate (and its Secret) per TLS secret, for the entry's hosts;
// the Certificate follows the Ingress's hosts, goes when its entry goes, and a Certificate the
// Ingress does not own is left alone with a BadConfig event on the Ingress.
#include "testing/certs_manifests.h"
#include "testing/controller_fixture.h"

#include <gtest/gtest.h>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const std::string kSetup = manifests::kShopAndSelfSigned + R"(---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: by-hand, namespace: shop}
spec: {secretName: by-hand, dnsNames: [hand.example.com], issuerRef: {name: selfsigned, kind: ClusterIssuer}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  namespace: shop
  annotations: {certs.capstan.dev/cluster-issuer: selfsigned, certs.capstan.dev/duration: 2160h}
spec:
  rules:
  - host: shop.example.com
    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}
  tls:
  - {hosts: [shop.example.com, www.shop.example.com], secretName: shop-tls}
  - {hosts: [api.example.com], secretName: api-tls}
)";

class IngressShimE2E : public ControllerFixture {
 protected:
  IngressShimE2E() : ControllerFixture({"ingress-shim", false, "ingresses,certificates,events"}) {}
  std::vector<std::string> manager_flags() override { return {"--controllers=certificates"}; }

  std::string field(const std::string& name, const std::string& path) {
    return get({"get", "certificate", name, "-n", "shop", "--ignore-not-found", "-o", "jsonpath={" + path + "}"});
  }
};

TEST_P(IngressShimE2E, AnAnnotatedIngressGetsItsCertificatesAndKeepsThemInStep) {
  kubectl_->ok({"apply", "-f", "-"}, kSetup);
  ASSERT_TRUE(eventually([&] { return condition("certificate", "shop-tls", "shop", "Ready") == "True"; }, 60s)) << manager_->logs();
  EXPECT_EQ(field("shop-tls", ".spec.dnsNames"), R"(["shop.example.com","www.shop.example.com"])");
  EXPECT_EQ(field("shop-tls", ".spec.duration"), "2160h");
  EXPECT_EQ(field("shop-tls", ".spec.issuerRef.kind"), "ClusterIssuer");
  EXPECT_EQ(field("shop-tls", ".metadata.ownerReferences[0].kind") + "/" + field("shop-tls", ".metadata.ownerReferences[0].name"), "Ingress/web");
  EXPECT_TRUE(eventually([&] { return condition("certificate", "api-tls", "shop", "Ready") == "True"; }, 60s));
  EXPECT_NE(get({"get", "secret", "shop-tls", "-n", "shop", "-o", "jsonpath={.type}"}).find("kubernetes.io/tls"), std::string::npos);
  EXPECT_NE(get({"get", "events", "-n", "shop", "--field-selector", "reason=CreateCertificate", "-o", "jsonpath={.items[*].message}"})
                .find(R"(Successfully created Certificate "shop-tls")"),
            std::string::npos);

  // New hosts reach the Certificate (and a new certificate is issued for them).
  kubectl_->ok({"patch", "ingress", "web", "-n", "shop", "--type=json", "-p",
                R"([{"op":"add","path":"/spec/tls/0/hosts/-","value":"m.shop.example.com"}])"});
  EXPECT_TRUE(eventually([&] { return field("shop-tls", ".spec.dnsNames").find("m.shop.example.com") != std::string::npos; }, 30s));

  // An entry that goes takes its Certificate; one naming a Certificate made by hand leaves it alone.
  kubectl_->ok({"patch", "ingress", "web", "-n", "shop", "--type=json", "-p",
                R"([{"op":"replace","path":"/spec/tls/1","value":{"hosts":["hand.example.com","other.example.com"],"secretName":"by-hand"}}])"});
  EXPECT_TRUE(eventually([&] { return field("api-tls", ".metadata.name").empty(); }, 30s)) << "the Certificate of the removed entry stayed";
  EXPECT_TRUE(eventually([&] {
    return get({"get", "events", "-n", "shop", "--field-selector", "reason=BadConfig", "-o", "jsonpath={.items[*].message}"})
               .find("Certificate by-hand exists and is not owned by this Ingress") != std::string::npos;
  }, 30s));
  EXPECT_EQ(field("by-hand", ".spec.dnsNames"), R"(["hand.example.com"])");
  EXPECT_EQ(field("by-hand", ".metadata.ownerReferences"), "");
}

CAPSTAN_E2E_BACKENDS(IngressShimE2E);

// The same for Gateway API Gateways (--gateway-shim): the Gateway CRD as the Gateway API project
// installs it (its schema left open here: the shim reads listeners only).
const char* kGatewayCrd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gateways.gateway.networking.k8s.io
  annotations: {api-approved.kubernetes.io: "https://github.com/kubernetes-sigs/gateway-api/pull/2466"}
spec:
  group: gateway.networking.k8s.io
  names: {kind: Gateway, listKind: GatewayList, plural: gateways, singular: gateway}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
)";

class GatewayShimE2E : public ControllerFixture {
 protected:
  GatewayShimE2E() : ControllerFixture({"gateway-shim", false, "gateways,certificates,events"}) {}
  std::vector<std::string> manager_flags() override { return {"--controllers=certificates", "--gateway-shim"}; }
  void before_manager() override {
    kubectl_->ok({"apply", "-f", "-"}, kGatewayCrd);
    kubectl_->ok({"wait", "--for=condition=Established", "crd/gateways.gateway.networking.k8s.io", "--timeout=60s"});
  }
  std::string field(const std::string& name, const std::string& path) {
    return get({"get", "certificate", name, "-n", "shop", "--ignore-not-found", "-o", "jsonpath={" + path + "}"});
  }
};

TEST_P(GatewayShimE2E, AnAnnotatedGatewayGetsACertificatePerSecretOfItsListeners) {
  kubectl_->ok({"apply", "-f", "-"}, manifests::kShopAndSelfSigned + R"(---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: edge
  namespace: shop
  annotations: {certs.capstan.dev/cluster-issuer: selfsigned}
spec:
  gatewayClassName: envoy
  listeners:
  - {name: http, port: 80, protocol: HTTP, hostname: shop.example.com}
  - {name: https, port: 443, protocol: HTTPS, hostname: shop.example.com, tls: {certificateRefs: [{name: shop-tls}]}}
  - {name: https-www, port: 443, protocol: HTTPS, hostname: www.shop.example.com, tls: {certificateRefs: [{name: shop-tls}]}}
  - {name: api, port: 443, protocol: HTTPS, hostname: api.example.com, tls: {certificateRefs: [{name: api-tls}]}}
  - {name: nohost, port: 8443, protocol: HTTPS, tls: {certificateRefs: [{name: lost-tls}]}}
)");
  ASSERT_TRUE(eventually([&] { return condition("certificate", "shop-tls", "shop", "Ready") == "True"; }, 60s)) << manager_->logs();
  EXPECT_EQ(field("shop-tls", ".spec.dnsNames"), R"(["shop.example.com","www.shop.example.com"])");
  EXPECT_EQ(field("shop-tls", ".metadata.ownerReferences[0].kind") + "/" + field("shop-tls", ".metadata.ownerReferences[0].name"),
            "Gateway/edge");
  EXPECT_TRUE(eventually([&] { return condition("certificate", "api-tls", "shop", "Ready") == "True"; }, 60s));
  EXPECT_EQ(field("lost-tls", ".metadata.name"), "");
  EXPECT_TRUE(eventually([&] {
    return get({"get", "events", "-n", "shop", "--field-selector", "reason=BadConfig", "-o", "jsonpath={.items[*].message}"})
               .find("spec.listeners[4].hostname: the listener has no hostname to put in a certificate") != std::string::npos;
  }, 30s));

  // The api listener goes: so does its Certificate (every listener readable once the bad one is fixed).
  kubectl_->ok({"patch", "gateway", "edge", "-n", "shop", "--type=json", "-p",
                R"([{"op":"remove","path":"/spec/listeners/4"},{"op":"remove","path":"/spec/listeners/3"}])"});
  EXPECT_TRUE(eventually([&] { return field("api-tls", ".metadata.name").empty(); }, 30s)) << "the Certificate of the removed listener stayed";
  EXPECT_EQ(condition("certificate", "shop-tls", "shop", "Ready"), "True");
}

CAPSTAN_E2E_BACKENDS(GatewayShimE2E);

}  // namespace
}  // namespace capstan::e2e
