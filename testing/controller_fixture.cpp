#include "testing/controller_fixture.h"

#include "runtime/json/yaml.h"
#include "testing/eventually.h"
#include "testing/helm.h"

#include <algorithm>
#include <fstream>
#include <iostream>

namespace capstan::e2e {

void ControllerFixture::SetUp() {
  dir_ = std::make_unique<TempDir>(setup_.name + "-" + to_string(backend()));
  before_cluster();
  ClusterOptions so;
  so.simulate_workloads = setup_.simulate_workloads;
  so.pod_ready_delay = setup_.pod_ready_delay;
  if (setup_.durable) so.data_dir = dir_->file("data");
  server_ = make_cluster(backend(), *dir_, so);
  server_->start();
  kubectl_ = std::make_unique<Kubectl>(*dir_, server_->kubeconfig());
  auto crds = run({capstan_bin(), "crds"});
  ASSERT_EQ(crds.code, 0) << crds.err;
  kubectl_->ok({"apply", "--server-side", "-f", "-"}, crds.out);
  kubectl_->ok({"wait", "--for=condition=Established", "crd", "--all", "--timeout=60s"});
  before_manager();
  std::string kubeconfig = manager_kubeconfig();
  if (setup_.through_fault_proxy) {
    proxy_ = std::make_unique<FaultProxy>(server_->port());
    std::string proxied = dir_->file("proxy.kubeconfig");
    proxy_->write_kubeconfig(kubeconfig, proxied);
    kubeconfig = proxied;
  }
  manager_ = std::make_unique<ManagerProcess>(*dir_, kubeconfig, manager_flags());
  manager_->start();
}

std::string ControllerFixture::manager_kubeconfig() {
  // The controllers --controllers enables: "*" and names, "-name" excluded.
  std::vector<std::string> list;
  for (const auto& f : manager_flags())
    if (f.rfind("--controllers=", 0) == 0) {
      std::string v = f.substr(14);
      for (std::size_t at = 0; at <= v.size();) {
        auto comma = v.find(',', at);
        list.push_back(v.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
        if (comma == std::string::npos) break;
        at = comma + 1;
      }
    }
  auto has = [&](const std::string& s) { return std::find(list.begin(), list.end(), s) != list.end(); };
  std::vector<std::string> args = {"template", "capstan", chart_dir(), "-n", "capstan-system", "--show-only", "templates/serviceaccount.yaml",
                                   "--show-only", "templates/rbac.yaml"};
  // Every controller the chart knows (values.yaml), on as --controllers says: '*' takes the
  // chart's default, which is the controller's own.
  bool gitops = false;
  std::ifstream in(chart_dir() + "/values.yaml");
  std::string values((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const json::Value chart_values = json::from_yaml_documents(values, "values.yaml").at(0);
  for (const auto& kv : *json::get_object(chart_values, {"controllers"})) {
    std::string c(kv.key());
    bool on = has(c) || ((list.empty() || has("*")) && json::get_bool(kv.value(), {"enabled"}) && !has("-" + c));
    args.insert(args.end(), {"--set", "controllers." + c + ".enabled=" + (on ? "true" : "false")});
    gitops |= on && c == "gitops";
  }
  if (gitops) args.insert(args.end(), {"--show-only", "templates/gitops-applier.yaml"});
  std::string rbac = Helm(*dir_).ok(args);
  kubectl_->ok({"create", "namespace", "capstan-system"});
  kubectl_->ok({"apply", "-f", "-"}, rbac);
  return service_account_kubeconfig(*kubectl_, server_->kubeconfig(), "capstan-system", "capstan-manager",
                                    dir_->file("capstan-manager.kubeconfig"));
}

void ControllerFixture::TearDown() {
  if (HasFailure()) {
    if (manager_) std::cerr << "---- manager log ----\n" << manager_->logs() << "\n";
    if (server_) std::cerr << "---- cluster logs ----\n" << server_->logs() << "\n";
    if (kubectl_ && !setup_.dump.empty())
      std::cerr << "---- " << setup_.dump << " ----\n" << (*kubectl_)({"get", setup_.dump, "-A", "-o", "yaml"}).out << "\n";
  }
  if (manager_) manager_->stop();
  proxy_.reset();
}

std::string ControllerFixture::condition(const std::string& resource, const std::string& name, const std::string& ns,
                                         const std::string& type, const std::string& field) {
  return get({"get", resource, name, "-n", ns, "-o", "jsonpath={.status.conditions[?(@.type==\"" + type + "\")]." + field + "}"});
}

void ControllerFixture::register_webhooks(std::initializer_list<WebhookConfigurations> apis) {
  ASSERT_TRUE(eventually([&] { return http_get(manager_->health_port(), "/readyz").first == 200; }, std::chrono::seconds(60)))
      << "manager not ready";
  webhook::Endpoint ep{"https://127.0.0.1:" + std::to_string(manager_->webhook_port()), "", "", manager_->ca_pem(), "capstan-system"};
  std::string docs;
  for (auto* configurations : apis)
    for (const auto& cfg : configurations(ep)) docs += json::to_yaml(cfg) + "---\n";
  kubectl_->ok({"apply", "-f", "-"}, docs);
}

}  // namespace capstan::e2e
