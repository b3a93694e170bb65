// Faults, met by all four controllers at once on both backends: slow API responses, watches
// and connections dropped mid-stream, the API server restarted, the manager SIGKILLed and
// started again, 429 and 500 answers, and leader failover between two managers. Each test
// brings a Certificate, a Prometheus with a rule, a Kafka cluster and a Kustomization to Ready,
// changes each of them while the fault lasts, and then waits for every controller to converge: the new state reached, nothing duplicated (one Secret and one
// CertificateRequest per issuance, one Pod per Kafka node, one rule ConfigMap). It prints a
// row per controller: fault, converged or not, seconds from the changes to convergence.
#include "testing/all_controllers_fixture.h"
#include "testing/error_webhook.h"

#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <map>
#include <sstream>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

const char* kObjects = R"(apiVersion: v1
kind: Namespace
metadata: {name: team}
---
apiVersion: certs.capstan.dev/v1
kind: Issuer
metadata: {name: self, namespace: team}
spec: {selfSigned: {}}
---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: web, namespace: team}
spec: {secretName: web-tls, issuerRef: {name: self}, dnsNames: [web.example.com]}
---
apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: main, namespace: team}
spec: {replicas: 1, ruleSelector: {}}
---
apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: first, namespace: team}
spec: {groups: [{name: first, rules: [{record: first, expr: vector(1)}]}]}
---
apiVersion: kafka.capstan.dev/v1
kind: KafkaNodePool
metadata: {name: dual, namespace: team, labels: {kafka.capstan.dev/cluster: events}}
spec: {replicas: 1, roles: [controller, broker], storage: {type: ephemeral}}
---
apiVersion: kafka.capstan.dev/v1
kind: Kafka
metadata: {name: events, namespace: team}
spec:
  kafka:
    listeners: [{name: plain, port: 9092, type: internal, tls: false}]
)";

// What the test changes while the fault lasts.
const char* kChanges = R"(apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: web2, namespace: team}
spec: {secretName: web2-tls, issuerRef: {name: self}, dnsNames: [web2.example.com]}
---
apiVersion: monitoring.capstan.dev/v1
kind: PrometheusRule
metadata: {name: second, namespace: team}
spec: {groups: [{name: second, rules: [{record: second, expr: vector(2)}]}]}
---
apiVersion: kafka.capstan.dev/v1
kind: KafkaNodePool
metadata: {name: dual, namespace: team, labels: {kafka.capstan.dev/cluster: events}}
spec: {replicas: 2, roles: [controller, broker], storage: {type: ephemeral}}
)";

std::string config_map(const std::string& color) {
  return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\ndata: {color: " + color + "}\n";
}

std::size_t count_words(const std::string& s, const std::string& word) {
  std::istringstream in(s);
  std::size_t n = 0;
  for (std::string w; in >> w;) n += w == word;
  return n;
}

class FaultsE2E : public AllControllersFixture {
 protected:
  FaultsE2E()
      : AllControllersFixture({"faults", /*simulate_workloads=*/true,
                               "certificates,certificaterequests,prometheus,kafka,kafkanodepools,kustomizations,gitrepositories",
                               /*through_fault_proxy=*/true, /*durable=*/true}) {}

