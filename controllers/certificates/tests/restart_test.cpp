// The manager killed with SIGKILL mid-issuance and started again: every Certificate ends
// Ready with exactly one Secret, one request and no temporary key Secret left.
#include "controllers/certificates/constants.h"
#include "controllers/certificates/tests/harness.h"
#include "testing/process.h"
#include "runtime/meta/object.h"
#include "runtime/pki/pki.h"

#include <gtest/gtest.h>

namespace capstan::certificates {
namespace {

using namespace testing;

std::unique_ptr<e2e::Process> start_manager(const std::string& kubeconfig, const std::string& log_prefix) {
  e2e::Process::Options o;
  o.args = {CERTIFICATES_TEST_MANAGER, kubeconfig};
  o.stdout_path = log_prefix + ".out";
  o.stderr_path = log_prefix + ".err";
  return std::make_unique<e2e::Process>(o);
}

class Restart : public ::testing::TestWithParam<e2e::Backend> {};

TEST_P(Restart, SigkillMidIssuanceLeavesNothingBehind) {
  HarnessOptions o;
  o.start = false;  // the controllers run in a child process
  o.backend = GetParam();
  Harness h(o);
  integration::TempDir logs("certs-restart");
  constexpr int kCount = 8;
  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Issuer","metadata":{"name":"late-ca","namespace":"shop"},
      "spec":{"ca":{"secretName":"late-ca"}}})");
  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Issuer","metadata":{"name":"ss","namespace":"shop"},"spec":{"selfSigned":{}}})");
  for (int i = 0; i < kCount; ++i) {
    std::string n = "c" + std::to_string(i);
    // Half wait on a CA that is not there yet (stuck mid-issuance for sure), half issue at once.
    std::string issuer = i % 2 ? "late-ca" : "ss";
    h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":")" + n +
            R"(","namespace":"shop"},"spec":{"secretName":")" + n + R"(-tls","dnsNames":[")" + n +
            R"(.example"],"privateKey":{"algorithm":"RSA","size":4096},"issuerRef":{"name":")" + issuer + R"("}}})");
  }
  auto first = start_manager(h.kubeconfig_path(), logs.path().string() + "/first");
  // Kill once every stuck Certificate has its request (so keys and requests exist mid-flight).
  bool mid = integration::eventually(
      [&] {
        for (int i = 1; i < kCount; i += 2)
          if (!h.get(kCertificateRequestType.gvr, "shop", "c" + std::to_string(i) + "-1")) return false;
        return true;
      },
      60s, 20ms);
  first->kill_now();
  first->wait(10s);
  ASSERT_TRUE(mid) << first->err();
  std::size_t temp_keys = h.list(kSecretType.gvr, "shop", "certs.capstan.dev/next-private-key=true").size();
  EXPECT_GE(temp_keys, static_cast<std::size_t>(kCount / 2));
  std::cout << "[ figures ] killed with " << temp_keys << " temporary key Secrets and "
            << h.list(kCertificateRequestType.gvr, "shop").size() << " requests in flight\n";

  // The CA arrives; a second manager takes over from what the API holds.
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  auto ca = pki::self_signed_ca("late", std::chrono::hours(24), key);
  h.client().create(kSecretType.gvr, "shop",
                    json::Object{{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", json::Object{{"name", "late-ca"}}},
                                 {"type", "kubernetes.io/tls"},
                                 {"data", json::Object{{"tls.crt", meta::base64_encode(ca.to_pem())},
                                                       {"tls.key", meta::base64_encode(key.to_pem())}}}});
  auto second = start_manager(h.kubeconfig_path(), logs.path().string() + "/second");
  for (int i = 0; i < kCount; ++i) {
    std::string n = "c" + std::to_string(i);
    json::Value c = h.wait_ready("shop", n, 1, 90s);
    EXPECT_EQ(revision_of(c), 1) << n;
    auto data = h.secret_data("shop", n + "-tls");
    EXPECT_TRUE(pki::PrivateKey::from_pem(data["tls.key"]).matches(pki::Certificate::parse_pem(data["tls.crt"]))) << n;
  }
  // Exactly one Secret per Certificate (plus the CA's), one request each, no orphans.
  EXPECT_TRUE(integration::eventually([&] { return h.list(kSecretType.gvr, "shop", "certs.capstan.dev/next-private-key=true").empty(); }, 10s));
  EXPECT_EQ(h.list(kSecretType.gvr, "shop", "controller.certs.capstan.dev/fao=true").size(), static_cast<std::size_t>(kCount));
  EXPECT_EQ(h.list(kCertificateRequestType.gvr, "shop").size(), static_cast<std::size_t>(kCount));
  second->stop(10s);
  if (HasFailure()) std::cerr << "first manager:\n" << first->err() << "\nsecond manager:\n" << second->err();
}

CAPSTAN_E2E_BACKENDS(Restart);

}  // namespace
}  // namespace capstan::certificates
