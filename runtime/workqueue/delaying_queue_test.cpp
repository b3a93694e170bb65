#include "runtime/workqueue/delaying_queue.h"

#include <dirent.h>
#include <gtest/gtest.h>

#include "runtime/workqueue/rate_limiting_queue.h"
#include "runtime/workqueue/item_exponential_rate_limiter.h"
#include "runtime/workqueue/test_support.h"

namespace capstan::workqueue {
namespace {

using namespace std::chrono_literals;
using testing::eventually;
using testing::get_within;

int thread_count() {
  int n = 0;
  if (DIR* d = ::opendir("/proc/self/task")) {
    while (dirent* e = ::readdir(d)) n += e->d_name[0] != '.';
    ::closedir(d);
  }
  return n;
}

struct FakeTime {
  std::shared_ptr<FakeClock> clock = std::make_shared<FakeClock>();
  QueueConfig config() const { return QueueConfig{.name = "", .registry = nullptr, .clock = clock}; }
};

TEST(WorkqueueDelaying, NonPositiveDelayAddsAtOnce) {
  FakeTime t;
  DelayingQueue q(t.config());
  q.add_after("a", 0ms);
  q.add_after("b", -5ms);
  EXPECT_EQ(q.len(), 2u);
  EXPECT_EQ(q.waiting_len(), 0u);
}

TEST(WorkqueueDelaying, KeyAppearsWhenItsTimeComes) {
  FakeTime t;
  DelayingQueue q(t.config());
  q.add_after("a", 10ms);
  EXPECT_EQ(q.waiting_len(), 1u);
  t.clock->advance(9ms);
  EXPECT_EQ(q.len(), 0u);  // not due: the waiting thread cannot have added it
  t.clock->advance(1ms);
  EXPECT_EQ(get_within(q), "a");
  EXPECT_EQ(q.waiting_len(), 0u);
}

TEST(WorkqueueDelaying, OrderedByDueTimeAndEarliestWins) {
  FakeTime t;
  DelayingQueue q(t.config());
  q.add_after("a", 30ms);
  q.add_after("b", 10ms);
  q.add_after("c", 20ms);
  q.add_after("a", 5ms);   // earlier: replaces 30ms
  q.add_after("b", 50ms);  // later: ignored, b stays at 10ms
  EXPECT_EQ(q.waiting_len(), 3u);
  t.clock->advance(5ms);
  EXPECT_EQ(get_within(q), "a");
  EXPECT_EQ(q.len(), 0u);
  t.clock->advance(5ms);
  EXPECT_EQ(get_within(q), "b");
  t.clock->advance(10ms);
  EXPECT_EQ(get_within(q), "c");
  EXPECT_EQ(q.waiting_len(), 0u);  // neither a@30ms nor b@50ms is left waiting
  t.clock->advance(1h);
  EXPECT_EQ(q.len(), 0u);
}

TEST(WorkqueueDelaying, SameDueTimeKeepsAddOrder) {
  FakeTime t;
  DelayingQueue q(t.config());
  for (const char* k : {"x", "y", "z"}) q.add_after(k, 1s);
  t.clock->advance(1s);
  EXPECT_EQ(get_within(q), "x");
  EXPECT_EQ(get_within(q), "y");
  EXPECT_EQ(get_within(q), "z");
}

TEST(WorkqueueDelaying, DueKeyCollapsesWithQueuedKey) {
  FakeTime t;
  DelayingQueue q(t.config());
  q.add("a");
  q.add_after("a", 5ms);
  t.clock->advance(5ms);
  ASSERT_TRUE(eventually([&] { return q.waiting_len() == 0; }));
  EXPECT_EQ(q.len(), 1u);
}

TEST(WorkqueueDelaying, OneWaitingThreadForManyKeys) {
  FakeTime t;
  DelayingQueue q(t.config());
  int before = thread_count();
  for (int i = 0; i < 500; ++i) q.add_after("ns/k" + std::to_string(i), std::chrono::milliseconds(1 + i));
  EXPECT_EQ(thread_count(), before);
  EXPECT_EQ(q.waiting_len(), 500u);
  t.clock->advance(1s);
  ASSERT_TRUE(eventually([&] { return q.len() == 500; }));
  EXPECT_EQ(get_within(q), "ns/k0");
}

TEST(WorkqueueDelaying, RealClock) {
  DelayingQueue q;
  auto start = std::chrono::steady_clock::now();
  q.add_after("later", 30ms);
  q.add_after("sooner", 10ms);
  EXPECT_EQ(get_within(q), "sooner");
  EXPECT_EQ(get_within(q), "later");
  EXPECT_GE(std::chrono::steady_clock::now() - start, 30ms);
}

TEST(WorkqueueDelaying, ShutDownDropsWaitingKeysAndUnblocksGet) {
  FakeTime t;
  DelayingQueue q(t.config());
  q.add_after("a", 1h);
  q.shut_down();
  EXPECT_EQ(q.waiting_len(), 0u);
  q.add_after("b", 1ms);  // ignored
  EXPECT_EQ(q.waiting_len(), 0u);
  EXPECT_EQ(get_within(q), std::nullopt);
}

TEST(WorkqueueRateLimiting, AddRateLimitedBacksOff) {
  FakeTime t;
  RateLimitingQueue q(t.config(), std::make_unique<ItemExponentialFailureRateLimiter>(5ms, 1000s));
  q.add_rate_limited("a");
  EXPECT_EQ(q.num_requeues("a"), 1);
  t.clock->advance(4ms);
  EXPECT_EQ(q.len(), 0u);
  t.clock->advance(1ms);
  ASSERT_EQ(get_within(q), "a");
  q.add_rate_limited("a");  // second failure: 10 ms
  q.done("a");
  t.clock->advance(9ms);
  EXPECT_EQ(q.len(), 0u);
  t.clock->advance(1ms);
  ASSERT_EQ(get_within(q), "a");
  q.forget("a");
  q.done("a");
  EXPECT_EQ(q.num_requeues("a"), 0);
  q.add_rate_limited("a");  // back to 5 ms
  t.clock->advance(5ms);
  EXPECT_EQ(get_within(q), "a");
}

TEST(WorkqueueRateLimiting, DefaultLimiterAndShutDownWithDrain) {
  FakeTime t;
  RateLimitingQueue q(t.config());  // default_controller_rate_limiter on the fake clock
  q.add_rate_limited("a");
  EXPECT_EQ(q.num_requeues("a"), 1);
  t.clock->advance(5ms);
  ASSERT_EQ(get_within(q), "a");
  auto drain = std::async(std::launch::async, [&] { q.shut_down_with_drain(); });
  EXPECT_EQ(drain.wait_for(20ms), std::future_status::timeout);
  q.done("a");
  EXPECT_EQ(drain.wait_for(testing::kPatience), std::future_status::ready);
  EXPECT_EQ(get_within(q), std::nullopt);
}

TEST(WorkqueueDelaying, ShutDownNowDropsQueuedAndWaitingKeys) {
  FakeTime t;
  DelayingQueue q(t.config());
  q.add("now");
  q.add_after("later", 1h);
  q.shut_down_now();
  EXPECT_EQ(q.waiting_len(), 0u);
  EXPECT_EQ(q.len(), 0u);
  q.add_after("b", 1ms);  // ignored
  EXPECT_EQ(q.waiting_len(), 0u);
  EXPECT_EQ(get_within(q), std::nullopt);
}

}  // namespace
}  // namespace capstan::workqueue
