// The real kubectl pointed at a test's cluster, with a private HOME so kubectl's caches never
// leak between tests, and a fixture giving each test its own cluster of the test's backend.
#pragma once

#include "testing/cluster.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace capstan::e2e {

class Kubectl {
 public:
  Kubectl(const TempDir& dir, std::string kubeconfig);
  RunResult operator()(const std::vector<std::string>& args, const std::string& stdin_text = {},
                       std::chrono::milliseconds timeout = std::chrono::seconds(60)) const;
  // Runs and requires exit code 0 (gtest failure otherwise); returns stdout.
  std::string ok(const std::vector<std::string>& args, const std::string& stdin_text = {}) const;
  std::map<std::string, std::string> env() const;

 private:
  std::string home_;
  std::string kubeconfig_;
};

// A kubeconfig file at `path` for ServiceAccount `ns`/`name`: the cluster (server, CA) of
// `admin_kubeconfig` and a TokenRequest token (`kubectl create token`, 2 hours) as the user.
// RBAC then decides what a client of it may do, as for a pod of that account.
std::string service_account_kubeconfig(const Kubectl& admin, const std::string& admin_kubeconfig, const std::string& ns,
                                       const std::string& name, const std::string& path);

// A test with its own cluster of the parameter's backend and a kubectl pointed at it; the
// server's log is printed when the test fails.
class KubectlFixture : public ::testing::TestWithParam<Backend> {
 protected:
  explicit KubectlFixture(std::string dir_name, ClusterOptions options = {})
      : dir_name_(std::move(dir_name)), options_(std::move(options)) {}
  void SetUp() override;
  void TearDown() override;
  const Kubectl& k() { return *kubectl_; }
  Backend backend() const { return GetParam(); }

  std::string dir_name_;
  ClusterOptions options_;
  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<Cluster> server_;
  std::unique_ptr<Kubectl> kubectl_;
};

}  // namespace capstan::e2e
