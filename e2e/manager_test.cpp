// `capstan manager` as a process against either backend: readiness after the caches
// sync, Prometheus metrics that promtool accepts (over HTTP and HTTPS), a clean SIGTERM - also
// with a deep backlog of slow reconciles and before the caches sync -, flag errors, and leader
// election between two managers (exactly one reconciles; SIGKILL hands over in time).
#include "testing/kubectl.h"
#include "testing/fault_proxy.h"
#include "testing/manager_process.h"

#include <gtest/gtest.h>

#include <csignal>
#include <regex>
#include <sstream>
#include <thread>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const char* kSelfSigned = R"(apiVersion: certs.capstan.dev/v1
kind: ClusterIssuer
metadata: {name: NAME}
spec: {selfSigned: {}}
)";

class ManagerE2E : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>("manager-" + to_string(GetParam()));
    server_ = make_cluster(GetParam(), *dir_);
    server_->start();
    kubectl_ = std::make_unique<Kubectl>(*dir_, server_->kubeconfig());
    if (install_crds_on_setup_) install_crds();
  }
  // What an installation provides: the CRDs (capstan crds | kubectl apply -f -).
  void install_crds() {
    auto crds = run({capstan_bin(), "crds"});
    ASSERT_EQ(crds.code, 0) << crds.err;
    if (!crds.out.empty()) kubectl_->ok({"apply", "--server-side", "-f", "-"}, crds.out);
  }
  bool install_crds_on_setup_ = true;
  void TearDown() override {
    if (HasFailure()) {
      for (const auto& m : managers_)
        std::cerr << "manager log:\n" << m->logs().substr(0, 20000) << std::endl;
      if (server_) std::cerr << "cluster logs:\n" << server_->logs() << std::endl;
    }
  }
  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<Cluster> server_;
  std::unique_ptr<Kubectl> kubectl_;
  // Owned here, so their logs are still there in TearDown when a test fails.
  ManagerProcess& manager(std::vector<std::string> args = {}, std::string tag = "manager", std::string kubeconfig = "") {
    if (kubeconfig.empty()) kubeconfig = server_->kubeconfig();
    managers_.push_back(std::make_unique<ManagerProcess>(*dir_, std::move(kubeconfig), std::move(args), std::move(tag)));
    return *managers_.back();
  }
  std::vector<std::unique_ptr<ManagerProcess>> managers_;
};

