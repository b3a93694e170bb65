// The pinned Helm (scripts/tools.sh builds it into .tools/bin/helm) pointed at a test's
// cluster, with its cache, config and data homes in the test's directory.
#pragma once

#include "testing/process.h"

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace capstan::e2e {

// tools_bin_dir()/helm.
std::string helm_bin();
// The chart in the checkout under test: source_dir()/charts/capstan.
std::string chart_dir();

class Helm {
 public:
  // An empty kubeconfig is for commands that need no cluster (lint, template).
  Helm(const TempDir& dir, std::string kubeconfig = {});
  RunResult operator()(const std::vector<std::string>& args, std::chrono::milliseconds timeout = std::chrono::seconds(180)) const;
  // Runs and requires exit code 0 (gtest failure otherwise); returns stdout.
  std::string ok(const std::vector<std::string>& args) const;

 private:
  std::map<std::string, std::string> env_;
};

}  // namespace capstan::e2e
