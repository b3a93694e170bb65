#include "e2e/support/cluster.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <thread>

namespace capstan::e2e {

std::string capstan_bin() {
  const char* b = std::getenv("CAPSTAN_BIN");
  return b ? b : "build/bin/capstan";
}

std::string source_dir() {
  const char* s = std::getenv("CAPSTAN_SOURCE_DIR");
  return s ? s : ".";
}

ApiServerProcess::ApiServerProcess(const TempDir& dir, Options o) : dir_(dir.path()), opts_(std::move(o)) {
  kubeconfig_ = dir_ + "/kubeconfig";
  port_ = opts_.port;
}

ApiServerProcess::~ApiServerProcess() {
  if (proc_) proc_->stop(std::chrono::seconds(10));
}

void ApiServerProcess::start() {
  std::filesystem::remove(kubeconfig_);
  Process::Options po;
  po.args = {capstan_bin(), "apiserver", "--listen", "127.0.0.1:" + std::to_string(port_), "--kubeconfig-out", kubeconfig_};
  if (!opts_.data_dir.empty()) {
    po.args.push_back("--data-dir");
    po.args.push_back(opts_.data_dir);
  }
  for (const auto& a : opts_.extra_args) po.args.push_back(a);
  po.stdout_path = dir_ + "/apiserver.out";
  po.stderr_path = dir_ + "/apiserver.log";
  proc_ = std::make_unique<Process>(po);
  bool up = eventually(
      [&] {
        if (!proc_->running()) return true;
        auto out = read_file(po.stdout_path);
        std::smatch m;
        static const std::regex re("serving on https://127\\.0\\.0\\.1:([0-9]+)");
        if (std::regex_search(out, m, re) && std::filesystem::exists(kubeconfig_)) {
          port_ = static_cast<std::uint16_t>(std::stoi(m[1]));
          return true;
        }
        return false;
      },
      std::chrono::seconds(20));
  if (!up || !proc_->running()) {
    throw std::runtime_error("capstan apiserver did not start: " + read_file(po.stderr_path));
  }
}

void ApiServerProcess::stop() {
  if (proc_) proc_->stop(std::chrono::seconds(10));
}

void ApiServerProcess::kill() {
  if (proc_) proc_->kill_now();
}

void ApiServerProcess::restart() {
  stop();
  start();
}

bool ApiServerProcess::running() { return proc_ && proc_->running(); }

std::string ApiServerProcess::url() const { return "https://127.0.0.1:" + std::to_string(port_); }

std::string ApiServerProcess::logs() const { return read_file(dir_ + "/apiserver.log"); }

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

}  // namespace capstan::e2e
