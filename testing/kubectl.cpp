#include "testing/kubectl.h"

#include "runtime/json/json.h"
#include "runtime/json/yaml.h"

#include <filesystem>
#include <iostream>

namespace capstan::e2e {

Kubectl::Kubectl(const TempDir& dir, std::string kubeconfig) : home_(dir.file("home")), kubeconfig_(std::move(kubeconfig)) {
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

std::string service_account_kubeconfig(const Kubectl& admin, const std::string& admin_kubeconfig, const std::string& ns,
                                       const std::string& name, const std::string& path) {
  auto token = admin({"create", "token", name, "-n", ns, "--duration=2h"});
  EXPECT_EQ(token.code, 0) << token.err;
  while (!token.out.empty() && (token.out.back() == '\n' || token.out.back() == ' ')) token.out.pop_back();
  json::Value cfg = json::from_yaml(read_file(admin_kubeconfig), "kubeconfig");
  std::string cluster;
  const auto* contexts = json::get_array(cfg, {"contexts"});
  if (contexts && !contexts->empty()) cluster = json::get_string((*contexts)[0], {"context", "cluster"});
  auto& o = cfg.as_object();
  o["users"] = json::Array{json::Object{{"name", name}, {"user", json::Object{{"token", token.out}}}}};
  o["contexts"] = json::Array{json::Object{{"name", name}, {"context", json::Object{{"cluster", cluster}, {"user", name}}}}};
  o["current-context"] = name;
  write_file(path, json::serialize(cfg));
  return path;
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
