// approver-policy's CertificateRequestPolicy as users run it, on both backends, with
// --certificate-request-approver=policy: three ServiceAccounts create CertificateRequests with
// their own tokens. alice, bound to the policy by a RoleBinding with verb `use`, asks for a name
// it allows and is Approved and issued; bob, bound too, asks for a name outside it and is Denied
// with the policy's reason; carol, bound to nothing, is left undecided — until she is bound and
// the policy changes, which re-evaluates her request while the decided ones stay as they were.
#include "runtime/json/json.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/pki.h"
#include "testing/controller_fixture.h"
#include "testing/eventually.h"
#include "webhooks/certificates/webhooks.h"

#include <gtest/gtest.h>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

std::string b64(std::string_view s) { return meta::base64_encode(s); }

// Namespace shop, a CA Issuer shop-ca (its key and certificate made here: no approval needed),
// the three ServiceAccounts, who may all create CertificateRequests in shop, and the ClusterRole
// that grants the use of policy shop-web, bound in shop to alice and bob.
std::string setup_manifest() {
  const auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  const auto ca = pki::self_signed_ca("Shop CA", std::chrono::hours(24), key);
  return R"(apiVersion: v1
kind: Namespace
metadata: {name: shop}
---
apiVersion: v1
kind: Secret
metadata: {name: shop-ca, namespace: shop}
type: kubernetes.io/tls
data: {tls.crt: )" + b64(ca.to_pem()) + ", tls.key: " + b64(key.to_pem()) + R"(}
---
apiVersion: certs.capstan.dev/v1
kind: Issuer
metadata: {name: shop-ca, namespace: shop}
spec: {ca: {secretName: shop-ca}}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: alice, namespace: shop}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: bob, namespace: shop}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: carol, namespace: shop}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: request-certificates, namespace: shop}
rules: [{apiGroups: [certs.capstan.dev], resources: [certificaterequests], verbs: [create, get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: request-certificates, namespace: shop}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: request-certificates}
subjects:
- {kind: ServiceAccount, name: alice, namespace: shop}
- {kind: ServiceAccount, name: bob, namespace: shop}
- {kind: ServiceAccount, name: carol, namespace: shop}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: use-shop-web-policy}
rules: [{apiGroups: [certs.capstan.dev], resources: [certificaterequestpolicies], verbs: [use], resourceNames: [shop-web]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: use-shop-web-policy, namespace: shop}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: use-shop-web-policy}
subjects:
- {kind: ServiceAccount, name: alice, namespace: shop}
- {kind: ServiceAccount, name: bob, namespace: shop}
)";
}

// Names under shop.example, 30 days at most, server TLS usages, ECDSA keys; requests of shop-ca.
std::string policy_manifest(const std::string& extra_label) {
  return R"(apiVersion: certs.capstan.dev/v1
kind: CertificateRequestPolicy
metadata: {name: shop-web, labels: {revision: ")" + extra_label + R"("}}
spec:
  allowed:
    dnsNames: {values: ["*.shop.example"], required: true}
    usages: [digital signature, key encipherment, server auth]
  constraints: {maxDuration: 720h, privateKey: {algorithm: ECDSA}}
  selector: {issuerRef: {name: shop-ca, kind: Issuer}}
)";
}

std::string request_manifest(const std::string& name, const std::string& dns_name) {
  pki::CertificateTemplate t;
  t.dns_names = {dns_name};
  t.usages = {"digital signature", "key encipherment", "server auth"};
  const std::string csr = pki::CertificateRequest::create(t, pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA));
  return R"(apiVersion: certs.capstan.dev/v1
kind: CertificateRequest
metadata: {name: )" + name + R"(, namespace: shop}
spec:
  request: )" + b64(csr) + R"(
  duration: 24h
  usages: [digital signature, key encipherment, server auth]
  issuerRef: {name: shop-ca, kind: Issuer}
)";
}

class CertificatePolicyE2E : public ControllerFixture {
 protected:
  CertificatePolicyE2E() : ControllerFixture({"cert-policy", false, "certificaterequests,certificaterequestpolicies,issuers"}) {}
  std::vector<std::string> manager_flags() override { return {"--controllers=certificates", "--certificate-request-approver=policy"}; }

  // The certificates webhooks in front of the API server, as the chart installs them: they stamp
  // the requester on each CertificateRequest and validate policies.
  void SetUp() override {
    ControllerFixture::SetUp();
    if (HasFatalFailure()) return;
    register_webhooks({&webhooks::certificates::configurations});
  }

