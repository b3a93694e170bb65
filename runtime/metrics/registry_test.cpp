#include "runtime/metrics/registry.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>
#include <vector>

#include "runtime/metrics/buckets.h"
#include "runtime/metrics/names.h"

namespace capstan::metrics {
namespace {

const FamilySnapshot* find(const std::vector<FamilySnapshot>& all, const std::string& name) {
  for (const auto& f : all) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "<no std::invalid_argument thrown>";
}

TEST(MetricsRegistry, CounterGaugeValues) {
  Registry r;
  auto& c = r.counter("jobs_total", "Jobs.", {"kind"});
  c.with({"a"}).inc();
  c.with({"a"}).inc(2.5);
  c.with({"b"}).inc();
  EXPECT_DOUBLE_EQ(c.with({"a"}).value(), 3.5);
  EXPECT_DOUBLE_EQ(c.with({"b"}).value(), 1);
  EXPECT_THROW(c.with({"a"}).inc(-1), std::invalid_argument);
  EXPECT_DOUBLE_EQ(c.with({"a"}).value(), 3.5);

  auto& g = r.gauge("temperature", "T.").with({});
  g.set(10);
  g.inc();
  g.dec(3);
  EXPECT_DOUBLE_EQ(g.value(), 8);
  g.set_to_current_time();
  auto now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_NEAR(g.value(), now, 5.0);
}

TEST(MetricsRegistry, ChildReferenceIsStable) {
  Registry r;
  auto& fam = r.counter("stable_total", "S.", {"k"});
  Counter& first = fam.with({"x"});
  for (int i = 0; i < 1000; ++i) fam.with({std::to_string(i)}).inc();  // forces map growth
  EXPECT_EQ(&first, &fam.with({"x"}));
  first.inc();
  EXPECT_DOUBLE_EQ(fam.with({"x"}).value(), 1);
}

TEST(MetricsRegistry, LabelArityIsChecked) {
  Registry r;
  auto& fam = r.gauge("arity", "A.", {"a", "b"});
  std::string msg = error_of([&] { fam.with({"only-one"}); });
  EXPECT_NE(msg.find("\"arity\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("got 1 values"), std::string::npos) << msg;
}

TEST(MetricsRegistry, SameDefinitionReturnsExistingFamily) {
  Registry r;
  auto& a = r.counter("reqs_total", "Requests.", {"code"});
  auto& b = r.counter("reqs_total", "Requests.", {"code"});
  EXPECT_EQ(&a, &b);
  auto& h1 = r.histogram("lat_seconds", "L.", {}, {0.1, 1});
  auto& h2 = r.histogram("lat_seconds", "L.", {}, {0.1, 1});
  EXPECT_EQ(&h1, &h2);
}

TEST(MetricsRegistry, ConflictingDefinitionThrows) {
  Registry r;
  r.counter("reqs_total", "Requests.", {"code"});
  std::string msg = error_of([&] { r.gauge("reqs_total", "Requests.", {"code"}); });
  EXPECT_NE(msg.find("already registered as counter"), std::string::npos) << msg;
  EXPECT_NE(error_of([&] { r.counter("reqs_total", "Requests.", {"method"}); }).find("labels [method]"),
            std::string::npos);
  EXPECT_NE(error_of([&] { r.counter("reqs_total", "Other help.", {"code"}); }).find("help"), std::string::npos);
  r.histogram("lat_seconds", "L.", {}, {0.1, 1});
  EXPECT_NE(error_of([&] { r.histogram("lat_seconds", "L.", {}, {0.1, 2}); }).find("buckets"), std::string::npos);
  // A histogram owns its _bucket/_sum/_count sample names.
  EXPECT_NE(error_of([&] { r.counter("lat_seconds_count", "C."); }).find("\"lat_seconds\""), std::string::npos);
}

TEST(MetricsNames, Validation) {
  EXPECT_TRUE(is_valid_metric_name("a:b_c9"));
  EXPECT_TRUE(is_valid_metric_name("_x"));
  EXPECT_FALSE(is_valid_metric_name("9lives"));
  EXPECT_FALSE(is_valid_metric_name("has-dash"));
  EXPECT_FALSE(is_valid_metric_name(""));
  EXPECT_TRUE(is_valid_label_name("controller"));
  EXPECT_FALSE(is_valid_label_name("__name__"));
  EXPECT_FALSE(is_valid_label_name("a:b"));
  EXPECT_FALSE(is_valid_label_name("1a"));

  Registry r;
  std::string msg = error_of([&] { r.counter("bad-name_total", "B."); });
  EXPECT_NE(msg.find("\"bad-name_total\""), std::string::npos) << msg;
  msg = error_of([&] { r.gauge("ok_gauge", "O.", {"fine", "__reserved"}); });
  EXPECT_NE(msg.find("\"__reserved\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("\"ok_gauge\""), std::string::npos) << msg;
  EXPECT_NE(error_of([&] { r.histogram("h_seconds", "H.", {"le"}); }).find("\"le\""), std::string::npos);
  EXPECT_NE(error_of([&] { r.gauge("dup", "D.", {"a", "a"}); }).find("repeats label \"a\""), std::string::npos);
  EXPECT_FALSE(r.contains("bad-name_total"));
  EXPECT_FALSE(r.contains("ok_gauge"));
}

TEST(MetricsBuckets, Helpers) {
  auto e = exponential_buckets(1e-8, 10, 12);
  ASSERT_EQ(e.size(), 12u);
  EXPECT_DOUBLE_EQ(e.front(), 1e-8);
  EXPECT_NEAR(e.back(), 1000, 1e-9);
  EXPECT_EQ(linear_buckets(1, 2, 3), (std::vector<double>{1, 3, 5}));
  EXPECT_THROW(exponential_buckets(0, 2, 3), std::invalid_argument);
  EXPECT_THROW(exponential_buckets(1, 1, 3), std::invalid_argument);
  EXPECT_THROW(linear_buckets(1, 0, 3), std::invalid_argument);
  EXPECT_THROW(linear_buckets(1, 1, 0), std::invalid_argument);
  Registry r;
  EXPECT_THROW(r.histogram("unsorted_seconds", "U.", {}, {1, 0.5}), std::invalid_argument);
  auto& h = r.histogram("inf_seconds", "I.", {}, {1, std::numeric_limits<double>::infinity()});
  EXPECT_EQ(h.buckets(), (std::vector<double>{1}));
}

TEST(MetricsHistogram, CumulativeBuckets) {
  Registry r;
  auto& h = r.histogram("op_seconds", "Op.", {"op"}, {0.1, 0.5, 1}).with({"read"});
  for (double v : {0.05, 0.1, 0.3, 0.5, 0.7, 2.0, 3.0}) h.observe(v);
  h.observe(std::chrono::milliseconds(200));
  SampleSnapshot s;
  h.sample(s);
  // le=0.1: 0.05, 0.1 | le=0.5: +0.3, 0.5, 0.2 | le=1: +0.7 | +Inf: +2, +3
  EXPECT_EQ(s.cumulative_counts, (std::vector<std::uint64_t>{2, 5, 6}));
  EXPECT_EQ(s.count, 8u);
  EXPECT_NEAR(s.sum, 0.05 + 0.1 + 0.3 + 0.5 + 0.7 + 2 + 3 + 0.2, 1e-12);
}

TEST(MetricsRegistry, CollectCallbacksRunBeforeSnapshot) {
  Registry r;
  auto& fam = r.gauge("queue_items", "Items.", {"queue"});
  int runs = 0;
  auto id = r.add_collect_callback([&] {
    ++runs;
    fam.with({"q1"}).set(runs * 10);
  });
  auto first = r.collect();
  ASSERT_NE(find(first, "queue_items"), nullptr);
  EXPECT_DOUBLE_EQ(find(first, "queue_items")->samples.at(0).value, 10);
  EXPECT_DOUBLE_EQ(find(r.collect(), "queue_items")->samples.at(0).value, 20);
  r.remove_collect_callback(id);
  r.collect();
  EXPECT_EQ(runs, 2);

  // A failing callback is logged and does not stop collection.
  r.add_collect_callback([] { throw std::runtime_error("boom"); });
  EXPECT_NE(find(r.collect(), "queue_items"), nullptr);
}

TEST(MetricsRegistry, RemoveHidesChildUntilUsedAgain) {
  Registry r;
  auto& fam = r.gauge("cert_expiry", "E.", {"name"});
  Gauge& g = fam.with({"a"});
  g.set(5);
  fam.with({"b"}).set(6);
  EXPECT_TRUE(fam.remove({"a"}));
  EXPECT_FALSE(fam.remove({"a"}));
  auto snap = fam.snapshot();
  ASSERT_EQ(snap.samples.size(), 1u);
  EXPECT_EQ(snap.samples[0].label_values, (std::vector<std::string>{"b"}));
  g.set(7);  // the old reference still works
  EXPECT_EQ(&fam.with({"a"}), &g);
  EXPECT_EQ(fam.snapshot().samples.size(), 2u);
  fam.clear();
  EXPECT_TRUE(fam.snapshot().samples.empty());
  EXPECT_EQ(find(r.collect(), "cert_expiry"), nullptr);  // empty labelled families are left out
}

TEST(MetricsConcurrency, ParallelIncrementsAndScrapes) {
  Registry r;
  auto& counters = r.counter("hits_total", "Hits.", {"worker"});
  auto& shared = r.counter("shared_total", "Shared.").with({});
  auto& hist = r.histogram("work_seconds", "Work.", {}, {0.5}).with({});
  constexpr int kThreads = 6, kIters = 20000;
  std::atomic<bool> stop{false};
  std::thread scraper([&] {  // scrapes race with updates; the shared total never goes backwards
    double last = 0;
    while (!stop.load()) {
      for (const auto& f : r.collect()) {
        if (f.name != "shared_total") continue;
        EXPECT_GE(f.samples.at(0).value, last);
        last = f.samples.at(0).value;
      }
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kIters; ++i) {
        shared.inc();
        counters.with({std::to_string(t % 3)}).inc();  // child lookup races with creation
        hist.observe(i % 2 ? 0.25 : 0.75);
      }
    });
  }
  for (auto& th : threads) th.join();
  stop = true;
  scraper.join();
  EXPECT_DOUBLE_EQ(shared.value(), kThreads * kIters);
  double per_label = 0;
  for (int l = 0; l < 3; ++l) per_label += counters.with({std::to_string(l)}).value();
  EXPECT_DOUBLE_EQ(per_label, kThreads * kIters);
  SampleSnapshot s;
  hist.sample(s);
  EXPECT_EQ(s.count, static_cast<std::uint64_t>(kThreads * kIters));
  EXPECT_EQ(s.cumulative_counts[0], static_cast<std::uint64_t>(kThreads * kIters / 2));
  EXPECT_DOUBLE_EQ(s.sum, kThreads * kIters / 2 * 0.25 + kThreads * kIters / 2 * 0.75);
}

TEST(MetricsRegistry, GlobalIsASingleton) {
  EXPECT_EQ(&Registry::global(), &Registry::global());
}

}  // namespace
}  // namespace capstan::metrics
