#include "testing/install_fixture.h"

#include "runtime/json/json.h"
#include "runtime/json/yaml.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace capstan::e2e {

void InstallFixture::SetUp() {
  dir_ = std::make_unique<TempDir>("install-" + to_string(backend()));
  ClusterOptions so;
  so.simulate_workloads = true;  // the controllers' StatefulSets and Pods turn Ready
  server_ = make_cluster(backend(), *dir_, so);
  server_->start();
  kubectl_ = std::make_unique<Kubectl>(*dir_, server_->kubeconfig());
  helm_ = std::make_unique<Helm>(*dir_, server_->kubeconfig());
  webhook_port_ = free_port();
}

void InstallFixture::TearDown() {
  if (HasFailure()) {
    if (manager_) std::cerr << "---- manager log ----\n" << manager_->logs() << "\n";
    if (server_) std::cerr << "---- cluster logs ----\n" << server_->logs() << "\n";
    for (const char* r : {"certificates", "clusterissuers", "issuers", "prometheuses", "kafkas", "statefulsets", "pods"})
      std::cerr << "---- " << r << " ----\n" << get({"get", r, "-A", "-o", "yaml"}) << "\n";
  }
  stop_manager();
  if (git_daemon_) git_daemon_->stop();
}

std::string InstallFixture::service_account_kubeconfig() {
  return e2e::service_account_kubeconfig(*kubectl_, server_->kubeconfig(), kCapstanNamespace, kCapstanManager,
                                         dir_->file("capstan-manager.kubeconfig"));
}

std::vector<std::string> InstallFixture::deployment_flags() {
  std::string args = get({"get", "deployment", kCapstanManager, "-n", kCapstanNamespace, "-o",
                          "jsonpath={.spec.template.spec.containers[0].args}"});
  EXPECT_FALSE(args.empty()) << "no Deployment " << kCapstanManager;
  std::vector<std::string> out;
  if (args.empty()) return out;
  json::Value parsed = json::parse(args, "Deployment args");
  for (const auto& a : parsed.as_array()) {
    std::string flag(a.as_string());
    bool local = false;
    for (const char* own : {"--metrics-bind-address=", "--health-probe-bind-address=", "--webhook-port=", "--webhook-cert-dir=",
                            "--acme-http01-solver-port=", "--gitops-storage-path=", "--gitops-storage-addr="})
      local |= flag.rfind(own, 0) == 0;
    if (local) {
      if (flag.rfind("--gitops-storage-path=", 0) == 0) out.push_back("--gitops-storage-path=" + dir_->file("gitops"));
      // The chart's fixed artifact port would clash between managers run side by side.
      if (flag.rfind("--gitops-storage-addr=", 0) == 0 && flag != "--gitops-storage-addr=0") out.push_back("--gitops-storage-addr=127.0.0.1:0");
      continue;
    }
    out.push_back(flag);
  }
  return out;
}

void InstallFixture::start_manager(const std::string& tag, const std::vector<std::string>& extra) {
  stop_manager();
  std::string kubeconfig = service_account_kubeconfig();
  as_manager_ = std::make_unique<Kubectl>(*dir_, kubeconfig);
  auto flags = deployment_flags();
  flags.insert(flags.end(), extra.begin(), extra.end());
  manager_ = std::make_unique<ManagerProcess>(*dir_, kubeconfig, flags, tag);
  manager_->set_webhook_port(webhook_port_);
  manager_->set_env({{"POD_NAMESPACE", kCapstanNamespace}});  // the Deployment's downward API
  // What the kubelet mounts from the Secret the Deployment names; a manager that keeps its
  // certificate itself (--webhook-cert-secret) gets an empty directory and writes it there.
  std::string secret = get({"get", "deployment", kCapstanManager, "-n", kCapstanNamespace, "-o",
                            "jsonpath={.spec.template.spec.volumes[?(@.name==\"webhook-cert\")].secret.secretName}"});
  bool self_managed = std::any_of(flags.begin(), flags.end(), [](const std::string& f) { return f.rfind("--webhook-cert-secret=", 0) == 0; });
  ASSERT_TRUE(self_managed || !secret.empty()) << "the Deployment mounts no webhook Secret and does not make one";
  for (std::string key : {"tls.crt", "tls.key"}) {
    if (secret.empty()) break;
    std::string b64 = get({"get", "secret", secret, "-n", kCapstanNamespace, "-o", "jsonpath={.data.tls\\." + key.substr(4) + "}"});
    ASSERT_FALSE(b64.empty()) << "Secret " << secret << " has no " << key;
    auto decoded = run({"base64", "-d"}, {}, b64);
    ASSERT_EQ(decoded.code, 0);
    write_file(manager_->cert_dir() + "/" + key, decoded.out);
  }
  manager_->start();
}