  // A kubectl with ServiceAccount shop/<name>'s token.
  Kubectl as(const std::string& name) {
    return Kubectl(*dir_, service_account_kubeconfig(*kubectl_, server_->kubeconfig(), "shop", name, dir_->file(name + ".kubeconfig")));
  }
  std::string request_field(const std::string& name, const std::string& path) {
    return get({"get", "certificaterequest", name, "-n", "shop", "-o", "jsonpath={" + path + "}"});
  }
  std::string decision(const std::string& name, const std::string& type, const std::string& field = "status") {
    return condition("certificaterequest", name, "shop", type, field);
  }
};

TEST_P(CertificatePolicyE2E, BoundUsersAreApprovedOrDeniedOthersWait) {
  kubectl_->ok({"apply", "-f", "-"}, setup_manifest());
  kubectl_->ok({"apply", "-f", "-"}, policy_manifest("1"));
  ASSERT_TRUE(eventually([&] {
    return get({"get", "certificaterequestpolicy", "shop-web", "-o", R"(jsonpath={.status.conditions[?(@.type=="Ready")].status})"}) == "True";
  }, 60s)) << manager_->logs();
  ASSERT_TRUE(eventually([&] { return condition("issuer", "shop-ca", "shop", "Ready") == "True"; }, 60s)) << manager_->logs();

  as("alice").ok({"create", "-f", "-"}, request_manifest("alice-web", "web.shop.example"));
  as("bob").ok({"create", "-f", "-"}, request_manifest("bob-evil", "evil.example"));
  as("carol").ok({"create", "-f", "-"}, request_manifest("carol-web", "web.shop.example"));
  EXPECT_EQ(request_field("alice-web", ".spec.username"), "system:serviceaccount:shop:alice");

  ASSERT_TRUE(eventually([&] { return decision("alice-web", "Ready") == "True"; }, 60s)) << manager_->logs();
  EXPECT_EQ(decision("alice-web", "Approved"), "True");
  EXPECT_EQ(decision("alice-web", "Approved", "reason"), "policy.certs.capstan.dev");
  EXPECT_EQ(decision("alice-web", "Approved", "message"), R"(Approved by CertificateRequestPolicy: "shop-web")");
  auto issued = pki::Certificate::parse_pem(meta::base64_decode(request_field("alice-web", ".status.certificate")).value_or(""));
  EXPECT_EQ(issued.dns_names(), std::vector<std::string>{"web.shop.example"});

  ASSERT_TRUE(eventually([&] { return decision("bob-evil", "Denied") == "True"; }, 60s)) << manager_->logs();
  EXPECT_EQ(decision("bob-evil", "Denied", "reason"), "policy.certs.capstan.dev");
  EXPECT_EQ(decision("bob-evil", "Denied", "message"),
            R"(No policy approved this request: [shop-web: spec.allowed.dnsNames.values: Invalid value: []string{"evil.example"}: *.shop.example])");
  EXPECT_EQ(decision("bob-evil", "Approved"), "");

  // carol's request: no policy is bound to her, so nothing decides it.
  std::this_thread::sleep_for(3s);
  EXPECT_EQ(decision("carol-web", "Approved"), "");
  EXPECT_EQ(decision("carol-web", "Denied"), "");

  // Bound now, and the policy changes: her waiting request is judged again and approved; the
  // decided ones keep their conditions.
  kubectl_->ok({"create", "rolebinding", "carol-uses-shop-web", "-n", "shop", "--clusterrole=use-shop-web-policy",
                "--serviceaccount=shop:carol"});
  kubectl_->ok({"apply", "-f", "-"}, policy_manifest("2"));
  ASSERT_TRUE(eventually([&] { return decision("carol-web", "Approved") == "True"; }, 60s)) << manager_->logs();
  EXPECT_TRUE(eventually([&] { return decision("carol-web", "Ready") == "True"; }, 60s));
  EXPECT_EQ(decision("bob-evil", "Approved"), "");
  EXPECT_EQ(decision("bob-evil", "Denied"), "True");

  // The webhook refuses an invalid policy, naming the field.
  auto bad = (*kubectl_)({"apply", "-f", "-"}, R"(apiVersion: certs.capstan.dev/v1
kind: CertificateRequestPolicy
metadata: {name: bad}
spec: {selector: {}, constraints: {minDuration: 2h, maxDuration: 1h}}
)");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("spec.selector: Required value: one of issuerRef or namespace must be defined"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("spec.constraints.maxDuration"), std::string::npos) << bad.err;
}

CAPSTAN_E2E_BACKENDS(CertificatePolicyE2E);

}  // namespace
}  // namespace capstan::e2e
