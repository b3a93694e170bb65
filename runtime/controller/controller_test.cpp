#include "runtime/client/cancel.h"
#include "runtime/controller/controller.h"
#include "runtime/controller/memory_budget.h"
#include "runtime/controller/predicate.h"
#include "runtime/json/json.h"
#include "runtime/metrics/exposition.h"
#include "runtime/metrics/registry.h"

#include "testing/eventually.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

namespace capstan::controller {
namespace {
using namespace std::chrono_literals;

using e2e::eventually;

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
  ASSERT_TRUE(eventually([&] { return c.reconciles() == 2; }));
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
  ASSERT_TRUE(eventually([&] { return calls.load() == 3; }));  // 5 ms, 10 ms backoff
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
  ASSERT_TRUE(eventually([&] { return calls.load() == 3; }));
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 40ms);
  c.stop(1s);
}

TEST(Controller, OneKeyIsNeverReconciledConcurrentlyAndReaddsAreKept) {
  std::atomic<int> in_flight{0}, max_in_flight{0}, calls{0};
  std::atomic<bool> release{false};
  Controller c({"serial", 4, nullptr}, [&](const Request&, Context&) {
    int now = ++in_flight;
    max_in_flight = std::max(max_in_flight.load(), now);
    // The first reconcile runs until the re-adds are in (however slow the machine), so they
    // certainly arrive while it runs; a second one running beside it would show in max_in_flight.
    while (calls.load() == 0 && !release.load()) std::this_thread::sleep_for(1ms);
    --in_flight;
    ++calls;
    return Result::done();
  });
  c.start();
  c.enqueue({"ns", "same"});
  ASSERT_TRUE(eventually([&] { return in_flight.load() == 1; }));
  for (int i = 0; i < 10; ++i) c.enqueue({"ns", "same"});  // arrive while it runs: collapse into one more
  std::this_thread::sleep_for(20ms);
  release = true;
  ASSERT_TRUE(eventually([&] { return calls.load() == 2; }));
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

// A backlog of slow reconciles: stop() waits only for the ones running, and the keys still
// queued are never reconciled.
TEST(Controller, StopLeavesTheBacklogAndWaitsOnlyForRunningReconciles) {
  std::atomic<int> started{0}, finished{0};
  std::atomic<bool> release{false};
  Controller c({"backlog", 2, nullptr}, [&](const Request&, Context&) {
    ++started;
    while (!release.load()) std::this_thread::sleep_for(1ms);
    std::this_thread::sleep_for(20ms);  // still running when stop() begins
    ++finished;
    return Result::done();
  });
  for (int i = 0; i < 200; ++i) c.enqueue({"ns", "item-" + std::to_string(i)});
  c.start();
  ASSERT_TRUE(eventually([&] { return started.load() == 2; }));
  std::thread releaser([&] {
    std::this_thread::sleep_for(30ms);
    release = true;
  });
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(c.stop(5s)) << "the two running reconciles finish well within the grace period";
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 4s);
  releaser.join();
  EXPECT_EQ(finished.load(), 2) << "stop() returned before the running reconciles finished";
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(started.load(), 2) << "queued keys were reconciled after stop()";
  EXPECT_EQ(c.queue().len(), 0u);
  c.enqueue({"ns", "late"});  // ignored once stopped
  EXPECT_EQ(c.queue().len(), 0u);
}