  // Per controller: whether its part of the changes has fully converged, without duplicates.
  std::map<std::string, std::function<bool()>> converged() {
    return {
        {"certificates",
         [&] {
           return ready("certificate", "web2") == "True" &&
                  count_words(get({"get", "certificaterequests", "-n", "team", "-o", "jsonpath={.items[*].metadata.ownerReferences[0].name}"}),
                              "web2") == 1 &&
                  get({"get", "secret", "web2-tls", "-n", "team", "-o", "name"}) == "secret/web2-tls\n";
         }},
        {"monitoring",
         [&] {
           std::string files = get({"get", "configmaps", "-n", "team", "-o", "jsonpath={.items[*].metadata.name}"});
           std::string data = get({"get", "configmap", "prometheus-main-rulefiles-0", "-n", "team", "-o", "jsonpath={.data}"});
           return condition("prometheus", "main", "team", "Reconciled") == "True" && data.find("team-second-") != std::string::npos &&
                  data.find("team-first-") != std::string::npos && files.find("prometheus-main-rulefiles-1") == std::string::npos;
         }},
        {"kafka",
         [&] {
           auto pods = get({"get", "pods", "-n", "team", "-l", "kafka.capstan.dev/cluster=events", "-o", "name"});
           return ready("kafka", "events") == "True" && std::count(pods.begin(), pods.end(), '\n') == 2 &&
                  get({"get", "kafkanodepool", "dual", "-n", "team", "-o", "jsonpath={.status.replicas}"}) == "2";
         }},
        {"gitops",
         [&] {
           return ready("kustomization", "app") == "True" &&
                  get({"get", "configmap", "app", "-n", "team", "-o", "jsonpath={.data.color}"}) == "green";
         }},
    };
  }

  // Brings every controller's object to Ready, makes the changes, runs `begin`, holds the fault
  // for `hold`, runs `end`, then waits (bounded) for each controller to converge.
  void run_fault(const std::string& fault, const std::function<void()>& begin, const std::function<void()>& end,
                 std::chrono::milliseconds hold = 4s) {
    repo_->write("deploy/app.yaml", config_map("blue"));
    repo_->commit("blue");
    kubectl_->ok({"apply", "-f", "-"}, kObjects);
    kubectl_->ok({"apply", "-f", "-"}, "apiVersion: gitops.capstan.dev/v1\nkind: GitRepository\nmetadata: {name: app, namespace: team}\n"
                                       "spec: {url: " + daemon_->url("app") + ", interval: 1s, ref: {branch: main}}\n---\n"
                                       "apiVersion: gitops.capstan.dev/v1\nkind: Kustomization\nmetadata: {name: app, namespace: team}\n"
                                       "spec: {sourceRef: {kind: GitRepository, name: app}, interval: 1m, path: deploy, prune: true, "
                                       "targetNamespace: team}\n");
    ASSERT_TRUE(eventually([&] {
      return ready("certificate", "web") == "True" && ready("kafka", "events") == "True" && ready("kustomization", "app") == "True" &&
             condition("prometheus", "main", "team", "Reconciled") == "True";
    }, 90s)) << "the objects never became Ready before the fault";

    // The changes, then at once the fault: it meets the reconciles they start.
    auto changed = Clock::now();
    kubectl_->ok({"apply", "-f", "-"}, kChanges);
    repo_->write("deploy/app.yaml", config_map("green"));
    repo_->commit("green");
    begin();
    std::this_thread::sleep_for(hold);
    end();

    auto checks = converged();
    std::map<std::string, double> took;
    eventually([&] {
      for (auto& [name, check] : checks)
        if (!took.contains(name) && check()) took[name] = std::chrono::duration<double>(Clock::now() - changed).count();
      return took.size() == checks.size();
    }, 120s, 250ms);
    for (const auto& [name, check] : checks) {
      bool ok = took.contains(name);
      std::printf("[faults] %-8s %-22s %-13s %s\n", to_string(backend()).c_str(), fault.c_str(), name.c_str(),
                  ok ? ("converged in " + std::to_string(static_cast<int>(took[name] * 10) / 10.0).substr(0, 5) + " s").c_str()
                     : "NOT converged");
      EXPECT_TRUE(ok) << name << " did not converge after " << fault;
    }
  }
};

TEST_P(FaultsE2E, SlowApiResponses) {
  run_fault("slow responses (300ms)", [&] { proxy_->set_latency(300ms); }, [&] { proxy_->set_latency(0ms); }, 6s);
}

TEST_P(FaultsE2E, ConnectionsAndWatchesDroppedMidStream) {
  std::atomic<bool> dropping{false};
  std::thread dropper;
  run_fault("connections dropped",
            [&] {
              dropping = true;
              dropper = std::thread([&] {
                while (dropping) {
                  proxy_->drop_connections();
                  std::this_thread::sleep_for(500ms);
                }
              });
            },
            [&] {
              dropping = false;
              dropper.join();
            },
            6s);
}

