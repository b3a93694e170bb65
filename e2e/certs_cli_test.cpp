// `capstan certs` as a user runs it against a cluster, on both backends, with the internal
// approver off: a CertificateRequest waits until `capstan certs approve`, approving twice is an
// error naming the request, `status` and `inspect` describe the Certificate and its Secret (text
// and -o json), `renew` starts a new revision, and `deny` fails that revision visibly.
#include "runtime/json/json.h"
#include "runtime/pki/pki.h"
#include "testing/certs_manifests.h"
#include "testing/controller_fixture.h"

#include <sys/stat.h>

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
  kubectl_->ok({"apply", "-f", "-"}, manifests::kShopAndSelfSigned + R"(---
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

// A cert-manager manifest converted for Capstan, and a CertificateRequest made from it whose key
// never leaves this machine: create-csr waits (--fetch-certificate) until the request is
// approved and signed, then writes the chain next to the key it generated.
TEST_P(CertsCliE2E, ConvertAndCreateCsrWithALocalKey) {
  // A CA issuer (a SelfSigned issuer signs with the request's own key, which stays local here).
  kubectl_->ok({"apply", "-f", "-"}, manifests::kShopCa);
  ASSERT_TRUE(eventually([&] { return !field("certificaterequest", "shop-root-1", ".metadata.name").empty(); }, 60s)) << manager_->logs();
  ASSERT_EQ(certs({"approve", "shop-root-1", "-n", "shop"}).code, 0);
  ASSERT_TRUE(eventually([&] { return condition("certificate", "shop-root", "shop", "Ready") == "True"; }, 60s)) << manager_->logs();
  TempDir dir("certs-cli");
  const std::string manifest = dir.write("api.yaml", R"(apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: api, namespace: shop}
spec:
  secretName: api-tls
  dnsNames: [api.shop.example]
  privateKey: {algorithm: ECDSA, size: 384}
  issuerRef: {name: shop-ca, kind: Issuer, group: cert-manager.io}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: api
  namespace: shop
  annotations: {cert-manager.io/issuer: shop-ca}
spec: {tls: [{hosts: [api.shop.example], secretName: api-ingress-tls}], rules: [{host: api.shop.example}]}
)");
  auto converted = certs({"convert", "-f", manifest});
  ASSERT_EQ(converted.code, 0) << converted.err;
  EXPECT_TRUE(has(converted.out, "apiVersion: certs.capstan.dev/v1")) << converted.out;
  EXPECT_TRUE(has(converted.out, "group: certs.capstan.dev")) << converted.out;
  EXPECT_TRUE(has(converted.out, "certs.capstan.dev/issuer: shop-ca")) << converted.out;
  EXPECT_FALSE(has(converted.out, "cert-manager.io")) << converted.out;
  // What convert writes, the API server takes (dry run: nothing is made).
  kubectl_->ok({"apply", "--dry-run=server", "-f", "-"}, converted.out);

  Process::Options p;
  p.args = {capstan_bin(), "certs", "create-csr", "api-local", "-f", manifest, "-n", "shop", "--fetch-certificate", "--timeout", "90s",
            "--output-key-file", dir.file("api.key"), "--output-certificate-file", dir.file("api.crt"), "--kubeconfig", server_->kubeconfig()};
  Process create(p);
  ASSERT_TRUE(eventually([&] { return !field("certificaterequest", "api-local", ".metadata.name").empty(); }, 30s)) << create.err();
  auto approved = certs({"approve", "api-local", "-n", "shop"});
  EXPECT_EQ(approved.code, 0) << approved.err;
  auto code = create.wait(90s);
  ASSERT_TRUE(code) << "create-csr did not return";
  EXPECT_EQ(*code, 0) << create.err();
  EXPECT_TRUE(has(create.out(), "CertificateRequest shop/api-local created; private key written to " + dir.file("api.key"))) << create.out();
  EXPECT_TRUE(has(create.out(), "certificate written to " + dir.file("api.crt"))) << create.out();

  struct stat st {};
  ASSERT_EQ(::stat(dir.file("api.key").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto key = pki::PrivateKey::from_pem(read_file(dir.file("api.key")));
  EXPECT_EQ(pki::algorithm_name(key.algorithm()), "ECDSA");
  EXPECT_EQ(key.size(), 384);
  auto chain = pki::Certificate::parse_chain(read_file(dir.file("api.crt")));
  ASSERT_FALSE(chain.empty());
  EXPECT_TRUE(key.matches(chain[0]));
  EXPECT_EQ(chain[0].dns_names(), std::vector<std::string>{"api.shop.example"});
  EXPECT_EQ(field("certificaterequest", "api-local", ".metadata.annotations.certs\\.capstan\\.dev/certificate-name"), "api");

  // Never overwritten: the same key file again is refused before anything is made.
  auto again = certs({"create-csr", "api-other", "-f", manifest, "-n", "shop", "--output-key-file", dir.file("api.key")});
  EXPECT_EQ(again.code, 1);
  EXPECT_TRUE(has(again.err, "it is not overwritten")) << again.err;
  EXPECT_EQ(field("certificaterequest", "api-other", ".metadata.name"), "");
  // A manifest of another namespace is named.
  auto other_ns = certs({"create-csr", "-f", manifest, "-n", "default", "--output-key-file", dir.file("x.key")});
  EXPECT_EQ(other_ns.code, 1);
  EXPECT_TRUE(has(other_ns.err, R"(the Certificate is in namespace "shop" but the request would be made in "default")")) << other_ns.err;
}

CAPSTAN_E2E_BACKENDS(CertsCliE2E);

}  // namespace
}  // namespace capstan::e2e
