// The ACME client and HTTP-01 solver against the real pebble ACME server (with
// pebble-challtestsrv resolving every name to 127.0.0.1).
#include "controllers/certificates/acme/client.h"
#include "testing/pebble.h"
#include "controllers/certificates/acme/solver.h"
#include "runtime/metrics/registry.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/verify.h"

#include <gtest/gtest.h>

namespace capstan::certificates::acme {
namespace {

using namespace std::chrono_literals;

const PollOptions kPoll{.timeout = 30s, .interval = 100ms, .max_interval = 500ms};

class AcmePebbleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!e2e::pebble_available()) GTEST_SKIP() << "pebble is not installed";
    solver = std::make_unique<Http01Solver>(Http01SolverOptions{.address = "127.0.0.1", .port = 0}, &registry);
    solver->start();
    env = std::make_unique<e2e::PebbleEnv>(e2e::PebbleOptions{.http_port = solver->port(), .alternate_roots = 1});
    client = std::make_unique<Client>(env->directory_url(), env->client_options(), &registry,
                                      ClientConfig{.request_timeout = 15s});
  }

  void TearDown() override {
    if (HasFailure() && env) std::cerr << env->logs();
    client.reset();
    env.reset();
    if (solver) solver->stop();
  }

  Account new_account(pki::KeyAlgorithm algorithm = pki::KeyAlgorithm::ECDSA) {
    Signer key = Signer::from_private_key(pki::PrivateKey::generate(algorithm));
    Registration reg = client->register_account(key, "admin@capstan.example", true);
    EXPECT_TRUE(reg.created);
    EXPECT_EQ(reg.status, "valid");
    return {key, reg.url};
  }

  // Presents every authorization's HTTP-01 challenge through the solver (unless `serve` is
  // false) and accepts it; returns the tokens.
  std::vector<std::string> answer_http01(const Account& account, const Order& order, bool serve = true) {
    std::vector<std::string> tokens;
    for (const auto& url : order.authorizations) {
      Authorization authz = client->get_authorization(account, url);
      EXPECT_EQ(authz.status, "pending");
      const Challenge* ch = authz.find_challenge(kHttp01);
      if (!ch) {
        ADD_FAILURE() << "no http-01 challenge for " << authz.identifier.to_string();
        continue;
      }
      if (serve) solver->add(ch->token, key_authorization(ch->token, account.key.jwk()), authz.identifier.value);
      tokens.push_back(ch->token);
      Challenge accepted = client->accept_challenge(account, ch->url);
      EXPECT_EQ(accepted.token, ch->token);
    }
    return tokens;
  }

  struct Issued {
    pki::PrivateKey key;
    std::string pem;
    Order order;
  };

  Issued issue(const Account& account, const std::vector<Identifier>& ids, std::string_view preferred_chain = {}) {
    Order order = client->new_order(account, ids);
    EXPECT_EQ(order.status, "pending");
    auto tokens = answer_http01(account, order);
    for (const auto& url : order.authorizations) EXPECT_EQ(client->poll_authorization(account, url, kPoll).status, "valid");
    order = client->poll_order(account, order.url, kPoll);
    EXPECT_EQ(order.status, "ready");
    for (const auto& t : tokens) solver->remove(t);

    pki::CertificateTemplate tmpl;
    for (const auto& id : ids) (id.type == "ip" ? tmpl.ip_addresses : tmpl.dns_names).push_back(id.value);
    auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
    auto csr = pki::CertificateRequest::parse(pki::CertificateRequest::create(tmpl, key));
    order = client->finalize(account, order, csr.to_der());
    EXPECT_TRUE(order.status == "processing" || order.status == "valid") << order.status;
    order = client->poll_order(account, order.url, kPoll);
    EXPECT_EQ(order.status, "valid");
    EXPECT_FALSE(order.certificate.empty());
    return {key, client->download_certificate(account, order.certificate, preferred_chain), order};
  }

  double requests(const std::string& action, const std::string& status) {
    return registry
        .counter("capstan_acme_client_requests_total",
                 "Requests sent to ACME servers, by action, HTTP method and response status", {"action", "method", "status"})
        .with({action, action == "directory" || action == "nonce" ? "GET" : "POST", status})
        .value();
  }

  metrics::Registry registry;
  std::unique_ptr<Http01Solver> solver;
  std::unique_ptr<e2e::PebbleEnv> env;
  std::unique_ptr<Client> client;
};

