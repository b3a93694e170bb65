// LeaderElector against the in-process API server, with short durations (lease 1 s, renew
// deadline 600 ms, retry 200 ms) so every test ends within a few seconds.
#include "testing/test_cluster.h"
#include "runtime/leader/elector.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <regex>
#include <thread>

namespace capstan::leader {
namespace {

using namespace std::chrono_literals;
using integration::eventually;
using integration::TestCluster;
using Steady = std::chrono::steady_clock;

const meta::GroupVersionResource kLeases{"coordination.k8s.io", "v1", "leases"};

Config fast(std::string identity, std::string lease = "capstan-test") {
  Config c;
  c.lease_namespace = "default";
  c.lease_name = std::move(lease);
  c.identity = std::move(identity);
  c.lease_duration = 1000ms;
  c.renew_deadline = 600ms;
  c.retry_period = 200ms;
  return c;
}

// A candidate whose leading work runs until its token is stopped.
struct Candidate {
  std::atomic<int> started{0};
  std::atomic<int> stopped{0};
  std::atomic<bool> work_ended{false};
  std::mutex mu;
  std::vector<std::string> new_leaders;
  std::unique_ptr<LeaderElector> elector;

  Candidate(client::Client& client, Config config, metrics::Registry& registry) {
    Callbacks cb;
    cb.on_started_leading = [this](std::stop_token token) {
      ++started;
      std::mutex m;
      std::condition_variable_any cv;
      std::unique_lock<std::mutex> l(m);
      cv.wait(l, token, [] { return false; });
      work_ended = true;
    };
    cb.on_stopped_leading = [this] { ++stopped; };
    cb.on_new_leader = [this](const std::string& id) {
      std::lock_guard<std::mutex> l(mu);
      new_leaders.push_back(id);
    };
    elector = std::make_unique<LeaderElector>(client, std::move(config), std::move(cb), &registry);
  }
  std::vector<std::string> leaders() {
    std::lock_guard<std::mutex> l(mu);
    return new_leaders;
  }
};

double master_status(const metrics::Registry& reg, const std::string& lease) {
  auto s = integration::find_sample(reg, "leader_election_master_status", {lease});
  return s ? s->value : -1;
}

class LeaderElectorTest : public ::testing::Test {
 protected:
  json::Value lease(const std::string& name = "capstan-test") { return cluster.client().get(kLeases, "default", name); }
  std::string holder(const std::string& name = "capstan-test") {
    try {
      return std::string(json::get_string(lease(name), {"spec", "holderIdentity"}));
    } catch (const client::ApiError&) {
      return "<none>";
    }
  }

