// `capstan apiserver` as a test's cluster: one child process on a free loopback port, its
// admin kubeconfig written by the server, a durable store when ClusterOptions::data_dir is
// set, and (with simulate_workloads) `capstan simulate-workloads` beside it.
#pragma once

#include "testing/cluster.h"

#include <memory>
#include <string>
#include <vector>

namespace capstan::e2e {

class EmbeddedCluster : public Cluster {
 public:
  EmbeddedCluster(const TempDir& dir, ClusterOptions options, std::vector<std::string> extra_args = {});
  ~EmbeddedCluster() override;

  Backend backend() const override { return Backend::Embedded; }
  void start() override;
  void stop() override;
  void restart() override;
  void kill_and_restart() override;
  void kill() override;
  void compact() override;
  int pid() const override;
  bool running() override;
  std::string logs() const override;

 private:
  void start_server();

  std::string dir_;
  ClusterOptions opts_;
  std::vector<std::string> extra_args_;
  std::unique_ptr<Process> proc_, simulator_;
};

}  // namespace capstan::e2e
