// DNS-01 end to end against the real pebble validating through a real BIND (Debian's bind9) on
// loopback, on both API server backends: a ClusterIssuer with an rfc2136 solver (TSIG key in a
// Secret) gets a wildcard certificate, *.shop.example.test and shop.example.test (two
// authorizations whose TXT values share one name), and the records are withdrawn afterwards. A
// wrong TSIG secret leaves the request pending with BIND's reason until the Secret is fixed.
#include "controllers/certificates/constants.h"
#include "controllers/certificates/tests/harness.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"
#include "runtime/pki/pki.h"
#include "testing/bind.h"
#include "testing/pebble.h"

#include <gtest/gtest.h>

namespace capstan::certificates {
namespace {

using namespace testing;

class AcmeDns01 : public ::testing::TestWithParam<e2e::Backend> {};

json::Value tsig_secret(const std::string& secret_base64) {
  return json::Object{{"apiVersion", "v1"},
                      {"kind", "Secret"},
                      {"metadata", json::Object{{"name", "tsig"}, {"namespace", "capstan-system"}}},
                      {"stringData", json::Object{{"secret", secret_base64}}}};
}

TEST_P(AcmeDns01, IssuesAWildcardThroughRfc2136AndBind) {
  if (!e2e::pebble_available() || !e2e::bind_available()) GTEST_SKIP() << "pebble and bind9 are installed by scripts/deps.sh";
  e2e::BindServer bind;
  HarnessOptions o;
  o.backend = GetParam();
  o.certs.acme_requeue = 200ms;
  o.certs.issuer_retry_interval = 500ms;
  o.certs.live_secret_ttl = 200ms;
  Harness h(o);
  e2e::PebbleEnv pebble({.http_port = 0, .dns_server = bind.address()});

  // A wrong secret first: BIND refuses the update and the request says so.
  h.apply_object(tsig_secret(meta::base64_encode(std::string(32, 'x'))));
  json::Value issuer = json::parse(R"({"apiVersion":"certs.capstan.dev/v1","kind":"ClusterIssuer","metadata":{"name":"pebble-dns"},
      "spec":{"acme":{"privateKeySecretRef":{"name":"pebble-dns-account"},
                      "solvers":[{"dns01":{"rfc2136":{"tsigKeyName":"capstan-test","tsigAlgorithm":"HMACSHA256",
                                                      "tsigSecretSecretRef":{"name":"tsig","key":"secret"}}}}]}}})",
                                   "issuer");
  auto& acme_spec = issuer.get_object()["spec"].get_object()["acme"].get_object();
  acme_spec["server"] = pebble.directory_url();
  acme_spec["caBundle"] = meta::base64_encode(pebble.client_options().tls.ca_pem);
  acme_spec["solvers"].get_array()[0].get_object()["dns01"].get_object()["rfc2136"].get_object()["nameserver"] = bind.address();
  h.apply_object(issuer);
  ASSERT_TRUE(h.wait_for(kClusterIssuerType.gvr, "", "pebble-dns", [](const json::Value& i) { return condition_status(i, "Ready") == "True"; }))
      << pebble.logs();

  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"shop","namespace":"shop"},
      "spec":{"secretName":"shop-tls","dnsNames":["*.shop.example.test","shop.example.test"],"privateKey":{"algorithm":"ECDSA"},
              "issuerRef":{"name":"pebble-dns","kind":"ClusterIssuer"}}})");
  auto refused = h.wait_for(kCertificateRequestType.gvr, "shop", "shop-1", [](const json::Value& cr) {
    for (const auto& c : json::get_array(cr, {"status", "conditions"}) ? *json::get_array(cr, {"status", "conditions"}) : json::Array{})
      if (json::get_string(c, {"type"}) == "Ready" && json::get_string(c, {"message"}).find("BADSIG") != std::string_view::npos)
        return true;
    return false;
  }, 60s);
  ASSERT_TRUE(refused) << "no BADSIG in the request's status; BIND log:\n" << bind.logs();
  EXPECT_EQ(condition_reason(*refused, "Ready"), "Pending");
  EXPECT_EQ(bind.dig("_acme-challenge.shop.example.test", "TXT"), "");

  // The right secret: both authorizations are solved and the wildcard certificate issued.
  h.apply_object(tsig_secret(bind.key_secret_base64()));
  json::Value crt = h.wait_ready("shop", "shop", 1, 90s);
  if (HasFailure()) std::cerr << pebble.logs() << bind.logs();

  auto data = h.secret_data("shop", "shop-tls");
  auto chain = pki::Certificate::parse_chain(data["tls.crt"]);
  ASSERT_GE(chain.size(), 2u);
  auto names = chain[0].dns_names();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"*.shop.example.test", "shop.example.test"}));
  auto root = pki::Certificate::parse_pem(pebble.root_pem(0));
  auto verified = pki::verify_chain(chain[0], {chain.begin() + 1, chain.end()}, {root}, {.dns_name = "www.shop.example.test"});
  EXPECT_TRUE(verified.ok) << verified.error;

  // Withdrawn: no challenge record left in the zone.
  EXPECT_TRUE(integration::eventually([&] { return bind.dig("_acme-challenge.shop.example.test", "TXT").empty(); }, 10s))
      << bind.dig("_acme-challenge.shop.example.test", "TXT");
  EXPECT_EQ(h.reconcile_errors("certificaterequests-issuer"), 0);
}

CAPSTAN_E2E_BACKENDS(AcmeDns01);

}  // namespace
}  // namespace capstan::certificates