  TestCluster cluster;
  metrics::Registry registry;
};

TEST_F(LeaderElectorTest, SingleCandidateAcquiresAndWritesAWellFormedLease) {
  Config c = fast("alpha");
  c.labels = {{"app.kubernetes.io/name", "capstan"}};
  Candidate a(cluster.client(), c, registry);
  EXPECT_EQ(master_status(registry, "capstan-test"), 0);
  a.elector->start();
  ASSERT_TRUE(eventually([&] { return a.elector->is_leader(); }, 3s));
  EXPECT_TRUE(eventually([&] { return a.started.load() == 1; }, 1s));
  EXPECT_EQ(a.elector->leader_identity(), "alpha");
  EXPECT_EQ(master_status(registry, "capstan-test"), 1);

  json::Value l = lease();
  EXPECT_EQ(json::get_string(l, {"spec", "holderIdentity"}), "alpha");
  EXPECT_EQ(json::get_int(l, {"spec", "leaseDurationSeconds"}), 1);
  EXPECT_EQ(json::get_int(l, {"spec", "leaseTransitions"}), 0);
  EXPECT_EQ(json::get_string(l, {"metadata", "labels", "app.kubernetes.io/name"}), "capstan");
  std::regex micro(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z)");
  std::string acquire(json::get_string(l, {"spec", "acquireTime"}));
  std::string renew(json::get_string(l, {"spec", "renewTime"}));
  EXPECT_TRUE(std::regex_match(acquire, micro)) << acquire;
  EXPECT_TRUE(std::regex_match(renew, micro)) << renew;

  // Renewals move renewTime and keep acquireTime.
  ASSERT_TRUE(eventually([&] { return std::string(json::get_string(lease(), {"spec", "renewTime"})) != renew; }, 2s));
  json::Value later = lease();
  EXPECT_EQ(json::get_string(later, {"spec", "acquireTime"}), acquire);
  EXPECT_EQ(json::get_string(later, {"spec", "holderIdentity"}), "alpha");
  EXPECT_EQ(json::get_int(later, {"spec", "leaseTransitions"}), 0);
  EXPECT_EQ(a.leaders(), std::vector<std::string>{"alpha"});

  a.elector->stop();
  EXPECT_FALSE(a.elector->is_leader());
  EXPECT_FALSE(a.elector->lost());
  EXPECT_TRUE(a.work_ended.load());
  EXPECT_EQ(a.stopped.load(), 1);
  EXPECT_EQ(master_status(registry, "capstan-test"), 0);
  // Released: nobody holds it, and it expires after one second.
  json::Value released = lease();
  EXPECT_EQ(json::get_string(released, {"spec", "holderIdentity"}), "");
  EXPECT_EQ(json::get_int(released, {"spec", "leaseDurationSeconds"}), 1);
  EXPECT_EQ(json::get_int(released, {"spec", "leaseTransitions"}), 0);
}

TEST_F(LeaderElectorTest, TwoCandidatesExactlyOneLeads) {
  metrics::Registry reg_b;
  Candidate a(cluster.client(), fast("alpha"), registry);
  Candidate b(cluster.client(), fast("beta"), reg_b);
  a.elector->start();
  b.elector->start();
  ASSERT_TRUE(eventually([&] { return a.elector->is_leader() || b.elector->is_leader(); }, 3s));
  // Watch for 1.5 lease durations: never two leaders, and the leader does not change.
  bool a_leads = a.elector->is_leader();
  auto until = Steady::now() + 1500ms;
  while (Steady::now() < until) {
    ASSERT_FALSE(a.elector->is_leader() && b.elector->is_leader());
    ASSERT_EQ(a.elector->is_leader(), a_leads);
    ASSERT_EQ(b.elector->is_leader(), !a_leads);
    std::this_thread::sleep_for(10ms);
  }
  Candidate& leader = a_leads ? a : b;
  Candidate& follower = a_leads ? b : a;
  EXPECT_EQ(holder(), leader.elector->identity());
  EXPECT_EQ(follower.elector->leader_identity(), leader.elector->identity());
  EXPECT_EQ(follower.started.load(), 0);
  EXPECT_EQ(master_status(registry, "capstan-test"), a_leads ? 1 : 0);
  EXPECT_EQ(master_status(reg_b, "capstan-test"), a_leads ? 0 : 1);
  EXPECT_EQ(follower.leaders(), std::vector<std::string>{leader.elector->identity()});
}

TEST_F(LeaderElectorTest, ReleaseOnStopHandsOverAtOnce) {
  metrics::Registry reg_b;
  Candidate a(cluster.client(), fast("alpha"), registry);
  a.elector->start();
  ASSERT_TRUE(eventually([&] { return a.elector->is_leader(); }, 3s));
  Candidate b(cluster.client(), fast("beta"), reg_b);
  b.elector->start();
  ASSERT_TRUE(eventually([&] { return b.elector->leader_identity() == "alpha"; }, 2s));

  auto t0 = Steady::now();
  a.elector->stop();
  ASSERT_TRUE(eventually([&] { return b.elector->is_leader(); }, 3s));
  auto took = Steady::now() - t0;
  // Without the release the follower would wait a full lease duration after its last
  // observation; with it, the next retry (<= 2.2 retry periods) takes the lease.
  EXPECT_LT(took, 900ms) << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << "ms";
  EXPECT_EQ(a.stopped.load(), 1);
  EXPECT_FALSE(a.elector->lost());
  json::Value l = lease();
  EXPECT_EQ(json::get_string(l, {"spec", "holderIdentity"}), "beta");
  EXPECT_EQ(json::get_int(l, {"spec", "leaseTransitions"}), 1);
  EXPECT_EQ(json::get_int(l, {"spec", "leaseDurationSeconds"}), 1);
  auto leaders = b.leaders();
  ASSERT_FALSE(leaders.empty());
  EXPECT_EQ(leaders.front(), "alpha");
  EXPECT_EQ(leaders.back(), "beta");
}

TEST_F(LeaderElectorTest, DeadLeaderIsReplacedAfterTheLeaseDuration) {
  metrics::Registry reg_b;
  Candidate a(cluster.client(), fast("alpha"), registry);
  a.elector->start();
  ASSERT_TRUE(eventually([&] { return a.elector->is_leader(); }, 3s));
  Candidate b(cluster.client(), fast("beta"), reg_b);
  b.elector->start();
  ASSERT_TRUE(eventually([&] { return b.elector->leader_identity() == "alpha"; }, 2s));
  std::this_thread::sleep_for(300ms);  // b has watched a renew at least once

  auto t0 = Steady::now();
  a.elector->abandon();  // no release: the lease still names alpha
  EXPECT_EQ(holder(), "alpha");
  ASSERT_TRUE(eventually([&] { return b.elector->is_leader(); }, 4s));
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Steady::now() - t0);
  // b saw the last renewal at most ~1 retry period before the "crash", then waits out the
  // 1 s lease from that observation, then up to 2.2 retry periods for its next attempt.
  EXPECT_GE(took, 500ms) << took.count() << "ms";
  EXPECT_LT(took, 2500ms) << took.count() << "ms";
  json::Value l = lease();
  EXPECT_EQ(json::get_string(l, {"spec", "holderIdentity"}), "beta");
  EXPECT_EQ(json::get_int(l, {"spec", "leaseTransitions"}), 1);
}

TEST_F(LeaderElectorTest, ForeignLeaseIsTakenOnlyAfterObservedExpiry) {
  // A lease whose renewTime is an hour old still counts as valid for leaseDurationSeconds
  // after this candidate first sees it (expiry is measured from the observation).
  auto old = meta::Clock::now() - std::chrono::hours(1);
  cluster.client().create(
      kLeases, "default",
      json::Object{{"apiVersion", "coordination.k8s.io/v1"},
                   {"kind", "Lease"},
                   {"metadata", json::Object{{"name", "capstan-test"}, {"namespace", "default"}}},
                   {"spec", json::Object{{"holderIdentity", "someone-else"},
                                         {"leaseDurationSeconds", 1},
                                         {"acquireTime", meta::format_rfc3339_micro(old)},
                                         {"renewTime", meta::format_rfc3339_micro(old)},
                                         {"leaseTransitions", 4}}}});
  Candidate a(cluster.client(), fast("alpha"), registry);
  auto t0 = Steady::now();
  a.elector->start();
  ASSERT_TRUE(eventually([&] { return a.elector->is_leader(); }, 4s));
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Steady::now() - t0);
  EXPECT_GE(took, 950ms) << took.count() << "ms";
  EXPECT_LT(took, 2500ms) << took.count() << "ms";
  json::Value l = lease();
  EXPECT_EQ(json::get_string(l, {"spec", "holderIdentity"}), "alpha");
  EXPECT_EQ(json::get_int(l, {"spec", "leaseTransitions"}), 5);
  auto leaders = a.leaders();
  ASSERT_EQ(leaders.size(), 2u);
  EXPECT_EQ(leaders[0], "someone-else");
  EXPECT_EQ(leaders[1], "alpha");
}

