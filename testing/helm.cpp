#include "testing/helm.h"

#include "testing/cluster.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace capstan::e2e {

std::string helm_bin() { return tools_bin_dir() + "/helm"; }
std::string chart_dir() { return source_dir() + "/charts/capstan"; }

Helm::Helm(const TempDir& dir, std::string kubeconfig) {
  std::string home = dir.file("helm");
  for (const char* sub : {"cache", "config", "data"}) std::filesystem::create_directories(home + "/" + sub);
  env_ = {{"HELM_CACHE_HOME", home + "/cache"}, {"HELM_CONFIG_HOME", home + "/config"}, {"HELM_DATA_HOME", home + "/data"},
          {"HOME", home}};
  // Without a kubeconfig Helm must not fall back to the user's.
  env_["KUBECONFIG"] = kubeconfig.empty() ? home + "/no-kubeconfig" : kubeconfig;
}

RunResult Helm::operator()(const std::vector<std::string>& args, std::chrono::milliseconds timeout) const {
  std::vector<std::string> full = {helm_bin()};
  full.insert(full.end(), args.begin(), args.end());
  return run(full, env_, {}, timeout);
}

std::string Helm::ok(const std::vector<std::string>& args) const {
  auto r = (*this)(args);
  std::string cmd;
  for (const auto& a : args) cmd += " " + a;
  EXPECT_EQ(r.code, 0) << "helm" << cmd << "\nstdout: " << r.out << "\nstderr: " << r.err;
  return r.out;
}

}  // namespace capstan::e2e
