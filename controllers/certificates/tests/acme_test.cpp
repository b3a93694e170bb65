// ACME end to end against the real pebble (and pebble-challtestsrv as its DNS): a
// ClusterIssuer registers an account, a Certificate is issued through HTTP-01 answered by the
// manager's solver after its self check, the per-challenge Service/Ingress and the tokens
// published on the request (for the other replicas) are made and removed.
#include "testing/pebble.h"
#include "controllers/certificates/acme/solver.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/issuers/acme_http01.h"
#include "controllers/certificates/tests/harness.h"
#include "runtime/meta/object.h"
#include "runtime/pki/pki.h"

#include <gtest/gtest.h>

#include <atomic>

namespace capstan::certificates {
namespace {

using namespace testing;

class Acme : public ::testing::TestWithParam<e2e::Backend> {};

TEST_P(Acme, IssuesThroughHttp01WithPebble) {
  if (!e2e::pebble_available()) GTEST_SKIP() << "pebble is not installed";
  HarnessOptions o;
  o.backend = GetParam();
  o.certs.acme_requeue = 200ms;
  Harness h(o);
  ASSERT_TRUE(h.env().solver && h.env().solver->running());
  // The self check reaches the solver as pebble does: 127.0.0.1 and the solver's port, Host: the domain.
  h.env().options.acme_http01_self_check_address = "127.0.0.1:" + std::to_string(h.env().solver->port());
  e2e::PebbleEnv pebble({.http_port = h.env().solver->port()});
  const std::string domain = "shop.capstan.example";
  pebble.add_a(domain + ".", "127.0.0.1");

  json::Value issuer = json::parse(R"({"apiVersion":"certs.capstan.dev/v1","kind":"ClusterIssuer","metadata":{"name":"pebble"},
      "spec":{"acme":{"email":"admin@capstan.example","privateKeySecretRef":{"name":"pebble-account"},
                      "solvers":[{"http01":{"ingress":{"ingressClassName":"nginx"}}}]}}})",
                                   "issuer");
  auto& acme_spec = issuer.get_object()["spec"].get_object()["acme"].get_object();
  acme_spec["server"] = pebble.directory_url();
  acme_spec["caBundle"] = meta::base64_encode(pebble.client_options().tls.ca_pem);
  h.apply_object(issuer);
  auto ready = h.wait_for(kClusterIssuerType.gvr, "", "pebble", [](const json::Value& i) { return condition_status(i, "Ready") == "True"; });
  ASSERT_TRUE(ready) << pebble.logs();
  EXPECT_EQ(condition_reason(*ready, "Ready"), "ACMEAccountRegistered");
  EXPECT_FALSE(json::get_string(*ready, {"status", "acme", "uri"}).empty());
  EXPECT_EQ(json::get_string(*ready, {"status", "acme", "lastRegisteredEmail"}), "admin@capstan.example");
  auto account_key = h.secret_data("capstan-system", "pebble-account");
  EXPECT_NO_THROW(pki::PrivateKey::from_pem(account_key["tls.key"]));

