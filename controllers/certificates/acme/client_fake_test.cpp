// The client against a scripted in-process ACME server: nonce handling, badNonce retries,
// Retry-After on 429/503, polling and request metrics. (The real protocol runs against pebble
// in pebble_test.cpp.)
#include "controllers/certificates/acme/client.h"
#include "controllers/certificates/acme/jws.h"
#include "runtime/http/server.h"
#include "runtime/metrics/registry.h"

#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <mutex>

namespace capstan::certificates::acme {
namespace {

using namespace std::chrono_literals;

// A fake ACME server. Every response carries a fresh Replay-Nonce; every POST must be a JWS
// signed by `key` whose url header is the request URL and whose nonce is one we issued.
class FakeAcme {
 public:
  using Route = std::function<http::Response(const DecodedJws& jws)>;

  explicit FakeAcme(pki::PublicKey key)
      : key_(std::move(key)), server_({.name = "fake-acme"}, [this](http::Request& req, http::Reply& reply) {
          reply.send(handle(req));
        }) {
    server_.start();
    base_ = "http://" + server_.address();
  }

  const std::string& base() const { return base_; }
  std::string url(std::string_view path) const { return base_ + std::string(path); }

  // Responses for `path`, used in order; the last one repeats.
  void script(const std::string& path, std::vector<Route> routes) {
    std::lock_guard<std::mutex> l(mu_);
    routes_[path] = std::deque<Route>(routes.begin(), routes.end());
  }
  int hits(const std::string& path) {
    std::lock_guard<std::mutex> l(mu_);
    return hits_[path];
  }
  std::vector<std::string> nonces_used() {
    std::lock_guard<std::mutex> l(mu_);
    return used_;
  }
  int nonce_requests() { return nonce_requests_; }
  std::string last_issued() {
    std::lock_guard<std::mutex> l(mu_);
    return "nonce-" + std::to_string(counter_);
  }

 private:
  http::Response handle(const http::Request& req) {
    std::string path(req.path());
    http::Response resp;
    if (path == "/dir") {
      json::Object d;
      d["newNonce"] = url("/nonce");
      d["newAccount"] = url("/new-acct");
      d["newOrder"] = url("/new-order");
      resp = http::Response(200, json::serialize(json::Value(std::move(d))));
    } else if (path == "/nonce") {
      ++nonce_requests_;
      resp = http::Response(204, "");
    } else {
      resp = route(path, req);
    }
    std::lock_guard<std::mutex> l(mu_);
    resp.headers.set("Replay-Nonce", "nonce-" + std::to_string(++counter_));
    return resp;
  }

  http::Response route(const std::string& path, const http::Request& req) {
    DecodedJws jws;
    try {
      jws = decode_flattened(req.body);
    } catch (const std::exception& e) {
      return problem(400, "malformed", e.what());
    }
    if (!verify_signature(jws, key_)) return problem(400, "malformed", "bad signature");
    if (json::get_string(jws.header, {"url"}) != url(path)) return problem(400, "unauthorized", "url mismatch");
    if (req.headers.get_or("Content-Type", "") != "application/jose+json") return problem(415, "malformed", "type");
    Route r;
    {
      std::lock_guard<std::mutex> l(mu_);
      used_.emplace_back(json::get_string(jws.header, {"nonce"}));
      ++hits_[path];
      auto it = routes_.find(path);
      if (it == routes_.end() || it->second.empty()) return problem(404, "malformed", "no route");
      r = it->second.front();
      if (it->second.size() > 1) it->second.pop_front();
    }
    return r(jws);
  }

 public:
  static http::Response problem(int status, std::string_view type, std::string_view detail) {
    json::Object p;
    p["type"] = std::string(errors::kPrefix) + std::string(type);
    p["detail"] = detail;
    p["status"] = status;
    return http::Response(status, json::serialize(json::Value(std::move(p))), "application/problem+json");
  }

 private:
  pki::PublicKey key_;
  http::Server server_;
  std::string base_;
  std::mutex mu_;
  std::map<std::string, std::deque<Route>> routes_;
  std::map<std::string, int> hits_;
  std::vector<std::string> used_;
  std::atomic<int> nonce_requests_{0};
  int counter_ = 0;
};

http::Response created_account(const FakeAcme& fake) {
  http::Response r(201, R"({"status":"valid","contact":["mailto:a@example.com"]})");
  r.headers.set("Location", fake.url("/acct/1"));
  return r;
}

http::Response order_json(int status_code, std::string_view status, const FakeAcme& fake) {
  json::Object o;
  o["status"] = status;
  o["identifiers"] = json::Array{json::Object{{"type", "dns"}, {"value", "a.example"}}};
  o["authorizations"] = json::Array{fake.url("/authz/1")};
  o["finalize"] = fake.url("/order/1/finalize");
  http::Response r(status_code, json::serialize(json::Value(std::move(o))));
  r.headers.set("Location", fake.url("/order/1"));
  return r;
}

class AcmeClientFakeTest : public ::testing::Test {
 protected:
  AcmeClientFakeTest()
      : key(pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA)),
        signer(Signer::from_private_key(key)),
        fake(key.public_key()),
        client(fake.url("/dir"), {}, &registry, ClientConfig{.request_timeout = 5s, .max_retry_after_wait = 2s}) {}

