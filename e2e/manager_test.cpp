// `capstan manager` as a process against `capstan apiserver`: readiness after the caches
// sync, Prometheus metrics that promtool accepts, a clean SIGTERM, flag errors, and leader
// election between two managers (exactly one reconciles; SIGKILL hands over in time).
#include "e2e/support/cluster.h"

#include <gtest/gtest.h>

#include <csignal>
#include <regex>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

double metric_sum(const std::string& text, const std::string& name) {
  double sum = 0;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(name, 0) != 0) continue;
    if (line.size() > name.size() && line[name.size()] != '{' && line[name.size()] != ' ') continue;
    auto sp = line.rfind(' ');
    sum += std::atof(line.substr(sp + 1).c_str());
  }
  return sum;
}

bool is_leader(const ManagerProcess& m) {
  return metric_sum(m.metrics(), "leader_election_master_status") == 1.0;
}

const char* kSelfSigned = R"(apiVersion: certs.capstan.dev/v1
kind: ClusterIssuer
metadata: {name: NAME}
spec: {selfSigned: {}}
)";

class ManagerE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>("manager");
    server_ = std::make_unique<ApiServerProcess>(*dir_, ApiServerProcess::Options{});
    server_->start();
    kubectl_ = std::make_unique<Kubectl>(*dir_, server_->kubeconfig());
    // What an installation provides: the CRDs (capstan crds | kubectl apply -f -).
    auto crds = run({capstan_bin(), "crds"});
    ASSERT_EQ(crds.code, 0) << crds.err;
    if (!crds.out.empty()) kubectl_->ok({"apply", "--server-side", "-f", "-"}, crds.out);
  }
  void TearDown() override {
    if (HasFailure()) {
      for (const auto& m : managers_)
        std::cerr << "manager log:\n" << m->logs().substr(0, 20000) << std::endl;
    }
  }
  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<ApiServerProcess> server_;
  std::unique_ptr<Kubectl> kubectl_;
  // Owned here, so their logs are still there in TearDown when a test fails.
  ManagerProcess& manager(std::vector<std::string> args = {}, std::string tag = "manager") {
    managers_.push_back(std::make_unique<ManagerProcess>(*dir_, server_->kubeconfig(), std::move(args), std::move(tag)));
    return *managers_.back();
  }
  std::vector<std::unique_ptr<ManagerProcess>> managers_;
};

TEST_F(ManagerE2E, ReadyOnceSyncedServesValidMetricsAndStopsCleanlyOnSigterm) {
  ManagerProcess& m = manager();
  m.start();
  ASSERT_TRUE(eventually([&] { return http_get(m.health_port(), "/readyz").first == 200; }, 30s)) << http_get(m.health_port(), "/readyz?verbose").second;
  EXPECT_EQ(http_get(m.health_port(), "/healthz").second, "ok");
  auto text = m.metrics();
  EXPECT_NE(text.find("# TYPE rest_client_requests_total counter"), std::string::npos) << text.substr(0, 2000);
  EXPECT_NE(text.find("process_resident_memory_bytes"), std::string::npos);
  auto check = run({"/usr/bin/promtool", "check", "metrics"}, {}, text);
  EXPECT_EQ(check.code, 0) << check.out << check.err;
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(m.stop(), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
}

TEST_F(ManagerE2E, BadFlagsExitWithStatusTwo) {
  auto unknown = run({capstan_bin(), "manager", "--controllers=*,-nosuchthing"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("unknown controller \"nosuchthing\""), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("known controllers:"), std::string::npos) << unknown.err;
  auto bad = run({capstan_bin(), "manager", "--no-such-flag"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("unknown flag: --no-such-flag"), std::string::npos) << bad.err;
  auto durations = run({capstan_bin(), "manager", "--kubeconfig=" + server_->kubeconfig(), "--leader-elect",
                        "--leader-election-namespace=default", "--leader-elect-lease-duration=1s",
                        "--leader-elect-renew-deadline=5s", "--metrics-bind-address=0", "--health-probe-bind-address=0"});
  EXPECT_EQ(durations.code, 2) << durations.err;
  EXPECT_NE(durations.err.find("leader election"), std::string::npos) << durations.err;
}

TEST_F(ManagerE2E, ExactlyOneLeaderReconcilesAndSigkillHandsOver) {
  std::vector<std::string> args = {"--leader-elect", "--leader-election-namespace=default", "--leader-elect-lease-duration=3s",
                                   "--leader-elect-renew-deadline=2s", "--leader-elect-retry-period=500ms"};
  ManagerProcess& a = manager(args, "manager-a");
  ManagerProcess& b = manager(args, "manager-b");
  a.start();
  b.start();
  ASSERT_TRUE(eventually([&] { return is_leader(a) || is_leader(b); }, 20s));
  std::this_thread::sleep_for(1500ms);
  ASSERT_NE(is_leader(a), is_leader(b)) << "exactly one manager leads";
  ManagerProcess& leader = is_leader(a) ? a : b;
  ManagerProcess& follower = is_leader(a) ? b : a;
  auto holder = kubectl_->ok({"get", "lease", "capstan-manager", "-n", "default", "-o", "jsonpath={.spec.holderIdentity}"});
  EXPECT_FALSE(holder.empty());

  std::string first = std::regex_replace(kSelfSigned, std::regex("NAME"), "first");
  kubectl_->ok({"apply", "-f", "-"}, first);
  ASSERT_TRUE(eventually([&] {
    return kubectl_->ok({"get", "clusterissuer", "first", "-o", "jsonpath={.status.conditions[?(@.type==\"Ready\")].status}"}) == "True";
  }, 20s));
  EXPECT_GT(metric_sum(leader.metrics(), "controller_runtime_reconcile_total"), 0);
  EXPECT_EQ(metric_sum(follower.metrics(), "controller_runtime_reconcile_total"), 0) << "the standby does not reconcile";

  leader.kill();
  auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(eventually([&] { return is_leader(follower); }, 15s)) << "no takeover after SIGKILL";
  auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_LT(took, 3s + 2 * 500ms + 2s) << "takeover within the lease duration (plus retry jitter)";
  std::string second = std::regex_replace(kSelfSigned, std::regex("NAME"), "second");
  kubectl_->ok({"apply", "-f", "-"}, second);
  ASSERT_TRUE(eventually([&] {
    return kubectl_->ok({"get", "clusterissuer", "second", "-o", "jsonpath={.status.conditions[?(@.type==\"Ready\")].status}"}) == "True";
  }, 20s));
  EXPECT_GT(metric_sum(follower.metrics(), "controller_runtime_reconcile_total"), 0);
  EXPECT_EQ(follower.stop(), 0);
}

}  // namespace
}  // namespace capstan::e2e
