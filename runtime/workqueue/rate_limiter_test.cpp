#include <gtest/gtest.h>

#include <stdexcept>

#include "runtime/workqueue/bucket_rate_limiter.h"
#include "runtime/workqueue/item_exponential_rate_limiter.h"
#include "runtime/workqueue/rate_limiter.h"

namespace capstan::workqueue {
namespace {

using namespace std::chrono_literals;

TEST(RateLimiterExponential, DoublesFromBaseUpToMax) {
  ItemExponentialFailureRateLimiter rl(5ms, 1000s);
  Duration expected = 5ms;
  int calls = 0;
  while (expected < 1000s) {
    EXPECT_EQ(rl.when("ns/a"), expected) << "failure #" << calls;
    ++calls;
    expected *= 2;
  }
  EXPECT_EQ(calls, 18);  // 5ms * 2^17 = 655.36 s; 2^18 would be 1310.72 s
  for (int i = 0; i < 200; ++i) EXPECT_EQ(rl.when("ns/a"), Duration(1000s));  // capped, no overflow
  EXPECT_EQ(rl.num_requeues("ns/a"), 218);
  EXPECT_EQ(rl.when("ns/b"), Duration(5ms));  // per item
  rl.forget("ns/a");
  EXPECT_EQ(rl.num_requeues("ns/a"), 0);
  EXPECT_EQ(rl.when("ns/a"), Duration(5ms));
  EXPECT_EQ(rl.when("ns/a"), Duration(10ms));
}

TEST(RateLimiterExponential, HugeMaxDoesNotOverflow) {
  ItemExponentialFailureRateLimiter rl(1ms, Duration::max());
  Duration last{0};
  for (int i = 0; i < 100; ++i) {
    Duration d = rl.when("k");
    EXPECT_GE(d, last) << "call " << i;
    last = d;
  }
  EXPECT_EQ(last, Duration::max());
  EXPECT_THROW(ItemExponentialFailureRateLimiter(10ms, 1ms), std::invalid_argument);
}

TEST(RateLimiterBucket, BurstThenOneTokenPerInterval) {
  auto clock = std::make_shared<FakeClock>();
  BucketRateLimiter rl(10, 100, clock);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(rl.when(std::to_string(i)), Duration::zero()) << i;
  EXPECT_EQ(rl.when("x"), Duration(100ms));  // reservations: the n-th call past the burst waits n/qps
  EXPECT_EQ(rl.when("y"), Duration(200ms));
  EXPECT_EQ(rl.when("z"), Duration(300ms));
  clock->advance(1s);  // +10 tokens: -3 + 10 = 7 available
  for (int i = 0; i < 7; ++i) ASSERT_EQ(rl.when("w"), Duration::zero()) << i;
  EXPECT_EQ(rl.when("w"), Duration(100ms));
  EXPECT_EQ(rl.num_requeues("w"), 0);
  clock->advance(1h);  // refills to the burst, not beyond
  for (int i = 0; i < 100; ++i) ASSERT_EQ(rl.when("v"), Duration::zero()) << i;
  EXPECT_EQ(rl.when("v"), Duration(100ms));
  EXPECT_THROW(BucketRateLimiter(0, 1, clock), std::invalid_argument);
  EXPECT_THROW(BucketRateLimiter(1, 0, clock), std::invalid_argument);
}

TEST(RateLimiterMaxOf, DefaultControllerLimiterTakesTheLargerDelay) {
  auto clock = std::make_shared<FakeClock>();
  auto rl = default_controller_rate_limiter(clock);
  // Within the burst of 100 the per-item backoff dominates (first failure: 5 ms).
  for (int i = 0; i < 100; ++i) ASSERT_EQ(rl->when("ns/k" + std::to_string(i)), Duration(5ms)) << i;
  // Past the burst the bucket dominates, even for keys that never failed.
  EXPECT_EQ(rl->when("ns/fresh1"), Duration(100ms));
  EXPECT_EQ(rl->when("ns/fresh2"), Duration(200ms));
  // Let the bucket refill; a key's own backoff dominates again once it grows large.
  clock->advance(1h);
  Duration d{};
  for (int i = 0; i < 10; ++i) d = rl->when("ns/k0");  // ns/k0's 2nd..11th failure
  EXPECT_EQ(d, Duration(5ms * 1024));                  // 5ms * 2^10 = 5.12 s, the bucket says 0
  EXPECT_EQ(rl->num_requeues("ns/k0"), 11);
  rl->forget("ns/k0");
  EXPECT_EQ(rl->num_requeues("ns/k0"), 0);
  EXPECT_EQ(rl->when("ns/k0"), Duration(5ms));
}

TEST(RateLimiterMaxOf, NeedsLimiters) {
  EXPECT_THROW(MaxOfRateLimiter({}), std::invalid_argument);
  std::vector<std::unique_ptr<RateLimiter>> with_null;
  with_null.push_back(nullptr);
  EXPECT_THROW(MaxOfRateLimiter(std::move(with_null)), std::invalid_argument);
}

}  // namespace
}  // namespace capstan::workqueue