TEST_F(LeaderElectorTest, RenewFailuresForTheRenewDeadlineEndLeadership) {
  Candidate a(cluster.client(), fast("alpha"), registry);
  a.elector->start();
  ASSERT_TRUE(eventually([&] { return a.elector->is_leader(); }, 3s));
  auto t0 = Steady::now();
  cluster.set_fault_rate_500(1.0);
  ASSERT_TRUE(eventually([&] { return a.stopped.load() == 1; }, 3s));
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Steady::now() - t0);
  cluster.set_fault_rate_500(0);
  // The round that fails started at most one retry period after the faults began, and gives
  // up once the renew deadline (600 ms) has passed.
  EXPECT_GE(took, 500ms) << took.count() << "ms";
  EXPECT_LT(took, 2000ms) << took.count() << "ms";
  EXPECT_TRUE(a.elector->lost());
  EXPECT_FALSE(a.elector->is_leader());
  EXPECT_TRUE(a.work_ended.load());
  EXPECT_EQ(master_status(registry, "capstan-test"), 0);
  EXPECT_TRUE(eventually([&] { return !a.elector->running(); }, 2s));
  // run() does not campaign again after a loss.
  std::this_thread::sleep_for(400ms);
  EXPECT_EQ(a.started.load(), 1);
}

TEST_F(LeaderElectorTest, StopBeforeLeadingStillCallsOnStoppedLeading) {
  metrics::Registry reg_b;
  Candidate a(cluster.client(), fast("alpha"), registry);
  a.elector->start();
  ASSERT_TRUE(eventually([&] { return a.elector->is_leader(); }, 3s));
  Candidate b(cluster.client(), fast("beta"), reg_b);
  b.elector->start();
  ASSERT_TRUE(eventually([&] { return b.elector->leader_identity() == "alpha"; }, 2s));
  b.elector->stop();
  EXPECT_EQ(b.stopped.load(), 1);
  EXPECT_EQ(b.started.load(), 0);
  EXPECT_FALSE(b.elector->lost());
  // A follower's stop does not touch the leader's lease.
  EXPECT_EQ(holder(), "alpha");
  EXPECT_TRUE(a.elector->is_leader());
}

TEST_F(LeaderElectorTest, RunOnCallerThreadEndsWithTheToken) {
  Candidate a(cluster.client(), fast("alpha"), registry);
  std::stop_source stop;
  std::thread t([&] { a.elector->run(stop.get_token()); });
  EXPECT_TRUE(eventually([&] { return a.elector->is_leader(); }, 3s));
  stop.request_stop();
  t.join();
  EXPECT_EQ(a.stopped.load(), 1);
  EXPECT_EQ(holder(), "");
}

}  // namespace
}  // namespace capstan::leader
