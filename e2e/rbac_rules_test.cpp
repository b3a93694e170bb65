// The chart's RBAC rules are needed, not decoration: the chart rendered for certificates and
// monitoring is applied with all of monitoring's rules taken out of the ClusterRole, and under
// the ServiceAccount's token its scenario fails visibly (Forbidden in the manager's log, the
// Prometheus never Available) while certificates' still works - its controllers do not wait
// for caches monitoring cannot fill.
#include "testing/install_fixture.h"
#include "runtime/json/json.h"
#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

class HelmRbacRulesE2E : public InstallFixture {
 protected:
  std::vector<json::Value> render(bool monitoring, const std::string& only = {}) {
    std::vector<std::string> args = {"template", "capstan", chart_dir(), "-n", kCapstanNamespace,
                                     "--set", "controllers.certificates.enabled=true",
                                     "--set", std::string("controllers.monitoring.enabled=") + (monitoring ? "true" : "false"),
                                     "--set", "controllers.kafka.enabled=false", "--set", "controllers.gitops.enabled=false",
                                     "--set", "webhook.url.host=" + webhook_host()};
    if (!only.empty()) args.insert(args.end(), {"--show-only", only});
    return json::from_yaml_documents(helm_->ok(args), "helm template");
  }
  static json::Array cluster_role_rules(const std::vector<json::Value>& docs) {
    for (const auto& d : docs)
      if (json::get_string(d, {"kind"}) == "ClusterRole") return *json::get_array(d, {"rules"});
    return {};
  }
  void apply(const std::vector<json::Value>& docs) {
    std::string stream;
    for (const auto& d : docs) stream += "---\n" + json::to_yaml(d);
    kubectl_->ok({"apply", "--server-side", "-f", "-"}, stream);
  }
};

TEST_P(HelmRbacRulesE2E, WithoutMonitoringsRulesItsScenarioFailsVisiblyWhileCertificatesWorks) {
  auto docs = render(true);
  json::Array full = cluster_role_rules(docs);
  json::Array without = cluster_role_rules(render(false, "templates/rbac.yaml"));
  ASSERT_FALSE(full.empty());
  ASSERT_LT(without.size(), full.size());
  // Monitoring's rules are those the render without it lacks; all of them are taken away,
  // reads included: the manager may not even list Prometheuses. Each controller starts once its
  // own caches have synced, so certificates' is not held back by monitoring's.
  for (auto& d : docs)
    if (json::get_string(d, {"kind"}) == "ClusterRole") d.as_object()["rules"] = without;
  kubectl_->ok({"create", "namespace", kCapstanNamespace});
  apply(docs);
  kubectl_->ok({"wait", "--for=condition=Established", "crd", "--all", "--timeout=60s"});

  start_manager("manager");
  apply_sample("selfsigned-ca.yaml");
  apply_sample("monitoring.yaml");
  EXPECT_TRUE(sample_ready("certificates", 60s)) << "certificates' rules are intact";
  // The manager says what it may not do, naming its identity (e.g. `list failed; retrying`
  // resource=monitoring.capstan.dev/v1/prometheuses error="...: 403 Forbidden: ... User
  // \"system:serviceaccount:capstan-system:capstan-manager\" cannot list resource ...").
  auto reported = [&] {
    std::string log = manager_->logs();
    for (auto at = log.find("403 Forbidden"); at != std::string::npos; at = log.find("403 Forbidden", at + 1)) {
      std::string line = log.substr(log.rfind('\n', at) + 1, log.find('\n', at) - log.rfind('\n', at) - 1);
      if (line.find("monitoring.capstan.dev") != std::string::npos &&
          line.find("system:serviceaccount:capstan-system:capstan-manager\\\" cannot") != std::string::npos)
        return true;
    }
    return false;
  };
  EXPECT_TRUE(eventually(reported, 30s)) << "the manager does not report the Forbidden";
  EXPECT_FALSE(sample_ready("monitoring", 5s)) << "the Prometheus became Available without its rules";
  EXPECT_EQ(get({"get", "statefulset", "prometheus-main", "-n", "default", "--ignore-not-found", "-o", "name"}), "");

  // Given its rules back, the same manager gets there: nothing else was missing.
  for (auto& d : docs)
    if (json::get_string(d, {"kind"}) == "ClusterRole") d.as_object()["rules"] = full;
  apply(docs);
  EXPECT_TRUE(sample_ready("monitoring", 90s)) << "with the rendered rules restored";
}

CAPSTAN_E2E_BACKENDS(HelmRbacRulesE2E);

}  // namespace
}  // namespace capstan::e2e