TEST_F(AcmePebbleTest, IssuesACertificateThroughHttp01) {
  const std::string name = "test.capstan.example";
  env->add_a(name + ".", "127.0.0.1");
  Account account = new_account();
  Issued issued = issue(account, {Identifier::dns(name)});

  auto chain = pki::Certificate::parse_chain(issued.pem);
  ASSERT_GE(chain.size(), 2u);
  const auto& leaf = chain.front();
  EXPECT_EQ(leaf.dns_names(), std::vector<std::string>{name});
  EXPECT_TRUE(issued.key.matches(leaf));
  std::vector<pki::Certificate> intermediates(chain.begin() + 1, chain.end());
  auto root = pki::Certificate::parse_pem(env->root_pem(0));
  auto verified = pki::verify_chain(leaf, intermediates, {root}, {.dns_name = name});
  EXPECT_TRUE(verified.ok) << verified.error;
  EXPECT_EQ(solver->size(), 0u);

  // Every action was counted and timed.
  for (const char* action : {"directory", "nonce", "new_account", "new_order", "authorization", "challenge", "finalize",
                             "order", "certificate"}) {
    auto& h = registry.histogram("capstan_acme_client_request_duration_seconds",
                                 "Latency of requests to ACME servers, by action", {"action"});
    EXPECT_GE(h.with({action}).count(), 1u) << action;
  }
  EXPECT_EQ(requests("new_account", "201"), 1);
  EXPECT_EQ(requests("new_order", "201"), 1);
  EXPECT_EQ(requests("finalize", "200"), 1);
  EXPECT_EQ(requests("certificate", "200"), 1);
}

TEST_F(AcmePebbleTest, IssuesForSeveralNamesAndAnIpAddressWithAnRsaAccountKey) {
  Account account = new_account(pki::KeyAlgorithm::RSA);
  EXPECT_EQ(account.key.algorithm(), "RS256");
  Issued issued = issue(account, {Identifier::dns("a.capstan.example"), Identifier::dns("b.capstan.example"),
                                  Identifier::ip("127.0.0.1")});
  auto leaf = pki::Certificate::parse_pem(issued.pem);
  auto names = leaf.dns_names();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"a.capstan.example", "b.capstan.example"}));
  EXPECT_EQ(leaf.ip_addresses(), std::vector<std::string>{"127.0.0.1"});
}

TEST_F(AcmePebbleTest, PreferredChainSelectsTheAlternateRoot) {
  Account account = new_account();
  auto alt_root = pki::Certificate::parse_pem(env->root_pem(1));
  auto default_root = pki::Certificate::parse_pem(env->root_pem(0));
  ASSERT_NE(alt_root.subject().common_name, default_root.subject().common_name);

  Issued issued = issue(account, {Identifier::dns("chain.capstan.example")}, alt_root.subject().common_name);
  auto chain = pki::Certificate::parse_chain(issued.pem);
  std::vector<pki::Certificate> intermediates(chain.begin() + 1, chain.end());
  EXPECT_EQ(chain.back().issuer().common_name, alt_root.subject().common_name);
  EXPECT_TRUE(pki::verify_chain(chain.front(), intermediates, {alt_root}).ok);
  EXPECT_FALSE(pki::verify_chain(chain.front(), intermediates, {default_root}).ok);

  auto chains = client->download_certificate_chains(account, issued.order.certificate);
  ASSERT_EQ(chains.size(), 2u);
  EXPECT_TRUE(chain_matches(chains[0].pem, default_root.subject().common_name));
  EXPECT_TRUE(chain_matches(chains[1].pem, alt_root.subject().common_name));
  // A name no chain has: the default chain.
  EXPECT_EQ(client->download_certificate(account, issued.order.certificate, "No Such Root"), chains[0].pem);
}

TEST_F(AcmePebbleTest, ExistingAccountIsFoundAndUpdated) {
  Signer key = Signer::from_private_key(pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA));
  Registration first = client->register_account(key, "one@capstan.example", true);
  EXPECT_TRUE(first.created);
  Registration again = client->register_account(key, "one@capstan.example", true);
  EXPECT_FALSE(again.created);
  EXPECT_EQ(again.url, first.url);
  EXPECT_EQ(requests("new_account", "201"), 1);
  EXPECT_EQ(requests("new_account", "200"), 1);

  auto found = client->lookup_account(key);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->url, first.url);

  Account account{key, first.url};
  Registration updated = client->update_account(account, "two@capstan.example");
  EXPECT_EQ(updated.contact, std::vector<std::string>{"mailto:two@capstan.example"});
  EXPECT_EQ(client->get_account(account).status, "valid");
}

TEST_F(AcmePebbleTest, UnknownAccountLookupFindsNothing) {
  Signer stranger = Signer::from_private_key(pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA));
  EXPECT_FALSE(client->lookup_account(stranger).has_value());
  EXPECT_EQ(requests("new_account", "400"), 1);

  // Using a kid pebble never issued is a typed error naming the request.
  Account bogus{stranger, env->directory_url().substr(0, env->directory_url().rfind('/')) + "/my-account/424242"};
  try {
    client->new_order(bogus, {Identifier::dns("x.capstan.example")});
    FAIL() << "expected AcmeError";
  } catch (const AcmeError& e) {
    EXPECT_TRUE(e.is(errors::kAccountDoesNotExist)) << e.what();
    EXPECT_EQ(e.request().action, "new_order");
  }
}

