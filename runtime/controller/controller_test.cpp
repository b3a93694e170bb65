#include "runtime/controller/controller.h"
#include "runtime/controller/predicate.h"
#include "runtime/metrics/exposition.h"
#include "runtime/metrics/registry.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

namespace capstan::controller {
namespace {
using namespace std::chrono_literals;

bool wait_until(const std::function<bool()>& f, std::chrono::milliseconds t = 5s) {
  auto end = std::chrono::steady_clock::now() + t;
  while (!f()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

TEST(Controller, ReconcilesEnqueuedKeysWithContext) {
  metrics::Registry reg;
  std::mutex mu;
  std::vector<std::string> seen;
  Controller c({"widgets", 2, &reg}, [&](const Request& r, Context& ctx) {
    EXPECT_EQ(ctx.controller, "widgets");
    EXPECT_EQ(ctx.reconcile_id.size(), 36u);
    std::lock_guard<std::mutex> l(mu);
    seen.push_back(r.key());
    return Result::done();
  });
  c.start();
  c.enqueue({"ns", "a"});
  c.enqueue({"", "cluster-wide"});
  ASSERT_TRUE(wait_until([&] { return c.reconciles() == 2; }));
  std::lock_guard<std::mutex> l(mu);
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"cluster-wide", "ns/a"}));
  auto text = metrics::render(reg);
  EXPECT_NE(text.find("controller_runtime_reconcile_total{controller=\"widgets\",result=\"success\"} 2"), std::string::npos) << text;
  EXPECT_NE(text.find("controller_runtime_reconcile_total{controller=\"widgets\",result=\"error\"} 0"), std::string::npos);
  EXPECT_NE(text.find("controller_runtime_max_concurrent_reconciles{controller=\"widgets\"} 2"), std::string::npos);
  EXPECT_NE(text.find("workqueue_adds_total{controller=\"widgets\",name=\"widgets\"} 2"), std::string::npos) << text;
  c.stop(1s);
}

TEST(Controller, ErrorsRequeueWithBackoffAndTerminalErrorsDoNot) {
  metrics::Registry reg;
  std::atomic<int> calls{0}, terminal_calls{0};
  Controller c({"flaky", 1, &reg}, [&](const Request& r, Context&) -> Result {
    if (r.name == "terminal") {
      ++terminal_calls;
      throw TerminalError("bad spec");
    }
    if (++calls < 3) throw std::runtime_error("transient");
    return Result::done();
  });
  c.start();
  c.enqueue({"ns", "x"});
  c.enqueue({"ns", "terminal"});
  ASSERT_TRUE(wait_until([&] { return calls.load() == 3; }));  // 5 ms, 10 ms backoff
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(calls.load(), 3);
  EXPECT_EQ(terminal_calls.load(), 1);
  auto text = metrics::render(reg);
  EXPECT_NE(text.find("controller_runtime_reconcile_errors_total{controller=\"flaky\"} 3"), std::string::npos) << text;
  EXPECT_NE(text.find("controller_runtime_terminal_reconcile_errors_total{controller=\"flaky\"} 1"), std::string::npos) << text;
  EXPECT_NE(text.find("workqueue_retries_total{controller=\"flaky\",name=\"flaky\"} 2"), std::string::npos) << text;
  c.stop(1s);
}

TEST(Controller, RequeueAfterRunsAgainLater) {
  std::atomic<int> calls{0};
  Controller c({"periodic", 1, nullptr}, [&](const Request&, Context&) {
    return ++calls < 3 ? Result::after(20ms) : Result::done();
  });
  c.start();
  auto t0 = std::chrono::steady_clock::now();
  c.enqueue({"ns", "p"});
  ASSERT_TRUE(wait_until([&] { return calls.load() == 3; }));
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 40ms);
  c.stop(1s);
}

TEST(Controller, OneKeyIsNeverReconciledConcurrentlyAndReaddsAreKept) {
  std::atomic<int> in_flight{0}, max_in_flight{0}, calls{0};
  Controller c({"serial", 4, nullptr}, [&](const Request&, Context&) {
    int now = ++in_flight;
    max_in_flight = std::max(max_in_flight.load(), now);
    std::this_thread::sleep_for(20ms);
    --in_flight;
    ++calls;
    return Result::done();
  });
  c.start();
  c.enqueue({"ns", "same"});
  std::this_thread::sleep_for(5ms);
  for (int i = 0; i < 10; ++i) c.enqueue({"ns", "same"});  // arrive while it runs: collapse into one more
  ASSERT_TRUE(wait_until([&] { return calls.load() == 2; }));
  std::this_thread::sleep_for(60ms);
  EXPECT_EQ(calls.load(), 2);
  EXPECT_EQ(max_in_flight.load(), 1);
  c.stop(1s);
}

TEST(Controller, StopWaitsForRunningReconcilesWithinTheGracePeriod) {
  std::atomic<bool> finished{false};
  Controller c({"slow", 1, nullptr}, [&](const Request&, Context&) {
    std::this_thread::sleep_for(100ms);
    finished = true;
    return Result::done();
  });
  c.start();
  c.enqueue({"ns", "s"});
  std::this_thread::sleep_for(20ms);
  EXPECT_TRUE(c.stop(2s));
  EXPECT_TRUE(finished.load());
}

TEST(Predicates, GenerationAndLabels) {
  auto mk = [](int gen, const char* color) {
    return cache::CachedObject::from_json(std::string(R"({"metadata":{"name":"a","generation":)") + std::to_string(gen) +
                                              R"(,"resourceVersion":")" + std::to_string(gen) + R"(","labels":{"color":")" + color + "\"}}}",
                                          true);
  };
  auto p = generation_changed();
  EXPECT_FALSE(p.on_update(mk(1, "red"), mk(1, "blue")));
  EXPECT_TRUE(p.on_update(mk(1, "red"), mk(2, "red")));
  EXPECT_TRUE(p.on_create(mk(1, "red")));
  auto sel = label_selector(meta::LabelSelector::parse("color=red"));
  EXPECT_TRUE(sel.on_create(mk(1, "red")));
  EXPECT_FALSE(sel.on_create(mk(1, "blue")));
  EXPECT_TRUE(labels_changed().on_update(mk(1, "red"), mk(1, "blue")));
  EXPECT_FALSE(labels_changed().on_update(mk(1, "red"), mk(2, "red")));
}

}  // namespace
}  // namespace capstan::controller
