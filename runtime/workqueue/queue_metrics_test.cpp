#include "runtime/workqueue/queue_metrics.h"

#include <gtest/gtest.h>

#include "runtime/metrics/exposition.h"
#include "runtime/metrics/registry.h"
#include "runtime/workqueue/item_exponential_rate_limiter.h"
#include "runtime/workqueue/rate_limiting_queue.h"
#include "runtime/workqueue/test_support.h"

namespace capstan::workqueue {
namespace {

using namespace std::chrono_literals;
using testing::get_within;

// The sample of `family` whose label values start with `name` (the queue name), from a fresh collect.
metrics::SampleSnapshot sample(const metrics::Registry& r, const std::string& family, const std::string& name) {
  for (const auto& f : r.collect()) {
    if (f.name != family) continue;
    for (const auto& s : f.samples) {
      if (!s.label_values.empty() && s.label_values[0] == name) return s;
    }
  }
  ADD_FAILURE() << "no " << family << " sample for queue " << name;
  return {};
}

struct Fixture {
  metrics::Registry registry;
  std::shared_ptr<FakeClock> clock = std::make_shared<FakeClock>();
  QueueConfig config(std::string name) { return QueueConfig{.name = std::move(name), .registry = &registry, .clock = clock}; }
};

TEST(WorkqueueMetrics, DepthAddsAndRetries) {
  Fixture fx;
  RateLimitingQueue q(fx.config("certificate"), std::make_unique<ItemExponentialFailureRateLimiter>());
  q.add("ns/a");
  q.add("ns/b");
  q.add("ns/a");  // collapsed: not an add
  EXPECT_EQ(sample(fx.registry, "workqueue_adds_total", "certificate").value, 2);
  EXPECT_EQ(sample(fx.registry, "workqueue_depth", "certificate").value, 2);
  ASSERT_EQ(get_within(q), "ns/a");
  EXPECT_EQ(sample(fx.registry, "workqueue_depth", "certificate").value, 1);
  q.add("ns/a");  // dirty while processing: counted as an add and in the depth (client-go does so)
  EXPECT_EQ(sample(fx.registry, "workqueue_adds_total", "certificate").value, 3);
  EXPECT_EQ(sample(fx.registry, "workqueue_depth", "certificate").value, 2);
  q.done("ns/a");
  EXPECT_EQ(sample(fx.registry, "workqueue_depth", "certificate").value, 2);

  q.add_rate_limited("ns/c");      // 5 ms: a retry
  q.add_after("ns/d", 0ms);        // no delay: an add, not a retry
  q.add_after("ns/e", 2s);         // a retry
  EXPECT_EQ(sample(fx.registry, "workqueue_retries_total", "certificate").value, 2);
  EXPECT_EQ(sample(fx.registry, "workqueue_adds_total", "certificate").value, 4);  // ns/d
  fx.clock->advance(5ms);
  ASSERT_TRUE(testing::eventually([&] { return q.len() == 4; }));  // b, a, d, then c
  EXPECT_EQ(sample(fx.registry, "workqueue_adds_total", "certificate").value, 5);
  EXPECT_EQ(sample(fx.registry, "workqueue_depth", "certificate").value, 4);

  std::string text = metrics::render(fx.registry);
  EXPECT_NE(text.find("workqueue_depth{controller=\"certificate\",name=\"certificate\",priority=\"\"} 4\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("workqueue_adds_total{controller=\"certificate\",name=\"certificate\"} 5\n"), std::string::npos);
  EXPECT_NE(text.find("workqueue_retries_total{controller=\"certificate\",name=\"certificate\"} 2\n"),
            std::string::npos);
  EXPECT_NE(text.find("workqueue_queue_duration_seconds_bucket{controller=\"certificate\",name=\"certificate\",le=\"1e-08\"}"),
            std::string::npos);
}

TEST(WorkqueueMetrics, QueueAndWorkDurations) {
  Fixture fx;
  Queue q(fx.config("kafka"));
  q.add("a");
  fx.clock->advance(2s);
  ASSERT_EQ(get_within(q), "a");
  fx.clock->advance(500ms);
  q.done("a");
  auto latency = sample(fx.registry, "workqueue_queue_duration_seconds", "kafka");
  EXPECT_EQ(latency.count, 1u);
  EXPECT_DOUBLE_EQ(latency.sum, 2.0);
  auto work = sample(fx.registry, "workqueue_work_duration_seconds", "kafka");
  EXPECT_EQ(work.count, 1u);
  EXPECT_DOUBLE_EQ(work.sum, 0.5);
  // 12 buckets 1e-8 .. 1e3: 0.5 s falls in le=1 (index 8) and not in le=0.1 (index 7).
  ASSERT_EQ(work.cumulative_counts.size(), 12u);
  EXPECT_EQ(work.cumulative_counts[7], 0u);
  EXPECT_EQ(work.cumulative_counts[8], 1u);
}

TEST(WorkqueueMetrics, UnfinishedWorkIsComputedOnScrape) {
  Fixture fx;
  Queue q(fx.config("gitops"));
  q.add("a");
  q.add("b");
  ASSERT_EQ(get_within(q), "a");
  fx.clock->advance(2s);
  ASSERT_EQ(get_within(q), "b");
  fx.clock->advance(1s);
  EXPECT_DOUBLE_EQ(sample(fx.registry, "workqueue_unfinished_work_seconds", "gitops").value, 4);  // 3 + 1
  EXPECT_DOUBLE_EQ(sample(fx.registry, "workqueue_longest_running_processor_seconds", "gitops").value, 3);
  q.done("a");
  EXPECT_DOUBLE_EQ(sample(fx.registry, "workqueue_unfinished_work_seconds", "gitops").value, 1);
  q.done("b");
  EXPECT_DOUBLE_EQ(sample(fx.registry, "workqueue_longest_running_processor_seconds", "gitops").value, 0);
}

TEST(WorkqueueMetrics, QueuesKeepSeparateSeriesAndUnregisterOnDestruction) {
  Fixture fx;
  {
    Queue a(fx.config("alpha"));
    Queue b(fx.config("beta"));
    a.add("x");
    a.add("y");
    b.add("x");
    ASSERT_EQ(get_within(a), "x");
    fx.clock->advance(1s);
    EXPECT_EQ(sample(fx.registry, "workqueue_adds_total", "alpha").value, 2);
    EXPECT_EQ(sample(fx.registry, "workqueue_adds_total", "beta").value, 1);
    EXPECT_DOUBLE_EQ(sample(fx.registry, "workqueue_unfinished_work_seconds", "alpha").value, 1);
  }
  fx.clock->advance(1s);
  // The destroyed queue's scrape callback is gone (collect would otherwise touch freed memory) and its
  // in-flight gauges were reset.
  EXPECT_DOUBLE_EQ(sample(fx.registry, "workqueue_unfinished_work_seconds", "alpha").value, 0);
}

TEST(WorkqueueMetrics, UnnamedQueueRecordsNothing) {
  Fixture fx;
  Queue q(fx.config(""));
  q.add("a");
  for (const auto& f : fx.registry.collect()) ADD_FAILURE() << "unexpected family " << f.name;
}

TEST(WorkqueueMetrics, FamiliesAreRegisteredWithControllerRuntimeLabels) {
  metrics::Registry r;
  register_workqueue_metrics(r);
  register_workqueue_metrics(r);  // idempotent
  EXPECT_EQ(r.gauge("workqueue_depth", "Current depth of workqueue by workqueue and priority",
                    {"name", "controller", "priority"})
                .label_names()
                .size(),
            3u);
  EXPECT_THROW(r.counter("workqueue_adds_total", "x", {"name"}), std::invalid_argument);
}

TEST(WorkqueueMetrics, ShutDownNowTakesDroppedKeysOutOfTheDepth) {
  Fixture fx;
  RateLimitingQueue q(fx.config("dropping"), std::make_unique<ItemExponentialFailureRateLimiter>());
  q.add("ns/a");
  q.add("ns/b");
  q.add("ns/c");
  ASSERT_EQ(get_within(q), "ns/a");
  q.add("ns/a");  // dirty while held
  EXPECT_EQ(sample(fx.registry, "workqueue_depth", "dropping").value, 3);
  q.shut_down_now();
  EXPECT_EQ(sample(fx.registry, "workqueue_depth", "dropping").value, 0);
  q.done("ns/a");
  EXPECT_EQ(sample(fx.registry, "workqueue_depth", "dropping").value, 0);
}

}  // namespace
}  // namespace capstan::workqueue
