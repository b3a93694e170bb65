#include "controllers/certificates/acme/solver.h"
#include "runtime/http/client.h"
#include "runtime/metrics/registry.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace capstan::certificates::acme {
namespace {

class SolverTest : public ::testing::Test {
 protected:
  void SetUp() override { solver.start(); }
  std::string url(std::string_view path) { return "http://" + solver.address() + std::string(path); }
  http::Response get(std::string_view path, http::Headers headers = {}) {
    return client.request("GET", url(path), headers, {}, std::chrono::seconds(5));
  }

  metrics::Registry registry;
  Http01Solver solver{{.address = "127.0.0.1", .port = 0}, &registry};
  http::Client client;
};

TEST_F(SolverTest, ServesTheKeyAuthorizationAsPlainText) {
  ASSERT_TRUE(solver.running());
  ASSERT_NE(solver.port(), 0);
  solver.add("tok_en-1", "tok_en-1.thumb");
  auto r = get("/.well-known/acme-challenge/tok_en-1");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "tok_en-1.thumb");
  EXPECT_EQ(r.headers.get_or("Content-Type", ""), "text/plain");
  EXPECT_EQ(solver.key_authorization("tok_en-1"), "tok_en-1.thumb");
  EXPECT_EQ(Http01Solver::path_for("tok_en-1"), "/.well-known/acme-challenge/tok_en-1");
}

TEST_F(SolverTest, UnknownTokensAndOtherPathsAre404) {
  solver.add("known", "known.ka");
  EXPECT_EQ(get("/.well-known/acme-challenge/unknown").status, 404);
  EXPECT_EQ(get("/.well-known/acme-challenge/").status, 404);
  EXPECT_EQ(get("/known").status, 404);
  EXPECT_EQ(get("/").status, 404);
  EXPECT_EQ(get("/.well-known/acme-challenge/known/extra").status, 404);
}

TEST_F(SolverTest, TokensCanBeRemovedAndReplaced) {
  solver.add("t1", "t1.a");
  solver.add("t1", "t1.b");
  EXPECT_EQ(get("/.well-known/acme-challenge/t1").body, "t1.b");
  EXPECT_EQ(solver.size(), 1u);
  EXPECT_TRUE(solver.remove("t1"));
  EXPECT_FALSE(solver.remove("t1"));
  EXPECT_EQ(get("/.well-known/acme-challenge/t1").status, 404);
  EXPECT_EQ(solver.size(), 0u);
}

TEST_F(SolverTest, DomainMustMatchTheHostHeader) {
  solver.add("scoped", "scoped.ka", "www.Example.com");
  EXPECT_EQ(get("/.well-known/acme-challenge/scoped", {{"Host", "www.example.com:5002"}}).status, 200);
  EXPECT_EQ(get("/.well-known/acme-challenge/scoped", {{"Host", "www.example.com."}}).status, 200);
  EXPECT_EQ(get("/.well-known/acme-challenge/scoped", {{"Host", "other.example.com"}}).status, 404);
  solver.add("v6", "v6.ka", "::1");
  EXPECT_EQ(get("/.well-known/acme-challenge/v6", {{"Host", "[::1]:80"}}).status, 200);
}

// What a follower replica answers: tokens its informer fed in from the leader's requests.
TEST_F(SolverTest, PublishedTokensAreAnsweredAndFollowTheirOwner) {
  solver.set_published("uid-1", {{"pub1", "pub1.ka", "a.example"}, {"pub2", "pub2.ka", ""}, {"bad token", "x", ""}});
  EXPECT_EQ(solver.published_size(), 2u);
  EXPECT_EQ(solver.size(), 0u);
  EXPECT_EQ(get("/.well-known/acme-challenge/pub1", {{"Host", "a.example"}}).body, "pub1.ka");
  EXPECT_EQ(get("/.well-known/acme-challenge/pub1", {{"Host", "b.example"}}).status, 404);
  EXPECT_EQ(get("/.well-known/acme-challenge/pub2").body, "pub2.ka");
  // The owner's next state replaces its last one.
  solver.set_published("uid-1", {{"pub2", "pub2.ka", ""}});
  EXPECT_EQ(get("/.well-known/acme-challenge/pub1", {{"Host", "a.example"}}).status, 404);
  solver.set_published("uid-2", {{"pub3", "pub3.ka", ""}});
  solver.set_published("uid-1", {});
  EXPECT_EQ(get("/.well-known/acme-challenge/pub2").status, 404);
  EXPECT_EQ(get("/.well-known/acme-challenge/pub3").body, "pub3.ka");
  EXPECT_EQ(solver.published_size(), 1u);
}

TEST_F(SolverTest, OnlyGetIsAnswered) {
  solver.add("t", "t.ka");
  auto r = client.request("POST", url("/.well-known/acme-challenge/t"), {}, "x", std::chrono::seconds(5));
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.headers.get_or("Allow", ""), "GET");
}

TEST_F(SolverTest, RejectsTokensOutsideBase64url) {
  EXPECT_THROW(solver.add("", "x"), std::invalid_argument);
  EXPECT_THROW(solver.add("../etc", "x"), std::invalid_argument);
  EXPECT_THROW(solver.add("a b", "x"), std::invalid_argument);
}

TEST_F(SolverTest, CountsRequestsByResult) {
  solver.add("t", "t.ka");
  get("/.well-known/acme-challenge/t");
  get("/.well-known/acme-challenge/missing");
  auto& family = registry.counter("capstan_acme_http01_solver_requests_total",
                                  "Requests answered by the ACME HTTP-01 solver, by result", {"result"});
  EXPECT_EQ(family.with({"served"}).value(), 1);
  EXPECT_EQ(family.with({"not_found"}).value(), 1);
}

TEST_F(SolverTest, ConcurrentUpdatesWhileServing) {
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  solver.add("stable", "stable.ka");
  std::thread writer([&] {
    for (int i = 0; !stop; ++i) {
      std::string t = "tok" + std::to_string(i % 50);
      solver.add(t, t + ".ka");
      if (i % 3 == 0) solver.remove(t);
    }
  });
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      http::Client c;
      for (int i = 0; i < 100; ++i) {
        auto resp = c.request("GET", url("/.well-known/acme-challenge/stable"), {}, {}, std::chrono::seconds(5));
        if (resp.status != 200 || resp.body != "stable.ka") ++bad;
        std::string t = "tok" + std::to_string(i % 50);
        auto other = c.request("GET", url("/.well-known/acme-challenge/" + t), {}, {}, std::chrono::seconds(5));
        if (other.status == 200 && other.body != t + ".ka") ++bad;
      }
    });
  }
  for (auto& t : readers) t.join();
  stop = true;
  writer.join();
  EXPECT_EQ(bad, 0);
}

TEST(SolverLifecycleTest, StopAndRestartKeepsTokens) {
  metrics::Registry registry;
  Http01Solver solver({.address = "127.0.0.1", .port = 0}, &registry);
  solver.add("keep", "keep.ka");
  EXPECT_FALSE(solver.running());
  solver.start();
  solver.stop();
  solver.stop();
  EXPECT_FALSE(solver.running());
  solver.start();
  http::Client c;
  auto r = c.request("GET", "http://" + solver.address() + "/.well-known/acme-challenge/keep", {}, {}, std::chrono::seconds(5));
  EXPECT_EQ(r.body, "keep.ka");
}

}  // namespace
}  // namespace capstan::certificates::acme
