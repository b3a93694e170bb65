// A `capstan apiserver` child process on a free port with its own kubeconfig, and a kubectl
// runner pointed at it (with a private HOME so kubectl's caches never leak between tests).
#pragma once

#include "e2e/support/process.h"

#include <memory>
#include <string>
#include <vector>

namespace capstan::e2e {

// The capstan binary under test ($CAPSTAN_BIN, set by CTest).
std::string capstan_bin();
// The repository root ($CAPSTAN_SOURCE_DIR).
std::string source_dir();

class ApiServerProcess {
 public:
  struct Options {
    std::string data_dir;                 // durable store when set
    std::vector<std::string> extra_args;  // e.g. --simulate-workloads
    std::uint16_t port = 0;               // 0 = free port
  };
  ApiServerProcess(const TempDir& dir, Options o);
  ~ApiServerProcess();

  void start();                  // waits until /readyz answers (bounded)
  void stop();                   // SIGTERM
  void kill();                   // SIGKILL
  void restart();                // same port and data dir
  bool running();
  const std::string& kubeconfig() const { return kubeconfig_; }
  std::string url() const;
  std::uint16_t port() const { return port_; }
  std::string logs() const;

 private:
  std::string dir_;
  Options opts_;
  std::string kubeconfig_;
  std::uint16_t port_ = 0;
  std::unique_ptr<Process> proc_;
};

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

}  // namespace capstan::e2e