  // Watch for the solver objects while the order runs: a watch sees each one however briefly it
  // lives (a poll can miss it on a busy machine).
  std::atomic<bool> saw_ingress{false}, saw_service{false};
  std::string ingress_path;
  std::mutex mu;
  const std::string solver = "acme.certs.capstan.dev/http01-solver=true";
  http::Cancellation cancel_ingresses, cancel_services;
  auto watch = [&](const meta::GroupVersionResource& gvr, http::Cancellation& cancel, const client::WatchHandler& on_event) {
    client::ListOptions lo;
    lo.label_selector = solver;
    client::WatchOptions wo;
    wo.resource_version = h.client().list(gvr, "shop", lo).resource_version;
    wo.label_selector = solver;
    return std::thread([&h, gvr, wo, on_event, &cancel] {
      try {
        h.client().watch(gvr, "shop", wo, on_event, &cancel);
      } catch (const std::exception&) {
        // cancelled
      }
    });
  };
  std::thread ingresses = watch(kIngressType.gvr, cancel_ingresses, [&](json::EventType, std::string_view text, const json::MetaSummary&) {
    const json::Value ing = json::parse(text);
    const auto* rules = json::get_array(ing, {"spec", "rules"});
    if (!rules || rules->empty()) return true;
    saw_ingress = true;
    std::lock_guard<std::mutex> l(mu);
    ingress_path = std::string(json::get_string(rules->at(0).get_object().at("http").get_object().at("paths").get_array().at(0), {"path"}));
    return true;
  });
  std::thread services = watch(kServiceType.gvr, cancel_services, [&](json::EventType, std::string_view, const json::MetaSummary&) {
    saw_service = true;
    return true;
  });
  // The tokens published on the request for the other replicas: seen while the order runs, and
  // taken by the solver's informer feed (they are of the issuer's account).
  std::atomic<bool> saw_published{false}, fed{false}, stop_polling{false};
  std::thread poll_fed([&] {
    while (!stop_polling && !fed) {
      if (h.env().solver->published_size() > 0) fed = true;
      std::this_thread::sleep_for(2ms);
    }
  });
  http::Cancellation cancel_requests;
  std::thread requests([&] {
    client::WatchOptions wo;
    wo.resource_version = h.client().list(kCertificateRequestType.gvr, "shop", {}).resource_version;
    try {
      h.client().watch(kCertificateRequestType.gvr, "shop", wo, [&](json::EventType, std::string_view text, const json::MetaSummary&) {
        auto tokens = published_tokens(json::parse(text));
        if (!tokens.empty() && tokens[0].domain == "shop.capstan.example" && tokens[0].key_authorization.starts_with(tokens[0].token + "."))
          saw_published = true;
        return true;
      }, &cancel_requests);
    } catch (const std::exception&) {
      // cancelled
    }
  });
  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"shop","namespace":"shop"},
      "spec":{"secretName":"shop-tls","dnsNames":["shop.capstan.example"],"privateKey":{"algorithm":"ECDSA"},
              "issuerRef":{"name":"pebble","kind":"ClusterIssuer"}}})");
  json::Value crt = h.wait_ready("shop", "shop", 1, 90s);
  cancel_ingresses.cancel();
  cancel_services.cancel();
  cancel_requests.cancel();
  stop_polling = true;
  poll_fed.join();
  ingresses.join();
  services.join();
  requests.join();
  if (HasFailure()) std::cerr << pebble.logs();

  auto data = h.secret_data("shop", "shop-tls");
  auto chain = pki::Certificate::parse_chain(data["tls.crt"]);
  ASSERT_GE(chain.size(), 2u);
  EXPECT_EQ(chain[0].dns_names(), std::vector<std::string>{domain});
  EXPECT_TRUE(pki::PrivateKey::from_pem(data["tls.key"]).matches(chain[0]));
  auto root = pki::Certificate::parse_pem(pebble.root_pem(0));
  auto verified = pki::verify_chain(chain[0], {chain.begin() + 1, chain.end()}, {root}, {.dns_name = domain});
  EXPECT_TRUE(verified.ok) << verified.error;
  EXPECT_EQ(data.count("ca.crt"), 0u);  // ACME gives no CA (as cert-manager)

  auto cr = h.get(kCertificateRequestType.gvr, "shop", "shop-1");
  ASSERT_TRUE(cr);
  EXPECT_FALSE(meta::annotation(*cr, "acme.capstan.dev/order-url").empty());
  EXPECT_TRUE(saw_ingress.load());
  EXPECT_TRUE(saw_service.load());
  {
    std::lock_guard<std::mutex> l(mu);
    EXPECT_TRUE(ingress_path.starts_with("/.well-known/acme-challenge/")) << ingress_path;
  }
  // Cleaned up: no solver objects, no tokens served.
  EXPECT_TRUE(integration::eventually([&] { return h.list(kIngressType.gvr, "shop", "acme.certs.capstan.dev/http01-solver=true").empty(); }, 5s));
  EXPECT_TRUE(h.list(kServiceType.gvr, "shop", "acme.certs.capstan.dev/http01-solver=true").empty());
  EXPECT_EQ(h.env().solver->size(), 0u);
  EXPECT_TRUE(saw_published.load());
  EXPECT_TRUE(fed.load());
  EXPECT_TRUE(meta::annotation(*cr, "acme.capstan.dev/http01-tokens").empty());
  EXPECT_TRUE(integration::eventually([&] { return h.env().solver->published_size() == 0; }, 5s));
  EXPECT_EQ(h.reconcile_errors("certificaterequests-issuer"), 0);
}