TEST_P(FaultsE2E, ApiServerRestarted) {
  run_fault("API server restarted", [&] { server_->restart(); proxy_->set_upstream(server_->port()); }, [] {});
}

TEST_P(FaultsE2E, ManagerKilledAndStartedAgain) {
  run_fault("manager SIGKILLed", [&] { manager_->kill(); }, [&] { manager_->start(); });
}

// Writes are answered 429 and 500 by the API server on both backends (an admission webhook
// denying with those codes, see ErrorWebhook); the embedded server answers reads that way too
// (its /debug/capstan/faults), which kube-apiserver cannot be made to do.
TEST_P(FaultsE2E, ApiAnswers429And500) {
  ErrorWebhook errors(*dir_, *kubectl_);
  auto set_reads = [&](double r429, double r500) {
    if (backend() != Backend::Embedded) return;
    kubectl_->ok({"create", "--raw", "/debug/capstan/faults", "-f", "-"},
                 "{\"rate429\":" + std::to_string(r429) + ",\"rate500\":" + std::to_string(r500) + ",\"retryAfterSeconds\":1}");
  };
  run_fault(
      "429 (20%) and 500 (10%)",
      [&] {
        errors.set_rates(0.2, 0.1);
        set_reads(0.2, 0.1);
      },
      [&] {
        errors.set_rates(0, 0);
        set_reads(0, 0);
      },
      6s);
  std::printf("[faults] %-8s the API server answered %llu of %llu writes with 429 or 500\n", to_string(backend()).c_str(),
              static_cast<unsigned long long>(errors.injected()), static_cast<unsigned long long>(errors.reviewed()));
  EXPECT_GT(errors.injected(), 0u) << "no write met an error: the fault was not exercised";
}

CAPSTAN_E2E_BACKENDS(FaultsE2E);

// Two managers with leader election, as the chart's two replicas run: the leader is SIGKILLed
// while the changes are being reconciled, the standby takes over once the Lease expires, and the
// killed one comes back as the new standby.
class LeaderFailoverE2E : public FaultsE2E {
 protected:
  std::vector<std::string> manager_flags() override {
    auto flags = FaultsE2E::manager_flags();
    for (const char* f : {"--leader-elect", "--leader-election-namespace=capstan-system", "--leader-elect-lease-duration=4s",
                          "--leader-elect-renew-deadline=3s", "--leader-elect-retry-period=500ms"})
      flags.push_back(f);
    return flags;
  }
};

TEST_P(LeaderFailoverE2E, LeaderKilledStandbyTakesOver) {
  // The standby: the same flags, its own Git mirrors (each replica has its own emptyDir).
  auto flags = manager_flags();
  for (auto& f : flags)
    if (f.rfind("--gitops-storage-path=", 0) == 0) f = "--gitops-storage-path=" + dir_->file("standby-mirrors");
  ManagerProcess standby(*dir_, dir_->file("proxy.kubeconfig"), flags, "standby");
  ASSERT_TRUE(eventually([&] { return manager_->leading(); }, 30s)) << "the first manager never led";
  standby.start();
  ManagerProcess* killed = nullptr;
  run_fault(
      "leader failover",
      [&] {
        killed = manager_->leading() ? manager_.get() : &standby;
        killed->kill();
      },
      [&] {
        ManagerProcess* survivor = killed == manager_.get() ? &standby : manager_.get();
        EXPECT_TRUE(eventually([&] { return survivor->leading(); }, 20s)) << "the standby never took over";
        killed->start();
      });
  EXPECT_FALSE(killed->leading()) << "the restarted manager waits as the standby";
  if (HasFailure()) std::cerr << "---- standby log ----\n" << standby.logs() << "\n";
  standby.stop();
}

CAPSTAN_E2E_BACKENDS(LeaderFailoverE2E);

}  // namespace
}  // namespace capstan::e2e
