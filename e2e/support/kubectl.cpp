#include "e2e/support/kubectl.h"

#include <filesystem>
#include <iostream>

namespace capstan::e2e {

Kubectl::Kubectl(const TempDir& dir, std::string kubeconfig) : home_(dir.path() + "/home"), kubeconfig_(std::move(kubeconfig)) {
  std::filesystem::create_directories(home_);
}

std::map<std::string, std::string> Kubectl::env() const { return {{"KUBECONFIG", kubeconfig_}, {"HOME", home_}}; }

RunResult Kubectl::operator()(const std::vector<std::string>& args, const std::string& stdin_text,
                              std::chrono::milliseconds timeout) const {
  std::vector<std::string> full = {"/usr/bin/kubectl"};
  full.insert(full.end(), args.begin(), args.end());
  return run(full, env(), stdin_text, timeout);
}

std::string Kubectl::ok(const std::vector<std::string>& args, const std::string& stdin_text) const {
  auto r = (*this)(args, stdin_text);
  std::string cmd;
  for (const auto& a : args) cmd += " " + a;
  EXPECT_EQ(r.code, 0) << "kubectl" << cmd << "\nstdout: " << r.out << "\nstderr: " << r.err;
  return r.out;
}

void KubectlFixture::SetUp() {
  dir_ = std::make_unique<TempDir>(dir_name_ + "-" + to_string(backend()));
  server_ = make_cluster(backend(), *dir_, options_);
  server_->start();
  kubectl_ = std::make_unique<Kubectl>(*dir_, server_->kubeconfig());
}

void KubectlFixture::TearDown() {
  if (HasFailure() && server_) std::cerr << "apiserver log:\n" << server_->logs() << std::endl;
  server_.reset();
}

}  // namespace capstan::e2e