// http01.ingress.name (cert-manager's edit in place): while the order runs, the user's Ingress
// routes the challenge path of its host to the solver; afterwards it is as the user wrote it. An
// Ingress that does not exist keeps the request Pending, saying which.
TEST_P(Acme, Http01EditsTheNamedIngressInPlace) {
  if (!e2e::pebble_available()) GTEST_SKIP() << "pebble is not installed";
  HarnessOptions o;
  o.backend = GetParam();
  o.certs.acme_requeue = 200ms;
  o.certs.issuer_retry_interval = 500ms;
  Harness h(o);
  h.env().options.acme_http01_self_check_address = "127.0.0.1:" + std::to_string(h.env().solver->port());
  e2e::PebbleEnv pebble({.http_port = h.env().solver->port()});
  pebble.add_a("web.capstan.example.", "127.0.0.1");
  pebble.add_a("gone.capstan.example.", "127.0.0.1");
  for (const std::string ingress : {"web", "missing"}) {
    json::Value issuer = json::parse(R"({"apiVersion":"certs.capstan.dev/v1","kind":"ClusterIssuer","metadata":{"name":"in-place-)" + ingress +
                                         R"("},"spec":{"acme":{"email":"admin@capstan.example","privateKeySecretRef":{"name":"pebble-)" + ingress +
                                         R"("},"solvers":[{"http01":{"ingress":{"name":")" + ingress + R"("}}}]}}})",
                                     "issuer");
    auto& acme_spec = issuer.get_object()["spec"].get_object()["acme"].get_object();
    acme_spec["server"] = pebble.directory_url();
    acme_spec["caBundle"] = meta::base64_encode(pebble.client_options().tls.ca_pem);
    h.apply_object(issuer);
  }
  const std::string user_ingress = R"({"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"web","namespace":"shop"},
      "spec":{"rules":[{"host":"web.capstan.example","http":{"paths":[
        {"path":"/","pathType":"Prefix","backend":{"service":{"name":"web","port":{"number":80}}}}]}}]}})";
  h.apply(user_ingress);
  const json::Value before = *h.get(kIngressType.gvr, "shop", "web");

  std::atomic<bool> saw_challenge{false};
  http::Cancellation cancel;
  client::WatchOptions wo;
  wo.resource_version = std::string(meta::resource_version_of(before));
  std::thread watcher([&] {
    try {
      h.client().watch(kIngressType.gvr, "shop", wo, [&](json::EventType, std::string_view text, const json::MetaSummary& m) {
        if (m.name != "web") return true;
        const json::Value ingress = json::parse(text);
        const auto* rules = json::get_array(ingress, {"spec", "rules"});
        if (!rules) return true;
        for (const auto& rule : *rules)
          if (const auto* paths = json::get_array(rule, {"http", "paths"}))
            for (const auto& p : *paths)
              if (json::get_string(p, {"path"}).starts_with("/.well-known/acme-challenge/") &&
                  json::get_string(p, {"backend", "service", "name"}).starts_with("cm-acme-http-solver-"))
                saw_challenge = true;
        return true;
      }, &cancel);
    } catch (const std::exception&) {
      // cancelled
    }
  });
  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"web","namespace":"shop"},
      "spec":{"secretName":"web-tls","dnsNames":["web.capstan.example"],"privateKey":{"algorithm":"ECDSA"},
              "issuerRef":{"name":"in-place-web","kind":"ClusterIssuer"}}})");
  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"gone","namespace":"shop"},
      "spec":{"secretName":"gone-tls","dnsNames":["gone.capstan.example"],"privateKey":{"algorithm":"ECDSA"},
              "issuerRef":{"name":"in-place-missing","kind":"ClusterIssuer"}}})");
  h.wait_ready("shop", "web", 1, 90s);
  cancel.cancel();
  watcher.join();
  EXPECT_TRUE(saw_challenge.load());
  EXPECT_TRUE(integration::eventually([&] {
    auto now = h.get(kIngressType.gvr, "shop", "web");
    return now && json::serialize(*json::find(*now, {"spec"})) == json::serialize(*json::find(before, {"spec"}));
  }, 5s)) << json::serialize(*h.get(kIngressType.gvr, "shop", "web"));
  for (const auto& svc : h.list(kServiceType.gvr, "shop", "acme.certs.capstan.dev/http01-solver=true"))
    EXPECT_NE(meta::annotation(svc, "acme.certs.capstan.dev/http-domain"), "web.capstan.example") << "web's solver Service is left";

  const std::string why = R"(the Ingress "missing" named by http01.ingress.name does not exist in namespace "shop")";
  auto pending = h.wait_for(kCertificateRequestType.gvr, "shop", "gone-1", [&](const json::Value& r) {
    auto ready = meta::find_condition(r, "Ready");
    return ready && ready->reason == "Pending" && ready->message == why;
  }, 30s);
  EXPECT_TRUE(pending) << json::serialize(*h.get(kCertificateRequestType.gvr, "shop", "gone-1"));
  if (HasFailure()) std::cerr << pebble.logs();
}

CAPSTAN_E2E_BACKENDS(Acme);

}  // namespace
}  // namespace capstan::certificates
