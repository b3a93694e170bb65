#include "runtime/workqueue/queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "runtime/workqueue/test_support.h"

namespace capstan::workqueue {
namespace {

using testing::get_within;

TEST(WorkqueueQueue, FifoOrder) {
  Queue q;
  for (const char* k : {"ns/c", "ns/a", "ns/b"}) q.add(k);
  EXPECT_EQ(q.len(), 3u);
  EXPECT_EQ(get_within(q), "ns/c");
  EXPECT_EQ(get_within(q), "ns/a");
  EXPECT_EQ(get_within(q), "ns/b");
  EXPECT_EQ(q.len(), 0u);
}

TEST(WorkqueueQueue, AddsOfAQueuedKeyCollapse) {
  Queue q;
  q.add("a");
  q.add("b");
  q.add("a");
  q.add("a");
  EXPECT_EQ(q.len(), 2u);
  EXPECT_EQ(get_within(q), "a");  // keeps its first position
  EXPECT_EQ(get_within(q), "b");
  EXPECT_EQ(q.len(), 0u);
}

TEST(WorkqueueQueue, KeyAddedWhileProcessingWaitsForDone) {
  Queue q;
  q.add("a");
  ASSERT_EQ(get_within(q), "a");
  q.add("a");  // dirty while held: not handed to another worker
  q.add("a");  // and only once
  EXPECT_EQ(q.len(), 0u);
  q.add("b");
  EXPECT_EQ(get_within(q), "b");  // the next get() skips the held key
  q.done("b");
  EXPECT_EQ(q.len(), 0u);
  q.done("a");
  EXPECT_EQ(q.len(), 1u);  // re-queued exactly once
  EXPECT_EQ(get_within(q), "a");
  q.done("a");
  EXPECT_EQ(q.len(), 0u);
}

TEST(WorkqueueQueue, DoneWithoutReAddDropsTheKey) {
  Queue q;
  q.add("a");
  ASSERT_EQ(get_within(q), "a");
  q.done("a");
  q.done("never-got");  // harmless
  EXPECT_EQ(q.len(), 0u);
  q.add("a");  // a fresh add after done is a normal add
  EXPECT_EQ(q.len(), 1u);
}

TEST(WorkqueueQueue, TwoWorkersNeverHoldTheSameKey) {
  Queue q;
  std::mutex mu;
  std::set<std::string> held;
  std::atomic<int> overlaps{0}, processed{0};
  auto worker = [&] {
    while (auto key = q.get()) {
      {
        std::lock_guard lock(mu);
        if (!held.insert(*key).second) ++overlaps;
      }
      std::this_thread::yield();
      {
        std::lock_guard lock(mu);
        held.erase(*key);
      }
      ++processed;
      q.done(*key);
    }
  };
  std::vector<std::thread> workers;
  for (int i = 0; i < 4; ++i) workers.emplace_back(worker);
  constexpr int kAdds = 5000;
  for (int i = 0; i < kAdds; ++i) q.add("ns/key-" + std::to_string(i % 5));
  q.shut_down_with_drain();
  for (auto& w : workers) w.join();
  EXPECT_EQ(overlaps.load(), 0);
  EXPECT_GE(processed.load(), 5);
  EXPECT_LE(processed.load(), kAdds);
  EXPECT_EQ(q.len(), 0u);
}

TEST(WorkqueueQueue, ShutDownUnblocksGet) {
  Queue q;
  auto waiting = std::async(std::launch::async, [&] { return q.get(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // usually parked in get() by now
  q.shut_down();
  ASSERT_EQ(waiting.wait_for(testing::kPatience), std::future_status::ready);
  EXPECT_EQ(waiting.get(), std::nullopt);
  EXPECT_TRUE(q.shutting_down());
  q.add("late");  // ignored
  EXPECT_EQ(q.len(), 0u);
  EXPECT_EQ(get_within(q), std::nullopt);
}

TEST(WorkqueueQueue, ShutDownStillHandsOutQueuedKeys) {
  Queue q;
  q.add("a");
  q.add("b");
  q.shut_down();
  EXPECT_EQ(get_within(q), "a");
  EXPECT_EQ(get_within(q), "b");
  EXPECT_EQ(get_within(q), std::nullopt);
}

TEST(WorkqueueQueue, ShutDownWithDrainWaitsForDone) {
  Queue q;
  q.add("a");
  ASSERT_EQ(get_within(q), "a");
  auto drain = std::async(std::launch::async, [&] { q.shut_down_with_drain(); });
  EXPECT_EQ(drain.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout) << "returned while 'a' is held";
  EXPECT_TRUE(testing::eventually([&] { return q.shutting_down(); }));
  q.done("a");
  EXPECT_EQ(drain.wait_for(testing::kPatience), std::future_status::ready);
}

TEST(WorkqueueQueue, ShutDownCancelsAPendingDrain) {
  Queue q;
  q.add("a");
  ASSERT_EQ(get_within(q), "a");
  auto drain = std::async(std::launch::async, [&] { q.shut_down_with_drain(); });
  ASSERT_TRUE(testing::eventually([&] { return q.shutting_down(); }));
  q.shut_down();
  EXPECT_EQ(drain.wait_for(testing::kPatience), std::future_status::ready);
}

TEST(WorkqueueQueue, DrainWithNothingHeldReturnsAtOnce) {
  Queue q;
  auto drain = std::async(std::launch::async, [&] { q.shut_down_with_drain(); });
  EXPECT_EQ(drain.wait_for(testing::kPatience), std::future_status::ready);
}

TEST(WorkqueueQueue, DrainWaitsForQueuedKeysNotJustTheHeldOnes) {
  Queue q;
  q.add("a");
  q.add("b");
  ASSERT_EQ(get_within(q), "a");
  auto drain = std::async(std::launch::async, [&] { q.shut_down_with_drain(); });
  ASSERT_TRUE(testing::eventually([&] { return q.shutting_down(); }));
  q.done("a");  // nothing is held now, but "b" is still queued
  EXPECT_EQ(drain.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout) << "returned with 'b' still queued";
  ASSERT_EQ(get_within(q), "b");
  q.done("b");
  EXPECT_EQ(drain.wait_for(testing::kPatience), std::future_status::ready);
}

TEST(WorkqueueQueue, ShutDownNowStopsHandingOutQueuedKeys) {
  Queue q;
  for (const char* k : {"a", "b", "c"}) q.add(k);
  ASSERT_EQ(get_within(q), "a");
  q.add("a");  // dirty while held: would be queued again on done()
  q.shut_down_now();
  EXPECT_TRUE(q.shutting_down());
  EXPECT_EQ(q.len(), 0u);
  EXPECT_EQ(get_within(q), std::nullopt) << "queued keys are dropped, not handed out";
  q.add("d");  // ignored
  q.done("a");
  EXPECT_EQ(q.len(), 0u) << "done() no longer re-queues";
  EXPECT_EQ(get_within(q), std::nullopt);
}

TEST(WorkqueueQueue, ShutDownNowWakesBlockedGets) {
  Queue q;
  auto a = std::async(std::launch::async, [&] { return q.get(); });
  auto b = std::async(std::launch::async, [&] { return q.get(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // usually parked in get() by now
  q.shut_down_now();
  ASSERT_EQ(a.wait_for(testing::kPatience), std::future_status::ready);
  ASSERT_EQ(b.wait_for(testing::kPatience), std::future_status::ready);
  EXPECT_EQ(a.get(), std::nullopt);
  EXPECT_EQ(b.get(), std::nullopt);
}

TEST(WorkqueueQueue, WaitUntilIdleIsBoundedAndSeesDone) {
  Queue q;
  EXPECT_TRUE(q.wait_until_idle(std::chrono::milliseconds(0)));
  q.add("a");
  ASSERT_EQ(get_within(q), "a");
  EXPECT_FALSE(q.wait_until_idle(std::chrono::milliseconds(30))) << "'a' is still held";
  auto idle = std::async(std::launch::async, [&] { return q.wait_until_idle(std::chrono::seconds(5)); });
  q.done("a");
  ASSERT_EQ(idle.wait_for(testing::kPatience), std::future_status::ready);
  EXPECT_TRUE(idle.get());
}

// A backlog of slow keys: after shut_down_now() the workers finish the key they hold and take
// no other; the rest of the backlog is never processed.
TEST(WorkqueueQueue, ShutDownNowLeavesTheBacklogUnprocessed) {
  Queue q;
  constexpr int kKeys = 100;
  for (int i = 0; i < kKeys; ++i) q.add("ns/key-" + std::to_string(i));
  std::atomic<int> started{0}, finished{0};
  std::atomic<bool> release{false};
  auto worker = [&] {
    while (auto key = q.get()) {
      ++started;
      while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      ++finished;
      q.done(*key);
    }
  };
  std::vector<std::thread> workers;
  for (int i = 0; i < 3; ++i) workers.emplace_back(worker);
  ASSERT_TRUE(testing::eventually([&] { return started.load() == 3; }));
  q.shut_down_now();
  EXPECT_FALSE(q.wait_until_idle(std::chrono::milliseconds(20))) << "three keys are still held";
  release = true;
  EXPECT_TRUE(q.wait_until_idle(std::chrono::seconds(5)));
  for (auto& w : workers) w.join();
  EXPECT_EQ(started.load(), 3);
  EXPECT_EQ(finished.load(), 3);
  EXPECT_EQ(q.len(), 0u);
}

}  // namespace
}  // namespace capstan::workqueue