TEST_F(AcmePebbleTest, BadNonceIsRetriedWithAFreshNonce) {
  client->directory();
  client->nonce_pool().clear();
  client->nonce_pool().put("bm9uY2UtdGhhdC1wZWJibGUtbmV2ZXItaXNzdWVk");
  Signer key = Signer::from_private_key(pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA));
  Registration reg = client->register_account(key, "", true);
  EXPECT_TRUE(reg.created);
  EXPECT_EQ(requests("new_account", "400"), 1);  // the badNonce answer
  EXPECT_EQ(requests("new_account", "201"), 1);
  EXPECT_EQ(requests("nonce", "204") + requests("nonce", "200"), 0);  // the error carried the next nonce
}

TEST_F(AcmePebbleTest, UnservedTokenMakesTheOrderInvalidWithATypedError) {
  Account account = new_account();
  Order order = client->new_order(account, {Identifier::dns("unserved.capstan.example")});
  answer_http01(account, order, /*serve=*/false);
  Authorization authz = client->poll_authorization(account, order.authorizations.at(0), kPoll);
  EXPECT_EQ(authz.status, "invalid");
  const Challenge* ch = authz.find_challenge(kHttp01);
  ASSERT_NE(ch, nullptr);
  EXPECT_EQ(ch->status, "invalid");
  ASSERT_TRUE(ch->error);

  order = client->poll_order(account, order.url, kPoll);
  EXPECT_EQ(order.status, "invalid");
  ASSERT_TRUE(order.error);  // pebble copies the challenge's problem onto the order
  EXPECT_EQ(order.error->type, errors::kUnauthorized);
  AcmeError err = client->order_failure(account, order);
  EXPECT_TRUE(err.is(errors::kUnauthorized)) << err.what();
  ASSERT_TRUE(err.problem().identifier);
  EXPECT_EQ(err.problem().identifier->value, "unserved.capstan.example");
  EXPECT_NE(err.detail().find("404"), std::string::npos) << err.detail();
  EXPECT_NE(std::string(err.what()).find(order.authorizations.at(0)), std::string::npos) << err.what();

  // An invalid order cannot be finalized.
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  pki::CertificateTemplate tmpl;
  tmpl.dns_names = {"unserved.capstan.example"};
  auto csr = pki::CertificateRequest::parse(pki::CertificateRequest::create(tmpl, key));
  EXPECT_THROW(client->finalize(account, order, csr.to_der()), AcmeError);
}

TEST_F(AcmePebbleTest, FinalizingAPendingOrderIsOrderNotReady) {
  Account account = new_account();
  Order order = client->new_order(account, {Identifier::dns("early.capstan.example")});
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  pki::CertificateTemplate tmpl;
  tmpl.dns_names = {"early.capstan.example"};
  auto csr = pki::CertificateRequest::parse(pki::CertificateRequest::create(tmpl, key));
  try {
    client->finalize(account, order, csr.to_der());
    FAIL() << "expected AcmeError";
  } catch (const AcmeError& e) {
    EXPECT_TRUE(e.is(errors::kOrderNotReady)) << e.what();
    EXPECT_EQ(e.status(), 403);
    EXPECT_EQ(e.request().action, "finalize");
    EXPECT_EQ(e.request().url, order.finalize);
  }
}

TEST_F(AcmePebbleTest, CsrForOtherNamesIsRejected) {
  Account account = new_account();
  Order order = client->new_order(account, {Identifier::dns("csr.capstan.example")});
  auto tokens = answer_http01(account, order);
  order = client->poll_order(account, order.url, kPoll);
  ASSERT_EQ(order.status, "ready");
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  pki::CertificateTemplate tmpl;
  tmpl.dns_names = {"someone-else.capstan.example"};
  auto csr = pki::CertificateRequest::parse(pki::CertificateRequest::create(tmpl, key));
  try {
    client->finalize(account, order, csr.to_der());
    FAIL() << "expected AcmeError";
  } catch (const AcmeError& e) {
    // RFC 8555 suggests badCSR; pebble answers 403 unauthorized. Either way it is typed and
    // names the missing identifier.
    EXPECT_TRUE(e.is(errors::kBadCsr) || e.is(errors::kUnauthorized)) << e.what();
    EXPECT_NE(e.detail().find("csr.capstan.example"), std::string::npos) << e.what();
    EXPECT_EQ(e.request().action, "finalize");
  }
  for (const auto& t : tokens) solver->remove(t);
}

}  // namespace
}  // namespace capstan::certificates::acme
