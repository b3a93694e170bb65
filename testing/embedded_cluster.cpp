#include "testing/embedded_cluster.h"

#include "testing/workload_simulator.h"
#include "runtime/client/client.h"
#include "runtime/client/config.h"

#include <filesystem>
#include <iostream>
#include <regex>
#include <thread>

namespace capstan::e2e {
using namespace std::chrono_literals;

EmbeddedCluster::EmbeddedCluster(const TempDir& dir, ClusterOptions options, std::vector<std::string> extra_args)
    : dir_(dir.path()), opts_(std::move(options)), extra_args_(std::move(extra_args)) {
  kubeconfig_ = dir_ + "/kubeconfig";
}

EmbeddedCluster::~EmbeddedCluster() { stop(); }

void EmbeddedCluster::start() {
  start_server();
  if (opts_.simulate_workloads) simulator_ = start_workload_simulator(dir_, kubeconfig_, opts_.pod_ready_delay);
}

void EmbeddedCluster::start_server() {
  // A restart reuses the port; right after the old process exits the port may still be
  // held briefly, so a failed bind is retried for a few seconds.
  for (int attempt = 0;; ++attempt) {
    std::filesystem::remove(kubeconfig_);
    Process::Options po;
    po.args = {capstan_bin(), "apiserver", "--listen", "127.0.0.1:" + std::to_string(port_), "--kubeconfig-out", kubeconfig_};
    if (!opts_.data_dir.empty()) {
      po.args.push_back("--data-dir");
      po.args.push_back(opts_.data_dir);
    }
    for (const auto& a : extra_args_) po.args.push_back(a);
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
        20s);
    if (up && proc_->running()) return;
    std::string log = read_file(po.stderr_path);
    if (port_ != 0 && attempt < 20 && log.find("Address already in use") != std::string::npos) {
      std::this_thread::sleep_for(250ms);
      continue;
    }
    // Seen twice under full parallel load, only on restarts: a server that printed nothing at
    // all for 20 s (not even its first log line). Not understood yet; reported, then retried.
    if (!up && attempt < 2) {
      std::cerr << "capstan apiserver (pid " << proc_->pid() << ") printed nothing in 20 s; stdout: \"" << read_file(po.stdout_path)
                << "\" stderr: \"" << log << "\"; killing it and starting again" << std::endl;
      proc_->kill_now();
      continue;
    }
    throw std::runtime_error("capstan apiserver did not start (" + std::string(up ? "exited" : "timed out") + "): " + log);
  }
}

void EmbeddedCluster::stop() {
  if (simulator_) simulator_->stop(10s);
  if (proc_) proc_->stop(10s);
}

void EmbeddedCluster::restart() {
  if (proc_) proc_->stop(10s);
  start_server();
}

void EmbeddedCluster::kill_and_restart() {
  kill();
  start_server();
}

void EmbeddedCluster::kill() {
  if (proc_) proc_->kill_now();
}

void EmbeddedCluster::compact() {
  client::Client c(client::load_kubeconfig(kubeconfig_));
  c.raw("POST", "/debug/capstan/compact", "", "application/json");
}

int EmbeddedCluster::pid() const { return proc_ ? proc_->pid() : 0; }

bool EmbeddedCluster::running() { return proc_ && proc_->running(); }

std::string EmbeddedCluster::logs() const {
  std::string out = read_file(dir_ + "/apiserver.log");
  if (opts_.simulate_workloads) out += "\n---- workload simulator ----\n" + read_file(dir_ + "/simulator.log");
  return out;
}

}  // namespace capstan::e2e