TEST(Controller, ReconcilesOutlivingTheGracePeriodAreCancelled) {
  std::atomic<bool> saw_stop{false}, scope_stopped{false};
  std::atomic<int> started{0};
  Controller c({"stubborn", 1, nullptr}, [&](const Request&, Context& ctx) {
    ++started;
    auto until = std::chrono::steady_clock::now() + 20s;  // bounded, so a bug fails instead of hanging
    while (!ctx.stop.stop_requested() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(1ms);
    saw_stop = ctx.stop.stop_requested();
    // The worker thread's API calls are cancelled with it.
    scope_stopped = client::CancelScope::current().stop_requested();
    return Result::done();
  });
  c.enqueue({"ns", "a"});
  c.enqueue({"ns", "b"});
  c.start();
  ASSERT_TRUE(eventually([&] { return started.load() == 1; }));
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(c.stop(100ms)) << "the reconcile ran past the grace period";
  auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_GE(took, 100ms);
  EXPECT_LT(took, 5s);
  EXPECT_TRUE(c.cancelled());
  ASSERT_TRUE(eventually([&] { return saw_stop.load(); })) << "the reconcile never saw its context stop";
  EXPECT_TRUE(scope_stopped.load());
  EXPECT_EQ(started.load(), 1) << "'b' was started after stop()";
}

TEST(Controller, StopWithoutGraceCancelsAtOnce) {
  std::atomic<bool> cancelled_at_start{false};
  std::atomic<int> started{0};
  std::atomic<bool> release{false};
  Controller c({"lost", 1, nullptr}, [&](const Request&, Context& ctx) {
    ++started;
    auto until = std::chrono::steady_clock::now() + 20s;
    while (!ctx.stop.stop_requested() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(1ms);
    cancelled_at_start = ctx.stop.stop_requested();
    return Result::done();
  });
  c.enqueue({"ns", "a"});
  c.start();
  ASSERT_TRUE(eventually([&] { return started.load() == 1; }));
  auto t0 = std::chrono::steady_clock::now();
  c.stop(0ms);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
  EXPECT_TRUE(eventually([&] { return cancelled_at_start.load(); }));
}

TEST(Controller, ACancelledReconcileThatThrowsIsNotRetried) {
  metrics::Registry reg;
  std::atomic<int> calls{0};
  Controller c({"interrupted", 1, &reg}, [&](const Request&, Context& ctx) -> Result {
    ++calls;
    auto until = std::chrono::steady_clock::now() + 20s;
    while (!ctx.stop.stop_requested() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(1ms);
    throw std::runtime_error("GET /api/v1/namespaces/ns/secrets/x: cancelled");
  });
  c.enqueue({"ns", "x"});
  c.start();
  ASSERT_TRUE(eventually([&] { return calls.load() == 1; }));
  EXPECT_FALSE(c.stop(10ms));
  ASSERT_TRUE(eventually([&] { return c.reconciles() == 1; }));
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(c.queue().len(), 0u);
  EXPECT_EQ(c.queue().waiting_len(), 0u);
}

// A reconcile past its budget is cancelled and retried with backoff; the controller's other
// keys are reconciled meanwhile.
TEST(Controller, AReconcilePastItsBudgetIsCancelledAndRetried) {
  metrics::Registry reg;
  std::atomic<int> slow_calls{0}, fast_calls{0};
  std::atomic<bool> saw_cancel{false};
  ControllerOptions o{"budgeted", 1, &reg};
  o.reconcile_timeout = 100ms;
  Controller c(o, [&](const Request& r, Context& ctx) -> Result {
    if (r.name == "fast") {
      ++fast_calls;
      return Result::done();
    }
    if (++slow_calls > 1) return Result::done();  // the retry finishes in time
    auto until = std::chrono::steady_clock::now() + 20s;
    while (!ctx.stop.stop_requested() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(1ms);
    saw_cancel = ctx.stop.stop_requested() && client::CancelScope::current().stop_requested();
    throw std::runtime_error("cancelled");
  });
  c.enqueue({"ns", "slow"});
  c.start();
  ASSERT_TRUE(eventually([&] { return slow_calls.load() == 1; }));
  c.enqueue({"ns", "fast"});
  ASSERT_TRUE(eventually([&] { return slow_calls.load() == 2 && fast_calls.load() == 1; }));
  EXPECT_TRUE(saw_cancel.load());
  EXPECT_FALSE(c.cancelled()) << "only the one reconcile was cancelled";
  auto text = metrics::render(reg);
  EXPECT_NE(text.find("capstan_reconcile_timeouts_total{controller=\"budgeted\"} 1"), std::string::npos) << text;
  EXPECT_NE(text.find("controller_runtime_reconcile_errors_total{controller=\"budgeted\"} 1"), std::string::npos) << text;
  c.stop(1s);
}

// A reconcile that ignores its cancellation (a loop making no API call) keeps its key, but
// after the grace another worker takes the controller's other keys.
TEST(Controller, AStuckReconcileDoesNotHoldBackTheOtherKeys) {
  metrics::Registry reg;
  std::atomic<bool> release{false};
  std::atomic<int> others{0};
  ControllerOptions o{"stuck", 1, &reg};
  o.reconcile_timeout = 50ms;
  o.stuck_grace = 50ms;
  Controller c(o, [&](const Request& r, Context&) -> Result {
    if (r.name != "loop") {
      ++others;
      return Result::done();
    }
    auto until = std::chrono::steady_clock::now() + 20s;
    while (!release && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(1ms);
    return Result::done();
  });
  c.enqueue({"ns", "loop"});
  c.start();
  std::this_thread::sleep_for(20ms);
  for (int i = 0; i < 5; ++i) c.enqueue({"ns", "other-" + std::to_string(i)});
  EXPECT_TRUE(eventually([&] { return others.load() == 5; }, 5s)) << "the other keys waited for the stuck one";
  release = true;
  ASSERT_TRUE(eventually([&] { return c.reconciles() == 6; }));
  auto text = metrics::render(reg);
  EXPECT_NE(text.find("capstan_reconcile_timeouts_total{controller=\"stuck\"} 1"), std::string::npos) << text;
  c.stop(1s);
}

// Faults a reconciler cannot report itself reach on_fault with their reason, after the reconcile
// returned and outside its cancellation; ordinary errors do not.
TEST(Controller, TimeoutsAndPanicsAreReportedToOnFault) {
  metrics::Registry reg;
  std::mutex mu;
  std::map<std::string, Fault> faults;
  std::atomic<bool> cancelled_in_hook{false};
  ControllerOptions o{"faulty", 2, &reg};
  o.reconcile_timeout = 100ms;
  o.on_fault = [&](const Request& r, const Fault& f) {
    if (client::CancelScope::current().stop_requested()) cancelled_in_hook = true;
    std::lock_guard<std::mutex> l(mu);
    faults.emplace(r.name, f);
  };
  std::atomic<int> calls{0};
  Controller c(o, [&](const Request& r, Context& ctx) -> Result {
    ++calls;
    if (r.name == "slow") {
      while (!ctx.stop.stop_requested()) std::this_thread::sleep_for(1ms);
      return Result::done();  // returns "success", but only after being cancelled
    }
    if (r.name == "panic") throw 42;
    if (r.name == "error") throw std::runtime_error("conflict");
    return Result::done();
  });
  for (const char* n : {"slow", "panic", "error", "fine"}) c.enqueue({"ns", n});
  c.start();
  ASSERT_TRUE(eventually([&] {
    std::lock_guard<std::mutex> l(mu);
    return faults.size() == 2;
  }));
  c.stop(1s);
  std::lock_guard<std::mutex> l(mu);
  ASSERT_TRUE(faults.count("slow"));
  EXPECT_EQ(faults.at("slow").kind, Fault::Kind::Timeout);
  EXPECT_EQ(faults.at("slow").reason, "ReconcileTimeout");
  EXPECT_NE(faults.at("slow").message.find("--reconcile-timeout"), std::string::npos) << faults.at("slow").message;
  ASSERT_TRUE(faults.count("panic"));
  EXPECT_EQ(faults.at("panic").reason, "ReconcilePanic");
  EXPECT_FALSE(faults.count("error")) << "an ordinary error is the reconciler's to report";
  EXPECT_FALSE(cancelled_in_hook.load()) << "the hook must be able to call the API";
}

// A reconcile allocating past its memory budget fails alone: the other keys reconcile, the
// fault is reported, the metric counts it, and the retry (with less to hold) succeeds.
TEST(Controller, AReconcilePastItsMemoryBudgetFailsAloneAndIsRetried) {
  if (!MemoryBudget::enforced()) GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
  metrics::Registry reg;
  std::atomic<int> hungry_calls{0}, others{0};
  std::atomic<bool> reported{false};
  ControllerOptions o{"hungry", 1, &reg};
  o.reconcile_memory_limit = 16 << 20;
  o.on_fault = [&](const Request& r, const Fault& f) {
    if (r.name == "hungry" && f.kind == Fault::Kind::MemoryBudget) reported = true;
  };
  Controller c(o, [&](const Request& r, Context&) -> Result {
    if (r.name != "hungry") {
      ++others;
      return Result::done();
    }
    std::vector<std::string> held;
    std::size_t want = ++hungry_calls == 1 ? 1000 : 4;  // 1000 MiB the first time, 4 MiB after
    for (std::size_t i = 0; i < want; ++i) held.emplace_back(std::size_t{1} << 20, 'x');
    return Result::done();
  });
  c.enqueue({"ns", "hungry"});
  for (int i = 0; i < 3; ++i) c.enqueue({"ns", "other-" + std::to_string(i)});
  c.start();
  ASSERT_TRUE(eventually([&] { return hungry_calls.load() >= 2 && others.load() == 3; }, 10s));
  EXPECT_TRUE(reported.load());
  c.stop(1s);
  auto text = metrics::render(reg);
  EXPECT_NE(text.find("capstan_reconcile_memory_exceeded_total{controller=\"hungry\"} 1"), std::string::npos) << text;
  EXPECT_NE(text.find("controller_runtime_reconcile_total{controller=\"hungry\",result=\"success\"} 4"), std::string::npos) << text;
  EXPECT_NE(text.find("capstan_reconcile_peak_memory_bytes_bucket{controller=\"hungry\",le=\"1.6777216e+07\"} 4"), std::string::npos)
      << "the three others and the retry held less than 16 MiB\n"
      << text;
}

// The fault is the memory scope's record, not the exception: a reconciler whose own
// catch (const std::exception&) swallows the std::bad_alloc and returns, or throws a
// TerminalError in its place, still has its reconcile recorded as a memory-budget fault, counted,
// and retried with backoff.
TEST(Controller, AMemoryBudgetFaultIsRecordedWhateverTheReconcilerCaught) {
  if (!MemoryBudget::enforced()) GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
  metrics::Registry reg;
  std::mutex mu;
  std::map<std::string, int> calls, caught;
  std::map<std::string, Fault> faults;
  ControllerOptions o{"swallower", 1, &reg};
  o.reconcile_memory_limit = 16 << 20;
  o.on_fault = [&](const Request& r, const Fault& f) {
    std::lock_guard l(mu);
    faults.emplace(r.name, f);
  };
  Controller c(o, [&](const Request& r, Context&) -> Result {
    int call;
    {
      std::lock_guard l(mu);
      call = ++calls[r.name];
    }
    if (call > 1) return Result::done();  // the retry, with less to hold, succeeds
    try {
      std::vector<std::string> held;
      for (int i = 0; i < 1000; ++i) held.emplace_back(std::size_t{1} << 20, 'x');  // 1000 MiB
    } catch (const std::exception&) {
      std::lock_guard l(mu);
      ++caught[r.name];
    }
    if (r.name == "terminal") throw TerminalError("the build failed");  // not a terminal failure
    return Result::done();  // "the build failed", handled: no exception reaches the controller
  });
  c.enqueue({"ns", "returns"});
  c.enqueue({"ns", "terminal"});
  c.start();
  ASSERT_TRUE(eventually([&] {
    std::lock_guard l(mu);
    return calls["returns"] >= 2 && calls["terminal"] >= 2;
  }, 10s)) << "both are retried";
  c.stop(1s);
  std::lock_guard l(mu);
  EXPECT_EQ(caught["returns"], 1) << "the reconciler's own catch saw the bad_alloc";
  EXPECT_EQ(caught["terminal"], 1);
  for (const char* name : {"returns", "terminal"}) {
    ASSERT_TRUE(faults.count(name)) << name;
    EXPECT_EQ(faults.at(name).kind, Fault::Kind::MemoryBudget) << name;
    EXPECT_EQ(faults.at(name).reason, "ReconcileMemoryBudgetExceeded") << name;
  }
  auto text = metrics::render(reg);
  EXPECT_NE(text.find("capstan_reconcile_memory_exceeded_total{controller=\"swallower\"} 2"), std::string::npos) << text;
  EXPECT_NE(text.find("controller_runtime_reconcile_errors_total{controller=\"swallower\"} 2"), std::string::npos) << text;
  EXPECT_NE(text.find("controller_runtime_terminal_reconcile_errors_total{controller=\"swallower\"} 0"), std::string::npos)
      << text;
}

TEST(Controller, JsonLogsOfAReconcileCarryItsFields) {
  Controller c({"logging", 1, nullptr}, [&](const Request&, Context& ctx) {
    ctx.log.info("reconciling widget", {{"step", "one"}});
    return Result::done();
  });
  log::init(log::Format::Json, 0);
  ::testing::internal::CaptureStderr();
  c.start();
  c.enqueue({"shop", "w1"});
  bool done = eventually([&] { return c.reconciles() == 1; });
  c.stop(1s);
  std::string out = ::testing::internal::GetCapturedStderr();
  log::init(log::Format::Text, 0);
  ASSERT_TRUE(done);
  std::optional<json::Value> line;
  std::istringstream in(out);
  for (std::string l; std::getline(in, l);)
    if (l.find("reconciling widget") != std::string::npos) line = json::parse(l);
  ASSERT_TRUE(line) << out;
  EXPECT_EQ(json::get_string(*line, {"msg"}), "reconciling widget");
  EXPECT_EQ(json::get_string(*line, {"level"}), "info");
  EXPECT_EQ(json::get_string(*line, {"controller"}), "logging");
  EXPECT_EQ(json::get_string(*line, {"namespace"}), "shop");
  EXPECT_EQ(json::get_string(*line, {"name"}), "w1");
  EXPECT_EQ(json::get_string(*line, {"reconcileID"}).size(), 36u);
  EXPECT_EQ(json::get_string(*line, {"step"}), "one");
  EXPECT_FALSE(json::get_string(*line, {"ts"}).empty());
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