  double requests(const std::string& action, const std::string& method, const std::string& status) {
    return registry
        .counter("capstan_acme_client_requests_total",
                 "Requests sent to ACME servers, by action, HTTP method and response status", {"action", "method", "status"})
        .with({action, method, status})
        .value();
  }

  metrics::Registry registry;
  pki::PrivateKey key;
  Signer signer;
  FakeAcme fake;
  Client client;
};

TEST_F(AcmeClientFakeTest, ReusesReplayNoncesAndAsksNewNonceOnlyWhenEmpty) {
  fake.script("/new-acct", {[&](const DecodedJws&) { return created_account(fake); }});
  Registration reg = client.register_account(signer, "a@example.com", true);
  EXPECT_TRUE(reg.created);
  EXPECT_EQ(reg.url, fake.url("/acct/1"));
  EXPECT_EQ(reg.contact, std::vector<std::string>{"mailto:a@example.com"});
  // The directory GET left a nonce; the account POST used it, and left another.
  EXPECT_EQ(fake.nonce_requests(), 0);
  client.register_account(signer, "a@example.com", true);
  EXPECT_EQ(fake.nonce_requests(), 0);
  client.nonce_pool().clear();
  client.register_account(signer, "a@example.com", true);
  EXPECT_EQ(fake.nonce_requests(), 1);
  EXPECT_EQ(requests("nonce", "GET", "204"), 1);
  EXPECT_EQ(requests("directory", "GET", "200"), 1);
  EXPECT_EQ(requests("new_account", "POST", "201"), 3);
}

TEST_F(AcmeClientFakeTest, BadNonceIsRetriedOnceWithTheNonceFromTheError) {
  fake.script("/new-acct", {[](const DecodedJws&) { return FakeAcme::problem(400, "badNonce", "stale"); },
                            [&](const DecodedJws&) { return created_account(fake); }});
  client.directory();
  Registration reg = client.register_account(signer, "", true);
  EXPECT_EQ(reg.url, fake.url("/acct/1"));
  EXPECT_EQ(fake.hits("/new-acct"), 2);
  auto used = fake.nonces_used();
  ASSERT_EQ(used.size(), 2u);
  EXPECT_EQ(used[0], "nonce-1");  // from the directory response
  EXPECT_EQ(used[1], "nonce-2");  // from the badNonce response
  EXPECT_EQ(requests("new_account", "POST", "400"), 1);
  EXPECT_EQ(requests("new_account", "POST", "201"), 1);
}

TEST_F(AcmeClientFakeTest, SecondBadNonceIsATypedError) {
  fake.script("/new-acct", {[](const DecodedJws&) { return FakeAcme::problem(400, "badNonce", "stale"); }});
  try {
    client.register_account(signer, "", true);
    FAIL() << "expected AcmeError";
  } catch (const AcmeError& e) {
    EXPECT_TRUE(e.is(errors::kBadNonce));
    EXPECT_EQ(e.status(), 400);
    EXPECT_EQ(e.request().action, "new_account");
    EXPECT_EQ(e.request().url, fake.url("/new-acct"));
  }
  EXPECT_EQ(fake.hits("/new-acct"), 2);
}

TEST_F(AcmeClientFakeTest, ServiceUnavailableWithShortRetryAfterIsRetried) {
  fake.script("/new-order", {[](const DecodedJws&) {
                               auto r = FakeAcme::problem(503, "serverInternal", "busy");
                               r.headers.set("Retry-After", "1");
                               return r;
                             },
                             [&](const DecodedJws& jws) {
                               EXPECT_EQ(json::get_string(jws.header, {"kid"}), fake.url("/acct/1"));
                               return order_json(201, "pending", fake);
                             }});
  Account account{signer, fake.url("/acct/1")};
  auto start = std::chrono::steady_clock::now();
  Order order = client.new_order(account, {Identifier::dns("a.example")});
  EXPECT_GE(std::chrono::steady_clock::now() - start, 1s);
  EXPECT_EQ(order.url, fake.url("/order/1"));
  EXPECT_EQ(order.status, "pending");
  EXPECT_EQ(order.authorizations, std::vector<std::string>{fake.url("/authz/1")});
  EXPECT_EQ(requests("new_order", "POST", "503"), 1);
  EXPECT_EQ(requests("new_order", "POST", "201"), 1);
}

TEST_F(AcmeClientFakeTest, RateLimitWithLongRetryAfterIsLeftToTheCaller) {
  fake.script("/new-order", {[](const DecodedJws&) {
                auto r = FakeAcme::problem(429, "rateLimited", "too many certificates");
                r.headers.set("Retry-After", "3600");
                return r;
              }});
  Account account{signer, fake.url("/acct/1")};
  try {
    client.new_order(account, {Identifier::dns("a.example")});
    FAIL() << "expected AcmeError";
  } catch (const AcmeError& e) {
    EXPECT_TRUE(e.is("rateLimited"));
    EXPECT_EQ(e.retry_after(), std::chrono::seconds(3600));
    EXPECT_NE(std::string(e.what()).find("new_order POST " + fake.url("/new-order")), std::string::npos) << e.what();
  }
  EXPECT_EQ(fake.hits("/new-order"), 1);
}

TEST_F(AcmeClientFakeTest, PollHonoursRetryAfterAndPostsAsGet) {
  fake.script("/order/1", {[&](const DecodedJws& jws) {
                             EXPECT_EQ(jws.payload, "");
                             auto r = order_json(200, "processing", fake);
                             r.headers.set("Retry-After", "1");
                             return r;
                           },
                           [&](const DecodedJws&) { return order_json(200, "valid", fake); }});
  Account account{signer, fake.url("/acct/1")};
  auto start = std::chrono::steady_clock::now();
  Order order = client.poll_order(account, fake.url("/order/1"), {.timeout = 10s, .interval = 10ms});
  EXPECT_GE(std::chrono::steady_clock::now() - start, 1s);
  EXPECT_EQ(order.status, "valid");
  EXPECT_EQ(fake.hits("/order/1"), 2);
}

TEST_F(AcmeClientFakeTest, PollGivesUpAtTheDeadline) {
  fake.script("/order/1", {[&](const DecodedJws&) { return order_json(200, "pending", fake); }});
  Account account{signer, fake.url("/acct/1")};
  auto start = std::chrono::steady_clock::now();
  try {
    client.poll_order(account, fake.url("/order/1"), {.timeout = 300ms, .interval = 50ms, .max_interval = 100ms});
    FAIL() << "expected PollTimeout";
  } catch (const PollTimeout& e) {
    EXPECT_EQ(e.last_status(), "pending");
    EXPECT_EQ(e.url(), fake.url("/order/1"));
  }
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_GE(took, 300ms);
  EXPECT_LT(took, 3s);
  EXPECT_GE(fake.hits("/order/1"), 3);
}

TEST_F(AcmeClientFakeTest, NonJsonErrorBodyStillGivesContext) {
  fake.script("/new-order", {[](const DecodedJws&) { return http::Response(502, "<html>bad gateway</html>", "text/html"); }});
  Account account{signer, fake.url("/acct/1")};
  try {
    client.new_order(account, {Identifier::dns("a.example")});
    FAIL() << "expected AcmeError";
  } catch (const AcmeError& e) {
    EXPECT_TRUE(e.type().empty());
    EXPECT_EQ(e.status(), 502);
    EXPECT_NE(e.detail().find("bad gateway"), std::string::npos);
  }
}

TEST_F(AcmeClientFakeTest, TransportErrorsNameTheActionAndCountAsErrors) {
  Client unreachable("http://127.0.0.1:1/dir", {}, &registry, ClientConfig{.request_timeout = 2s});
  EXPECT_THROW(
      {
        try {
          unreachable.directory();
        } catch (const http::TransportError& e) {
          EXPECT_NE(std::string(e.what()).find("ACME directory"), std::string::npos) << e.what();
          throw;
        }
      },
      http::TransportError);
  EXPECT_EQ(requests("directory", "GET", "error"), 1);
}

TEST_F(AcmeClientFakeTest, ExternalAccountBindingIsSent) {
  std::string mac = "secret-mac-key-bytes";
  fake.script("/new-acct", {[&](const DecodedJws& jws) {
                auto payload = json::parse(jws.payload).as_object();
                const json::Object* eab = json::get_object(payload, {"externalAccountBinding"});
                if (!eab) return FakeAcme::problem(400, "externalAccountRequired", "no eab");
                DecodedJws inner = decode_flattened(json::serialize(json::Value(*eab)));
                if (!verify_hmac(inner, mac)) return FakeAcme::problem(400, "unauthorized", "bad mac");
                EXPECT_EQ(json::get_string(inner.header, {"kid"}), "kid-7");
                EXPECT_EQ(Jwk::from_json(json::parse(inner.payload).as_object()), signer.jwk());
                return created_account(fake);
              }});
  Registration reg = client.register_account(signer, "", true, ExternalAccountBinding{"kid-7", mac, "HS256"});
  EXPECT_TRUE(reg.created);
}

}  // namespace
}  // namespace capstan::certificates::acme
