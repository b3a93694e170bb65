#include "runtime/health/health.h"

#include <gtest/gtest.h>

namespace capstan::health {
namespace {

http::Request get(std::string target) {
  http::Request r;
  r.target = std::move(target);
  return r;
}

TEST(Health, AggregatesNamedChecks) {
  Checks c;
  c.add_liveness("ping", [] { return std::string(); });
  bool synced = false;
  c.add_readiness("informers", [&] { return synced ? std::string() : std::string("caches not synced"); });
  c.add_readiness("webhook", [] { return std::string(); });
  EXPECT_EQ(c.handle(get("/healthz"))->status, 200);
  EXPECT_EQ(c.handle(get("/healthz"))->body, "ok");
  auto r = c.handle(get("/readyz"));
  EXPECT_EQ(r->status, 500);
  EXPECT_EQ(r->body, "[-]informers failed: reason withheld\n[+]webhook ok\nreadyz check failed\n");
  EXPECT_EQ(c.handle(get("/readyz/webhook"))->status, 200);
  EXPECT_EQ(c.handle(get("/readyz/nope"))->status, 404);
  synced = true;
  EXPECT_EQ(c.handle(get("/readyz"))->body, "ok");
  EXPECT_EQ(c.handle(get("/readyz?verbose"))->body, "[+]informers ok\n[+]webhook ok\nreadyz check passed\n");
  EXPECT_FALSE(c.handle(get("/metrics")).has_value());
}

}  // namespace
}  // namespace capstan::health
