// The manager's stop paths: a lost lease stops reconciling at once and run() returns 1; a
// cache that never syncs delays readiness only until the cache sync timeout, and a stop ends
// the wait for it; the shutdown watchdog ends a process whose shutdown hangs, releasing the
// lease first; secure metrics are served over HTTPS.
#include "runtime/client/client.h"
#include "runtime/controller/manager.h"
#include "runtime/http/client.h"
#include "runtime/metrics/registry.h"

#include "testing/eventually.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <thread>

namespace capstan::controller {
namespace {
using namespace std::chrono_literals;

using e2e::eventually;

// A client nobody answers: lists fail (connection refused), so caches never sync.
client::Config unreachable() {
  client::Config c;
  c.server = "http://127.0.0.1:1";
  c.qps = 0;
  return c;
}

ManagerOptions quiet(metrics::Registry& reg) {
  ManagerOptions o;
  o.metrics_bind_address = "0";
  o.health_probe_bind_address = "0";
  o.registry = &reg;
  return o;
}

// An elector the test drives: it leads as soon as it starts; lose() ends the leadership.
class FakeElection : public LeaderElection {
 public:
  struct State {
    std::atomic<bool> started{false}, stopped{false};
    std::atomic<int> releases{0};
    std::function<void()> on_stopped;
    std::mutex mu;
  };
  explicit FakeElection(std::shared_ptr<State> s) : s_(std::move(s)) {}
  void start(std::function<void()> started, std::function<void()> stopped) override {
    {
      std::lock_guard<std::mutex> l(s_->mu);
      s_->on_stopped = std::move(stopped);
    }
    s_->started = true;
    started();
  }
  void stop() override { s_->stopped = true; }
  void release_now(std::chrono::milliseconds) override { ++s_->releases; }
  static void lose(State& s) {
    std::function<void()> fn;
    {
      std::lock_guard<std::mutex> l(s.mu);
      fn = s.on_stopped;
    }
    fn();
  }