void InstallFixture::stop_manager() {
  if (manager_) manager_->stop();
}

std::string InstallFixture::condition(const std::string& resource, const std::string& name, const std::string& ns,
                                      const std::string& type) {
  return get({"get", resource, name, "-n", ns, "-o", "jsonpath={.status.conditions[?(@.type==\"" + type + "\")].status}"});
}

void InstallFixture::apply_sample(const std::string& file) {
  kubectl_->ok({"apply", "-f", source_dir() + "/config/samples/" + file});
}

bool InstallFixture::sample_ready(const std::string& controller, std::chrono::seconds timeout) {
  return eventually(
      [&] {
        if (controller == "certificates")
          return condition("certificate", "example-ca", "default", "Ready") == "True" &&
                 condition("certificate", "web", "default", "Ready") == "True";
        if (controller == "monitoring")
          return condition("prometheus", "main", "default", "Available") == "True" &&
                 condition("alertmanager", "main", "default", "Available") == "True";
        if (controller == "kafka") return condition("kafka", "events", "default", "Ready") == "True";
        return false;
      },
      timeout, std::chrono::milliseconds(200));
}

std::string InstallFixture::serve_repository(const std::map<std::string, std::string>& files) {
  std::filesystem::create_directories(dir_->file("git"));
  GitRepo repo(dir_->file("git"), "app");
  for (const auto& [path, text] : files) repo.write(path, text);
  repo.commit("manifests");
  git_daemon_ = std::make_unique<GitDaemon>(dir_->file("git"));
  git_daemon_->start();
  return git_daemon_->url("app");
}

void InstallFixture::expect_webhook_refuses_a_short_certificate() {
  auto bad = (*kubectl_)({"apply", "-f", "-"}, R"(apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: too-short, namespace: default}
spec: {secretName: too-short, dnsNames: [short.example.com], duration: 30m, issuerRef: {name: example-ca}}
)");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("admission webhook \"vcertificate.certs.capstan.dev\" denied the request: spec.duration"), std::string::npos)
      << bad.err;
}

bool InstallFixture::every_webhook_has_a_ca() {
  for (const char* kind : {"validatingwebhookconfigurations", "mutatingwebhookconfigurations"}) {
    const std::string out = get({"get", kind, "-l", "app.kubernetes.io/name=capstan", "-o", "json"});
    if (out.empty()) return false;
    const json::Value list = json::parse(out);
    const json::Array* items = json::get_array(list, {"items"});
    if (!items || items->empty()) return false;
    for (const auto& config : *items)
      if (const json::Array* hooks = json::get_array(config, {"webhooks"}))
        for (const auto& hook : *hooks)
          if (json::get_string(hook, {"clientConfig", "caBundle"}).empty()) return false;
  }
  return true;
}

std::string InstallFixture::webhook_identity() {
  std::string out = get({"get", "secret", kWebhookSecret, "-n", kCapstanNamespace, "-o", "jsonpath={.data}"});
  for (const char* kind : {"validatingwebhookconfigurations", "mutatingwebhookconfigurations"}) {
    out += '\n';
    out += get({"get", kind, "-l", "app.kubernetes.io/name=capstan", "-o",
                "jsonpath={range .items[*]}{.metadata.name}:{range .webhooks[*]}{.clientConfig.caBundle} {end}{end}"});
  }
  return out;
}

}  // namespace capstan::e2e
