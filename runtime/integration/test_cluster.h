// Test support for runtime/leader, runtime/events and runtime/webhook: an in-process API
// server (apiserver::ApiServer, memory store) with an admin client, temporary directories and
// bounded polling.
#pragma once

#include "apiserver/server.h"
#include "runtime/client/client.h"
#include "runtime/metrics/registry.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace capstan::integration {

// A fresh directory under the system temp dir, removed with its contents on destruction.
class TempDir {
 public:
  explicit TempDir(std::string_view prefix = "capstan-test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // Writes `content` to path()/name (creating parent directories) and returns the full path.
  std::string write(const std::string& name, const std::string& content) const;

 private:
  std::filesystem::path path_;
};

// An ApiServer on 127.0.0.1:0 and an admin client for it.
class TestCluster {
 public:
  TestCluster();
  ~TestCluster();

  apiserver::ApiServer& server() { return *server_; }
  client::Client& client() { return *client_; }
  const client::Config& config() const { return config_; }
  // Another client for the same cluster (its own connection pool).
  std::unique_ptr<client::Client> new_client(client::ClientOptions options = {}) const;
  // POST /debug/capstan/faults: fail this fraction of API requests with 500.
  void set_fault_rate_500(double rate);

 private:
  TempDir dir_;
  std::unique_ptr<apiserver::ApiServer> server_;
  client::Config config_;
  std::unique_ptr<client::Client> client_;
};

// Polls `cond` every `poll` until it holds or `timeout` passes; returns its last value.
bool eventually(const std::function<bool()>& cond, std::chrono::milliseconds timeout,
                std::chrono::milliseconds poll = std::chrono::milliseconds(20));

// The sample of metric `name` with these label values, if any.
std::optional<metrics::SampleSnapshot> find_sample(const metrics::Registry& registry, std::string_view name,
                                                   const std::vector<std::string>& label_values);

}  // namespace capstan::integration
