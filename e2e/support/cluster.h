// A `capstan apiserver` child process on a free port with its own kubeconfig, and a kubectl
// runner pointed at it (with a private HOME so kubectl's caches never leak between tests).
#pragma once

#include "e2e/support/process.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
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
  void restart();                // SIGTERM, then start on the same port and data dir
  void kill_and_restart();       // SIGKILL (no shutdown at all), then start on the same port and data dir
  int pid() const;               // the running server's PID (0 when none)
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

// A free loopback TCP port (bound, then released: another process may take it meanwhile,
// which the callers' retries tolerate).
std::uint16_t free_port();

// GET http://127.0.0.1:PORT/PATH (plain HTTP): status and body; status 0 when unreachable.
std::pair<int, std::string> http_get(std::uint16_t port, const std::string& path);

// A `capstan manager` child process with its metrics, health and webhook servers on free
// loopback ports and its webhook serving certificate in its own directory.
class ManagerProcess {
 public:
  ManagerProcess(const TempDir& dir, std::string kubeconfig, std::vector<std::string> extra_args = {}, std::string tag = "manager");
  ~ManagerProcess();
  void start();                 // waits until /healthz answers (bounded)
  int stop();                   // SIGTERM; returns the exit code
  void kill();                  // SIGKILL
  bool running();
  std::optional<int> wait(std::chrono::milliseconds t);
  int pid() const { return proc_ ? proc_->pid() : 0; }
  std::uint16_t metrics_port() const { return metrics_port_; }
  std::uint16_t health_port() const { return health_port_; }
  std::uint16_t webhook_port() const { return webhook_port_; }
  const std::string& cert_dir() const { return cert_dir_; }
  const std::string& ca_pem() const { return ca_pem_; }
  std::string metrics() const;  // the /metrics text ("" when unreachable)
  std::string logs() const;

 private:
  std::string dir_, kubeconfig_, tag_;
  std::vector<std::string> extra_;
  std::uint16_t metrics_port_ = 0, health_port_ = 0, webhook_port_ = 0;
  std::string cert_dir_, ca_pem_;
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

// A test with its own `capstan apiserver` and a kubectl pointed at it; the server's log is
// printed when the test fails.
class KubectlFixture : public ::testing::Test {
 protected:
  explicit KubectlFixture(std::string dir_name) : dir_name_(std::move(dir_name)) {}
  void SetUp() override {
    dir_ = std::make_unique<TempDir>(dir_name_);
    server_ = std::make_unique<ApiServerProcess>(*dir_, ApiServerProcess::Options{});
    server_->start();
    kubectl_ = std::make_unique<Kubectl>(*dir_, server_->kubeconfig());
  }
  void TearDown() override;
  const Kubectl& k() { return *kubectl_; }

  std::string dir_name_;
  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<ApiServerProcess> server_;
  std::unique_ptr<Kubectl> kubectl_;
};

}  // namespace capstan::e2e