TEST_P(ManagerE2E, ReadyOnceSyncedServesValidMetricsAndStopsCleanlyOnSigterm) {
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

TEST_P(ManagerE2E, BadFlagsExitWithStatusTwo) {
  auto unknown = run({capstan_bin(), "manager", "--controllers=*,-nosuchthing"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("unknown controller \"nosuchthing\""), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("known controllers:"), std::string::npos) << unknown.err;
  auto bad = run({capstan_bin(), "manager", "--no-such-flag"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("unknown flag: --no-such-flag"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("--metrics-secure"), std::string::npos) << "the valid flags are listed: " << bad.err;
  auto durations = run({capstan_bin(), "manager", "--kubeconfig=" + server_->kubeconfig(), "--leader-elect",
                        "--leader-election-namespace=default", "--leader-elect-lease-duration=1s",
                        "--leader-elect-renew-deadline=5s", "--metrics-bind-address=0", "--health-probe-bind-address=0"});
  EXPECT_EQ(durations.code, 2) << durations.err;
  EXPECT_NE(durations.err.find("leader election"), std::string::npos) << durations.err;
}

TEST_P(ManagerE2E, ExactlyOneLeaderReconcilesAndSigkillHandsOver) {
  std::vector<std::string> args = {"--leader-elect", "--leader-election-namespace=default", "--leader-elect-lease-duration=3s",
                                   "--leader-elect-renew-deadline=2s", "--leader-elect-retry-period=500ms"};
  ManagerProcess& a = manager(args, "manager-a");
  ManagerProcess& b = manager(args, "manager-b");
  a.start();
  b.start();
  ASSERT_TRUE(eventually([&] { return a.leading() || b.leading(); }, 20s));
  std::this_thread::sleep_for(1500ms);
  ASSERT_NE(a.leading(), b.leading()) << "exactly one manager leads";
  ManagerProcess& leader = a.leading() ? a : b;
  ManagerProcess& follower = a.leading() ? b : a;
  auto holder = kubectl_->ok({"get", "lease", "capstan-manager", "-n", "default", "-o", "jsonpath={.spec.holderIdentity}"});
  EXPECT_FALSE(holder.empty());

  std::string first = std::regex_replace(kSelfSigned, std::regex("NAME"), "first");
  kubectl_->ok({"apply", "-f", "-"}, first);
  ASSERT_TRUE(eventually([&] {
    return kubectl_->ok({"get", "clusterissuer", "first", "-o", "jsonpath={.status.conditions[?(@.type==\"Ready\")].status}"}) == "True";
  }, 20s));
  EXPECT_GT(leader.metric("controller_runtime_reconcile_total"), 0);
  EXPECT_EQ(follower.metric("controller_runtime_reconcile_total"), 0) << "the standby does not reconcile";

  leader.kill();
  auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(eventually([&] { return follower.leading(); }, 15s)) << "no takeover after SIGKILL";
  auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_LT(took, 3s + 2 * 500ms + 2s) << "takeover within the lease duration (plus retry jitter)";
  std::string second = std::regex_replace(kSelfSigned, std::regex("NAME"), "second");
  kubectl_->ok({"apply", "-f", "-"}, second);
  ASSERT_TRUE(eventually([&] {
    return kubectl_->ok({"get", "clusterissuer", "second", "-o", "jsonpath={.status.conditions[?(@.type==\"Ready\")].status}"}) == "True";
  }, 20s));
  EXPECT_GT(follower.metric("controller_runtime_reconcile_total"), 0);
  EXPECT_EQ(follower.stop(), 0);
}

// A deep backlog of Certificates whose reconciles are slow (every API request takes 300 ms):
// SIGTERM stops taking work, lets the running reconciles finish, releases the lease and exits
// 0 well within 10 s, leaving the backlog to the next leader.
TEST_P(ManagerE2E, SigtermWithADeepBacklogExitsZeroWithinTenSecondsAndReleasesTheLease) {
  constexpr int kCertificates = 150;
  kubectl_->ok({"create", "namespace", "backlog"});
  kubectl_->ok({"apply", "-f", "-"}, std::regex_replace(kSelfSigned, std::regex("NAME"), "selfsigned"));
  std::string certs;
  for (int i = 0; i < kCertificates; ++i) {
    std::string n = "cert-" + std::to_string(i);
    certs += "---\napiVersion: certs.capstan.dev/v1\nkind: Certificate\nmetadata: {name: " + n +
             ", namespace: backlog}\nspec:\n  secretName: " + n + "-tls\n  commonName: " + n +
             ".example.com\n  privateKey: {algorithm: RSA, size: 2048}\n  issuerRef: {name: selfsigned, kind: ClusterIssuer}\n";
  }
  kubectl_->ok({"create", "-f", "-"}, certs);
  // The manager reaches the API server through a proxy that delays each request.
  FaultProxy proxy(server_->port());
  proxy.set_latency(300ms);
  proxy.write_kubeconfig(server_->kubeconfig(), dir_->file("slow.kubeconfig"));

  ManagerProcess& m = manager({"--leader-elect", "--leader-election-namespace=default"}, "manager", dir_->file("slow.kubeconfig"));
  m.start();
  auto certificates_metric = [&](const std::string& family) {
    auto text = m.metrics();
    std::istringstream in(text);
    double v = 0;
    for (std::string line; std::getline(in, line);)
      if (line.rfind(family + "{", 0) == 0 && line.find("controller=\"certificates\"") != std::string::npos)
        v += std::atof(line.substr(line.rfind(' ') + 1).c_str());
    return v;
  };
  ASSERT_TRUE(eventually([&] { return m.leading(); }, 30s));
  ASSERT_TRUE(eventually([&] { return certificates_metric("controller_runtime_active_workers") > 0; }, 60s))
      << "no Certificate reconcile started";
  double depth = certificates_metric("workqueue_depth");
  EXPECT_GE(depth, 50) << "the backlog is not deep";

  auto t0 = std::chrono::steady_clock::now();
  int code = m.stop();
  auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_EQ(code, 0) << m.logs().substr(0, 20000);
  EXPECT_LT(took, 10s) << "SIGTERM took " << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms";
  proxy.set_latency(0ms);

  auto logs = m.logs();
  EXPECT_EQ(logs.find("shutdown did not finish in time"), std::string::npos) << "the watchdog had to end it";
  EXPECT_NE(logs.find("released the lease"), std::string::npos) << logs.substr(logs.size() > 4000 ? logs.size() - 4000 : 0);
  auto holder = kubectl_->ok({"get", "lease", "capstan-manager", "-n", "default", "-o", "jsonpath={.spec.holderIdentity}"});
  EXPECT_EQ(holder, "") << "the lease was not released";
  auto ready = kubectl_->ok({"get", "certificates", "-n", "backlog", "-o",
                             "jsonpath={range .items[*]}{.status.conditions[?(@.type==\"Ready\")].status}{\"\\n\"}{end}"});
  int issued = 0;
  std::istringstream in(ready);
  for (std::string line; std::getline(in, line);) issued += line == "True";
  EXPECT_LT(issued, kCertificates) << "the backlog was worked off before exiting";
}

// Before the caches sync (here: the CRDs are not installed, so the Certificate informers
// cannot list) the manager is live but not ready, and SIGTERM still ends it at once.
class ManagerWithoutCrdsE2E : public ManagerE2E {
 protected:
  ManagerWithoutCrdsE2E() { install_crds_on_setup_ = false; }
};

TEST_P(ManagerWithoutCrdsE2E, NotReadyBeforeTheCachesSyncAndSigtermStillExitsPromptly) {
  ManagerProcess& m = manager();
  m.start();  // /healthz answers
  EXPECT_EQ(http_get(m.health_port(), "/healthz").first, 200);
  auto until = std::chrono::steady_clock::now() + 3s;
  while (std::chrono::steady_clock::now() < until) {
    auto [code, body] = http_get(m.health_port(), "/readyz");
    ASSERT_NE(code, 200) << "ready although no cache could sync: " << body;
    std::this_thread::sleep_for(200ms);
  }
  EXPECT_NE(http_get(m.health_port(), "/readyz?verbose").second.find("informers"), std::string::npos);
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(m.stop(), 0) << m.logs().substr(0, 20000);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s) << "SIGTERM waited for the caches";
}

// --metrics-secure: HTTPS with the certificate from --metrics-cert-dir (verified against its
// CA), or a self-signed one without it; plain HTTP is not served.
TEST_P(ManagerE2E, SecureMetricsAreScrapedOverHttps) {
  // ManagerProcess writes a serving certificate for 127.0.0.1 (and its CA) into
  // <dir>/<tag>-certs for the webhooks; the metrics server is pointed at it too.
  ManagerProcess& given =
      manager({"--metrics-secure", "--metrics-cert-dir=" + dir_->file("manager-given-certs")}, "manager-given");
  given.start();
  ASSERT_TRUE(eventually([&] { return http_get(given.health_port(), "/readyz").first == 200; }, 30s));
  std::string ca = dir_->file("manager-given-certs/ca.crt");
  auto url = "https://127.0.0.1:" + std::to_string(given.metrics_port()) + "/metrics";
  auto verified = run({"/usr/bin/curl", "-sS", "--max-time", "10", "--cacert", ca, url});
  ASSERT_EQ(verified.code, 0) << verified.err;
  EXPECT_NE(verified.out.find("# TYPE rest_client_requests_total counter"), std::string::npos) << verified.out.substr(0, 2000);
  auto check = run({"/usr/bin/promtool", "check", "metrics"}, {}, verified.out);
  EXPECT_EQ(check.code, 0) << check.out << check.err;
  EXPECT_EQ(http_get(given.metrics_port(), "/metrics").first, 0) << "metrics answered over plain HTTP";
  EXPECT_EQ(given.stop(), 0);

  ManagerProcess& self_signed = manager({"--metrics-secure"}, "manager-self-signed");
  self_signed.start();
  auto url2 = "https://127.0.0.1:" + std::to_string(self_signed.metrics_port()) + "/metrics";
  auto unverified = run({"/usr/bin/curl", "-sS", "--max-time", "10", "--insecure", url2});
  ASSERT_EQ(unverified.code, 0) << unverified.err;
  EXPECT_NE(unverified.out.find("process_resident_memory_bytes"), std::string::npos);
  auto untrusted = run({"/usr/bin/curl", "-sS", "--max-time", "10", "--cacert", ca, url2});
  EXPECT_NE(untrusted.code, 0) << "a self-signed certificate verified against an unrelated CA";
  auto cert = run({"/usr/bin/openssl", "s_client", "-connect", "127.0.0.1:" + std::to_string(self_signed.metrics_port()), "-showcerts"},
                  {}, "");
  EXPECT_NE(cert.out.find("localhost"), std::string::npos) << cert.out;
  EXPECT_EQ(self_signed.stop(), 0);

  auto bad = run({capstan_bin(), "manager", "--kubeconfig=" + server_->kubeconfig(), "--metrics-cert-dir=/nonexistent"});
  EXPECT_EQ(bad.code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--metrics-cert-dir needs --metrics-secure"), std::string::npos) << bad.err;
}

CAPSTAN_E2E_BACKENDS(ManagerE2E);
CAPSTAN_E2E_BACKENDS(ManagerWithoutCrdsE2E);

}  // namespace
}  // namespace capstan::e2e
