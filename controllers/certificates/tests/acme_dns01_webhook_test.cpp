// DNS-01 through cert-manager's webhook solver API, end to end on both API server backends: a
// test solver (an aggregated API server of ours, testing/dns01_webhook_solver.h) registered by
// an APIService and an ExternalName Service answers the ChallengePayloads the controller POSTs
// through the API server by setting and clearing TXT records in pebble-challtestsrv, which pebble
// validates through. Without RBAC on the solver's group the request stays pending and says what
// to grant; with it, a wildcard certificate is issued and the solver saw Present and CleanUp with
// the issuer's config, from the manager's ServiceAccount.
#include "controllers/certificates/constants.h"
#include "controllers/certificates/tests/harness.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"
#include "runtime/pki/pki.h"
#include "testing/dns01_webhook_solver.h"
#include "testing/pebble.h"

#include <gtest/gtest.h>

namespace capstan::certificates {
namespace {

using namespace testing;

class AcmeDns01Webhook : public ::testing::TestWithParam<e2e::Backend> {};

std::string ready_message(const json::Value& obj) {
  auto c = meta::find_condition(obj, "Ready");
  return c ? c->message : "";
}

TEST_P(AcmeDns01Webhook, IssuesAWildcardThroughAWebhookSolver) {
  if (!e2e::pebble_available()) GTEST_SKIP() << "pebble is installed by scripts/deps.sh";
  e2e::PebbleEnv pebble({.http_port = 0});
  HarnessOptions o;
  o.backend = GetParam();
  o.certs.acme_requeue = 200ms;
  o.certs.issuer_retry_interval = 500ms;
  o.certs.live_secret_ttl = 200ms;
  o.certs.dns01_recursive_nameservers = {pebble.challtestsrv_dns()};
  Harness h(o);

  e2e::Dns01WebhookSolver solver({.challtestsrv_management_url = pebble.challtestsrv_management_url()});
  for (const auto& m : solver.manifests()) h.apply_object(m);
  const meta::GroupVersionResource apiservices{"apiregistration.k8s.io", "v1", "apiservices"};
  ASSERT_TRUE(h.wait_for(apiservices, "", "v1alpha1.acme.capstan-test.dev",
                         [](const json::Value& a) { return condition_status(a, "Available") == "True"; }, 60s))
      << json::serialize(h.get(apiservices, "", "v1alpha1.acme.capstan-test.dev").value_or(json::Value()));

  json::Value issuer = json::parse(R"({"apiVersion":"certs.capstan.dev/v1","kind":"ClusterIssuer","metadata":{"name":"pebble-webhook"},
      "spec":{"acme":{"privateKeySecretRef":{"name":"pebble-webhook-account"},
                      "solvers":[{"dns01":{"webhook":{"groupName":"acme.capstan-test.dev","solverName":"challtestsrv",
                                                      "config":{"zone":"example.test","ttl":60}}}}]}}})",
                                   "issuer");
  auto& acme_spec = issuer.get_object()["spec"].get_object()["acme"].get_object();
  acme_spec["server"] = pebble.directory_url();
  acme_spec["caBundle"] = meta::base64_encode(pebble.client_options().tls.ca_pem);
  h.apply_object(issuer);
  ASSERT_TRUE(h.wait_for(kClusterIssuerType.gvr, "", "pebble-webhook",
                         [](const json::Value& i) { return condition_status(i, "Ready") == "True"; }))
      << pebble.logs();

  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"shop","namespace":"shop"},
      "spec":{"secretName":"shop-tls","dnsNames":["*.shop.example.test","shop.example.test"],"privateKey":{"algorithm":"ECDSA"},
              "issuerRef":{"name":"pebble-webhook","kind":"ClusterIssuer"}}})");

  // The manager may not yet create on the solver's group: the request says what to grant.
  auto refused = h.wait_for(kCertificateRequestType.gvr, "shop", "shop-1", [](const json::Value& cr) {
    return ready_message(cr).find("grant the manager's ServiceAccount `create` on resource \"challtestsrv\"") != std::string::npos;
  }, 60s);
  ASSERT_TRUE(refused) << "no RBAC hint in the request's status: "
                       << ready_message(h.get(kCertificateRequestType.gvr, "shop", "shop-1").value_or(json::Value()));
  EXPECT_EQ(condition_reason(*refused, "Ready"), "Pending");
  EXPECT_NE(ready_message(*refused).find("webhook solver \"challtestsrv\" of group \"acme.capstan-test.dev\""), std::string::npos)
      << ready_message(*refused);
  EXPECT_TRUE(solver.calls().empty());

  // The RBAC cert-manager's webhook charts grant (README: DNS-01 webhook solvers).
  h.apply_object(json::parse(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole",
      "metadata":{"name":"capstan:dns01-solver:acme.capstan-test.dev"},
      "rules":[{"apiGroups":["acme.capstan-test.dev"],"resources":["*"],"verbs":["create"]}]})", "role"));
  h.apply_object(json::parse(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding",
      "metadata":{"name":"capstan:dns01-solver:acme.capstan-test.dev"},
      "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"capstan:dns01-solver:acme.capstan-test.dev"},
      "subjects":[{"kind":"ServiceAccount","name":"capstan-manager-certificates","namespace":"capstan-system"}]})", "binding"));

  json::Value crt = h.wait_ready("shop", "shop", 1, 120s);
  if (HasFailure()) std::cerr << pebble.logs();
  auto data = h.secret_data("shop", "shop-tls");
  auto chain = pki::Certificate::parse_chain(data["tls.crt"]);
  ASSERT_GE(chain.size(), 2u);
  auto names = chain[0].dns_names();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"*.shop.example.test", "shop.example.test"}));
  auto root = pki::Certificate::parse_pem(pebble.root_pem(0));
  auto verified = pki::verify_chain(chain[0], {chain.begin() + 1, chain.end()}, {root}, {.dns_name = "www.shop.example.test"});
  EXPECT_TRUE(verified.ok) << verified.error;

  // Present for both authorizations, then CleanUp, each with the issuer's config, from the
  // manager's ServiceAccount as the API server passed it on.
  ASSERT_TRUE(integration::eventually([&] {
    int cleanups = 0;
    for (const auto& c : solver.calls()) cleanups += c.action == "CleanUp";
    return cleanups >= 2;
  }, 20s));
  const json::Value want_config = json::parse(R"({"zone":"example.test","ttl":60})", "config");
  std::set<std::string> presented_keys;
  for (const auto& c : solver.calls()) {
    SCOPED_TRACE(c.action + " " + c.uid);
    EXPECT_TRUE(c.success);
    EXPECT_EQ(c.config, want_config);
    EXPECT_EQ(c.user, "system:serviceaccount:capstan-system:capstan-manager-certificates");
    EXPECT_EQ(c.dns_name, "shop.example.test");
    EXPECT_EQ(c.resolved_fqdn, "_acme-challenge.shop.example.test.");
    EXPECT_FALSE(c.resolved_zone.empty());
    EXPECT_EQ(c.resource_namespace, "capstan-system");
    if (c.action == "Present") presented_keys.insert(c.key);
  }
  EXPECT_EQ(presented_keys.size(), 2u);  // the wildcard's and the base name's values
  std::set<std::string> cleaned_keys;
  for (const auto& c : solver.calls())
    if (c.action == "CleanUp") cleaned_keys.insert(c.key);
  EXPECT_EQ(cleaned_keys, presented_keys);
  EXPECT_EQ(h.reconcile_errors("certificaterequests-issuer"), 0);
}

CAPSTAN_E2E_BACKENDS(AcmeDns01Webhook);

}  // namespace
}  // namespace capstan::certificates
