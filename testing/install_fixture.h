// Installing Capstan as users do (Helm, kustomize) and running the manager as the installed
// Deployment would run: there is no kubelet, so the manager is a local process started with
// the Deployment's own flags (read back from the API), a token of the Deployment's
// ServiceAccount (TokenRequest, `kubectl create token`: RBAC decides what it may do) and the
// certificate of the webhook Secret the Deployment mounts, serving its webhooks on a free
// loopback port that the webhook configurations reach by URL (the chart's webhook.url.host).
// The workload simulator stands in for the kubelet for the controllers' own workloads.
//
//   class HelmInstallE2E : public InstallFixture {};
//   TEST_P(HelmInstallE2E, ...) { helm_->ok({"install", ...}); start_manager(); ... }
//   CAPSTAN_E2E_BACKENDS(HelmInstallE2E);
#pragma once

#include "testing/git.h"
#include "testing/helm.h"
#include "testing/kubectl.h"
#include "testing/manager_process.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace capstan::e2e {

inline constexpr const char* kCapstanNamespace = "capstan-system";
// The Deployment, ServiceAccount and ClusterRole the chart and config/default install.
inline constexpr const char* kCapstanManager = "capstan-manager";
inline constexpr const char* kWebhookSecret = "capstan-webhook-server-cert";

class InstallFixture : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override;
  void TearDown() override;
  Backend backend() const { return GetParam(); }

  // "127.0.0.1:PORT": where the manager serves its webhooks.
  std::string webhook_host() const { return "127.0.0.1:" + std::to_string(webhook_port_); }
  // Starts (or restarts) the manager as Deployment capstan-manager now says, plus `extra`
  // flags; `tag` names its log file.
  void start_manager(const std::string& tag, const std::vector<std::string>& extra = {});
  void stop_manager();
  // The Deployment's manager flags, less the listen addresses, certificate directory and
  // storage path a local process gets its own of.
  std::vector<std::string> deployment_flags();
  // A kubeconfig holding a TokenRequest token of the manager's ServiceAccount.
  std::string service_account_kubeconfig();

  std::string get(const std::vector<std::string>& args) { return (*kubectl_)(args).out; }
  std::string condition(const std::string& resource, const std::string& name, const std::string& ns, const std::string& type);
  // Applies config/samples/<file>.
  void apply_sample(const std::string& file);
  // Waits (bounded) for the samples of a controller to be Ready: certificates, monitoring, kafka.
  bool sample_ready(const std::string& controller, std::chrono::seconds timeout);
  // The webhook configurations' caBundles and the webhook Secret's data, to compare across
  // upgrades.
  std::string webhook_identity();
  // Whether every webhook of every Capstan webhook configuration (validating and mutating)
  // carries a caBundle: the manager's CA is injected everywhere, one configuration after another.
  bool every_webhook_has_a_ca();
  // The certificates validating webhook answers through the caBundle: a 30-minute Certificate is
  // refused by it, naming the field.
  void expect_webhook_refuses_a_short_certificate();
  // Serves a Git repository (branch main) holding `files` (path -> text) from a git daemon on a
  // free port, for the gitops controller: its git:// URL.
  std::string serve_repository(const std::map<std::string, std::string>& files);

  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<Cluster> server_;
  std::unique_ptr<Kubectl> kubectl_;
  std::unique_ptr<Helm> helm_;
  std::unique_ptr<ManagerProcess> manager_;
  std::unique_ptr<Kubectl> as_manager_;  // kubectl with the manager's token (after start_manager)
  std::uint16_t webhook_port_ = 0;
  std::unique_ptr<GitDaemon> git_daemon_;
};

}  // namespace capstan::e2e
