// `capstan certs` as a user runs it against a cluster, on both backends, with the internal
// approver off: a CertificateRequest waits until `capstan certs approve`, approving twice is an
// error naming the request, `status` and `inspect` describe the Certificate and its Secret (text
// and -o json), `renew` starts a new revision, and `deny` fails that revision visibly.
#include "runtime/json/json.h"
#include "testing/controller_fixture.h"

#include <gtest/gtest.h>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

class CertsCliE2E : public ControllerFixture {
 protected:
  CertsCliE2E() : ControllerFixture({"certs-cli", false, "certificates,certificaterequests"}) {}
  std::vector<std::string> manager_flags() override {
    return {"--controllers=certificates", "--certificate-request-approver=false"};
  }
  RunResult certs(std::vector<std::string> args) {
    args.insert(args.begin(), {capstan_bin(), "certs"});
    args.insert(args.end(), {"--kubeconfig", server_->kubeconfig()});
    return run(args);
  }
  std::string field(const std::string& resource, const std::string& name, const std::string& path) {
    return get({"get", resource, name, "-n", "shop", "--ignore-not-found", "-o", "jsonpath={" + path + "}"});
  }
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_P(CertsCliE2E, ApproveStatusInspectRenewAndDeny) {
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: v1
kind: Namespace
metadata: {name: shop}
---
apiVersion: certs.capstan.dev/v1
kind: ClusterIssuer
metadata: {name: selfsigned}
spec: {selfSigned: {}}
---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: web, namespace: shop}
spec: {secretName: web-tls, dnsNames: [web.shop.example], privateKey: {algorithm: ECDSA}, issuerRef: {name: selfsigned, kind: ClusterIssuer}}
)");
  ASSERT_TRUE(eventually([&] { return !field("certificaterequest", "web-1", ".metadata.name").empty(); }, 60s)) << manager_->logs();
  // Nobody approves it: it waits.
  std::this_thread::sleep_for(2s);
  EXPECT_EQ(condition("certificate", "web", "shop", "Ready"), "False");
  auto pending = certs({"status", "certificate", "web", "-n", "shop"});
  EXPECT_EQ(pending.code, 0) << pending.err;
  EXPECT_TRUE(has(pending.out, "Issuing: True")) << pending.out;
  EXPECT_TRUE(has(pending.out, "web-1 (revision 1)")) << pending.out;

  auto approved = certs({"approve", "web-1", "-n", "shop"});
  EXPECT_EQ(approved.code, 0) << approved.err;
  EXPECT_EQ(approved.out, "Approved CertificateRequest shop/web-1\n");
  ASSERT_TRUE(eventually([&] { return condition("certificate", "web", "shop", "Ready") == "True"; }, 60s)) << manager_->logs();
  EXPECT_EQ(field("certificaterequest", "web-1", R"(.status.conditions[?(@.type=="Approved")].reason)"), "KubectlCapstan");
  auto twice = certs({"approve", "web-1", "-n", "shop"});
  EXPECT_EQ(twice.code, 1);
  EXPECT_TRUE(has(twice.err, "CertificateRequest shop/web-1 is already approved")) << twice.err;
  auto missing = certs({"status", "certificate", "nope", "-n", "shop"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_TRUE(has(missing.err, "Certificate shop/nope not found")) << missing.err;

  auto status = certs({"status", "certificate", "web", "-n", "shop", "-o", "json"});
  ASSERT_EQ(status.code, 0) << status.err;
  auto s = json::parse(status.out, "capstan certs status -o json");
  EXPECT_EQ(json::get_int(s, {"revision"}), 1);
  EXPECT_EQ(json::serialize(*json::find(s, {"secret", "certificate", "dnsNames"})), R"(["web.shop.example"])");
  EXPECT_EQ(json::serialize(*json::find(s, {"issuer", "conditions"})).find("\"Ready\"") != std::string::npos, true);

  auto inspect = certs({"inspect", "secret", "web-tls", "-n", "shop"});
  ASSERT_EQ(inspect.code, 0) << inspect.err;
  EXPECT_TRUE(has(inspect.out, "Chain verified by ca.crt: yes")) << inspect.out;
  EXPECT_TRUE(has(inspect.out, "tls.key matches the certificate: yes")) << inspect.out;
  EXPECT_TRUE(has(inspect.out, "DNS names: web.shop.example")) << inspect.out;
  EXPECT_TRUE(has(inspect.out, "Public key: ECDSA 256")) << inspect.out;

  // renew: a new revision, which deny then fails.
  auto renewed = certs({"renew", "web", "-n", "shop"});
  EXPECT_EQ(renewed.code, 0) << renewed.err;
  EXPECT_EQ(renewed.out, "Manually triggered issuance of Certificate shop/web\n");
  ASSERT_TRUE(eventually([&] { return !field("certificaterequest", "web-2", ".metadata.name").empty(); }, 60s)) << manager_->logs();
  auto again = certs({"renew", "web", "-n", "shop"});
  EXPECT_EQ(again.out, "Certificate shop/web is already being issued\n");
  auto denied = certs({"deny", "web-2", "-n", "shop", "--message", "not this week"});
  EXPECT_EQ(denied.code, 0) << denied.err;
  EXPECT_TRUE(eventually([&] {
    return has(field("certificate", "web", R"(.status.conditions[?(@.type=="Issuing")].message)"), "not this week");
  }, 60s)) << field("certificate", "web", ".status");
  EXPECT_EQ(field("certificate", "web", ".status.failedIssuanceAttempts"), "1");
  EXPECT_EQ(condition("certificate", "web", "shop", "Ready"), "True") << "the issued certificate still serves";

  auto usage = certs({"frobnicate"});
  EXPECT_EQ(usage.code, 2);
  EXPECT_TRUE(has(usage.err, "unknown subcommand \"frobnicate\"")) << usage.err;
}

CAPSTAN_E2E_BACKENDS(CertsCliE2E);

}  // namespace
}  // namespace capstan::e2e
