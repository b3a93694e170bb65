#include "runtime/client/client.h"
#include "runtime/client/rate_limiter.h"
#include "runtime/client/test_support.h"

#include <gtest/gtest.h>

#include <thread>

namespace capstan::client {
namespace {
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

TEST(ClientRateLimit, TokenBucketBurstThenQps) {
  TokenBucket b(20, 2);
  auto start = Clock::now();
  EXPECT_EQ(b.wait().count(), 0);
  EXPECT_EQ(b.wait().count(), 0);
  for (int i = 0; i < 8; ++i) b.wait();
  auto elapsed = Clock::now() - start;
  EXPECT_GE(elapsed, 350ms);  // 8 tokens at 20/s = 0.4 s
  EXPECT_LT(elapsed, 1500ms);
  EXPECT_FALSE(b.try_take());

  TokenBucket unlimited(0, 1);
  EXPECT_TRUE(unlimited.unlimited());
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(unlimited.wait().count(), 0);
}

TEST(ClientRateLimit, ACancelledReservationGivesItsTokenBack) {
  TokenBucket b(1, 1);
  EXPECT_EQ(b.reserve().count(), 0);
  auto second = b.reserve();  // in debt: about a second
  EXPECT_GT(second, 500ms);
  EXPECT_LE(second, 1s);
  b.cancel_reservation();
  auto third = b.reserve();  // queued behind one token again, not two
  EXPECT_GT(third, 500ms);
  EXPECT_LE(third, 1s);
}

TEST(ClientRateLimit, RequestsArePacedByQpsAndBurst) {
  testing::FakeApiServer server([](http::Request&, http::Reply& reply) {
    reply.send(testing::json_response(200, "{}"));
  });
  Config c = server.config();
  c.qps = 20;
  c.burst = 2;
  metrics::Registry registry;
  ClientOptions o;
  o.registry = &registry;
  Client client(c, o);
  const meta::GroupVersionResource nodes{"", "v1", "nodes"};
  auto start = Clock::now();
  for (int i = 0; i < 10; ++i) client.get(nodes, "", "n" + std::to_string(i));
  auto elapsed = Clock::now() - start;
  EXPECT_GE(elapsed, 350ms);
  EXPECT_LT(elapsed, 1500ms);
  EXPECT_EQ(server.count(), 10u);
  auto waited = testing::find_sample(registry, "rest_client_rate_limiter_duration_seconds",
                                     {"GET", server.url().substr(7)});
  ASSERT_TRUE(waited);
  EXPECT_EQ(waited->count, 10u);
  EXPECT_GE(waited->sum, 0.3);
}

TEST(ClientRateLimit, SharedAcrossThreads) {
  testing::FakeApiServer server([](http::Request&, http::Reply& reply) {
    reply.send(testing::json_response(200, "{}"));
  });
  Config c = server.config();
  c.qps = 50;
  c.burst = 1;
  Client client(c);
  auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 5; ++i) client.get(meta::GroupVersionResource{"", "v1", "nodes"}, "", "n");
    });
  for (auto& t : threads) t.join();
  auto elapsed = Clock::now() - start;
  EXPECT_GE(elapsed, 340ms);  // 19 tokens after the first at 50/s = 0.38 s
  EXPECT_LT(elapsed, 1500ms);
  EXPECT_EQ(server.count(), 20u);
}

TEST(ClientRateLimit, UnlimitedWhenQpsIsZero) {
  testing::FakeApiServer server([](http::Request&, http::Reply& reply) {
    reply.send(testing::json_response(200, "{}"));
  });
  Config c = server.config();
  c.qps = 0;
  c.burst = 1;
  Client client(c);
  auto start = Clock::now();
  for (int i = 0; i < 20; ++i) client.get(meta::GroupVersionResource{"", "v1", "nodes"}, "", "n");
  EXPECT_LT(Clock::now() - start, 1000ms);
}

}  // namespace
}  // namespace capstan::client