 private:
  std::shared_ptr<State> s_;
};

TEST(Manager, ALostLeaseStopsReconcilingAtOnceAndRunReturnsOne) {
  metrics::Registry reg;
  client::Client client(unreachable());
  auto opts = quiet(reg);
  opts.leader_election.enabled = true;
  opts.graceful_shutdown = 30s;  // not applied when the lease is lost
  Manager mgr(client, opts);
  auto election = std::make_shared<FakeElection::State>();
  mgr.set_leader_election(std::make_unique<FakeElection>(election));
  std::atomic<int> started{0};
  std::atomic<bool> saw_stop{false};
  auto& c = mgr.add_controller({"leased", 1, nullptr}, [&](const Request&, Context& ctx) {
    ++started;
    auto until = std::chrono::steady_clock::now() + 20s;
    while (!ctx.stop.stop_requested() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(1ms);
    saw_stop = ctx.stop.stop_requested();
    return Result::done();
  });
  for (int i = 0; i < 50; ++i) c.enqueue({"ns", "item-" + std::to_string(i)});
  auto run = std::async(std::launch::async, [&] { return mgr.run(); });
  ASSERT_TRUE(eventually([&] { return started.load() == 1; }));
  EXPECT_TRUE(mgr.is_leader());

  auto t0 = std::chrono::steady_clock::now();
  FakeElection::lose(*election);
  // The running reconcile is cancelled at once, not after the 30 s grace period.
  ASSERT_TRUE(eventually([&] { return saw_stop.load(); }, 5s));
  ASSERT_EQ(run.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(run.get(), 1);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_FALSE(mgr.is_leader());
  EXPECT_TRUE(election->stopped.load());
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(started.load(), 1) << "the backlog was reconciled after the lease was lost";
}

// With a cache that never syncs: not ready at first, ready once cache_sync_timeout has passed
// (one resource the manager may not list must not take the webhooks of every controller out of
// the Service), and a stop ends the wait for the cache at once.
TEST(Manager, ACacheThatNeverSyncsDelaysReadinessOnlyUntilTheTimeoutAndAStopEndsTheWait) {
  metrics::Registry reg;
  client::Client client(unreachable());
  auto opts = quiet(reg);
  opts.health_probe_bind_address = "127.0.0.1:0";
  opts.cache_sync_timeout = 1s;
  Manager mgr(client, opts);
  mgr.informers().informer({.gvr = {"", "v1", "configmaps"}});
  std::atomic<int> reconciles{0};
  mgr.add_controller({"never", 1, nullptr}, [&](const Request&, Context&) {
    ++reconciles;
    return Result::done();
  });
  auto run = std::async(std::launch::async, [&] { return mgr.run(); });
  ASSERT_TRUE(eventually([&] { return mgr.health_port() != 0; }));
  http::Client probe;
  auto status = [&](const char* path) { return probe.request("GET", "http://127.0.0.1:" + std::to_string(mgr.health_port()) + path).status; };
  EXPECT_NE(status("/readyz"), 200) << "ready before the caches synced and before the timeout";
  EXPECT_EQ(status("/healthz"), 200);
  EXPECT_TRUE(eventually([&] { return status("/readyz") == 200; }, 5s)) << "not ready after the cache sync timeout";
  EXPECT_FALSE(mgr.caches_synced());

  auto t0 = std::chrono::steady_clock::now();
  mgr.stop();
  ASSERT_EQ(run.wait_for(10s), std::future_status::ready) << "run() kept waiting for the caches after stop()";
  EXPECT_EQ(run.get(), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_EQ(reconciles.load(), 0);
}

TEST(Manager, TheWatchdogReleasesTheLeaseAndExitsWhenShutdownHangs) {
  metrics::Registry reg;
  client::Client client(unreachable());
  auto opts = quiet(reg);
  opts.leader_election.enabled = true;
  opts.graceful_shutdown = 50ms;
  opts.shutdown_deadline = 400ms;
  std::promise<int> exited;
  auto exit_code = exited.get_future();
  std::atomic<bool> exit_called{false};
  opts.exit_process = [&](int code) {
    if (!exit_called.exchange(true)) exited.set_value(code);
  };
  auto mgr = std::make_unique<Manager>(client, opts);
  auto election = std::make_shared<FakeElection::State>();
  mgr->set_leader_election(std::make_unique<FakeElection>(election));
  std::atomic<bool> release{false}, running{false};
  mgr->add_controller({"hung", 1, nullptr}, [&](const Request&, Context&) {
    running = true;
    // Ignores its cancellation, as CPU-bound work would.
    auto until = std::chrono::steady_clock::now() + 20s;
    while (!release.load() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(1ms);
    return Result::done();
  }).enqueue({"ns", "a"});
  auto run = std::async(std::launch::async, [&] { return mgr->run(); });
  ASSERT_TRUE(eventually([&] { return running.load(); }));

  auto t0 = std::chrono::steady_clock::now();
  mgr->stop();
  ASSERT_EQ(run.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(run.get(), 0);
  // Destroying the manager joins the worker, which hangs: the watchdog ends the process.
  auto destroyed = std::async(std::launch::async, [&] { mgr.reset(); });
  ASSERT_EQ(exit_code.wait_for(5s), std::future_status::ready) << "the watchdog did not fire";
  EXPECT_EQ(exit_code.get(), 1);
  auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_GE(took, 300ms);
  EXPECT_LT(took, 4s);
  EXPECT_EQ(election->releases.load(), 1) << "the lease was not released before exiting";
  release = true;
  ASSERT_EQ(destroyed.wait_for(5s), std::future_status::ready);
}

TEST(Manager, TheWatchdogStandsDownAfterACleanShutdown) {
  metrics::Registry reg;
  client::Client client(unreachable());
  auto opts = quiet(reg);
  opts.shutdown_deadline = 300ms;
  std::atomic<bool> exit_called{false};
  opts.exit_process = [&](int) { exit_called = true; };
  {
    Manager mgr(client, opts);
    std::atomic<int> calls{0};
    mgr.add_controller({"quick", 1, nullptr}, [&](const Request&, Context&) {
      ++calls;
      return Result::done();
    }).enqueue({"ns", "a"});
    auto run = std::async(std::launch::async, [&] { return mgr.run(); });
    ASSERT_TRUE(eventually([&] { return calls.load() == 1; }));
    mgr.stop();
    ASSERT_EQ(run.wait_for(5s), std::future_status::ready);
    EXPECT_EQ(run.get(), 0);
  }
  std::this_thread::sleep_for(400ms);
  EXPECT_FALSE(exit_called.load());
}

TEST(Manager, SecureMetricsAreServedOverHttpsWithASelfSignedCertificate) {
  metrics::Registry reg;
  reg.counter("capstan_test_total", "A counter for the test.", {}).with({}).inc();
  client::Client client(unreachable());
  auto opts = quiet(reg);
  opts.metrics_bind_address = "127.0.0.1:0";
  opts.metrics_secure = true;
  Manager mgr(client, opts);
  auto run = std::async(std::launch::async, [&] { return mgr.run(); });
  ASSERT_TRUE(eventually([&] { return mgr.metrics_port() != 0; }));
  std::string url = "https://127.0.0.1:" + std::to_string(mgr.metrics_port()) + "/metrics";
  http::ClientOptions insecure;
  insecure.tls.insecure_skip_verify = true;  // self-signed: nothing to verify against
  http::Client https(insecure);
  auto r = https.request("GET", url);
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("capstan_test_total 1"), std::string::npos) << r.body;
  http::Client verifying;  // the system roots do not know the self-signed CA
  EXPECT_THROW(verifying.request("GET", url, {}, {}, 5s), http::TransportError);
  http::Client plain;
  EXPECT_THROW(plain.request("GET", "http://127.0.0.1:" + std::to_string(mgr.metrics_port()) + "/metrics", {}, {}, 5s),
               http::TransportError)
      << "plain HTTP is not served";
  mgr.stop();
  ASSERT_EQ(run.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(run.get(), 0);
}

}  // namespace
}  // namespace capstan::controller
