// The API server an end-to-end test talks to, on either backend (backend.h): `capstan
// apiserver`, or etcd + kube-apiserver + the parts of kube-controller-manager a control
// plane needs, each a child process on free loopback ports with its own kubeconfig (an admin
// identity), stopped by PID when the test ends. With simulate_workloads, `capstan
// simulate-workloads` runs beside it on either backend (Pods turn Ready, Endpoints follow,
// PVCs bind), standing in for the kubelet and kube-controller-manager's workload loops.
#pragma once

#include "testing/backend.h"
#include "testing/ports.h"
#include "testing/process.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace capstan::e2e {

// The capstan binary under test ($CAPSTAN_BIN, set by CTest).
std::string capstan_bin();
// The repository root ($CAPSTAN_SOURCE_DIR).
std::string source_dir();
// Where scripts/tools.sh put the pinned test tools ($CAPSTAN_TOOLS_DIR/bin, else .tools/bin).
std::string tools_bin_dir();

struct ClusterOptions {
  bool simulate_workloads = false;                   // a workload simulator beside the server
  std::chrono::milliseconds pod_ready_delay{100};    // how long a simulated container takes to be ready
  // compact() must make a watch from any older resourceVersion answer 410 Gone. kube-apiserver
  // answers resumes within its watch cache's window from the cache, which compaction does not
  // shorten: with this set it runs without one (--watch-cache=false), so every resume goes to
  // etcd. (Without it, a resourceVersion older than the cache's window still reaches etcd.)
  bool compactable_history = false;
  // Kube only: resources served without a watch cache (--watch-cache-sizes=RESOURCE#0), so a
  // resume from an old resourceVersion of theirs reaches etcd's history.
  std::vector<std::string> uncached_resources;
  // Embedded only: a durable store in this directory (etcd is always durable).
  std::string data_dir;
};

class Cluster {
 public:
  virtual ~Cluster() = default;
  virtual Backend backend() const = 0;

  // Starts every process and waits (bounded) until the API server is ready; throws with the
  // server's own output when it does not come up.
  virtual void start() = 0;
  // Stops every process (SIGTERM, then SIGKILL).
  virtual void stop() = 0;
  // The API server alone: SIGTERM (restart) or SIGKILL (kill_and_restart), then started again
  // on the same port with the same storage; other processes keep running and reconnect.
  virtual void restart() = 0;
  virtual void kill_and_restart() = 0;
  virtual void kill() = 0;  // the API server, SIGKILL, not started again
  // Compacts the storage's history up to now (see ClusterOptions::compactable_history).
  virtual void compact() = 0;
  virtual int pid() const = 0;  // the API server's PID (0 when none)
  virtual bool running() = 0;
  // The API server's log (and, on kube, a tail of etcd's and the controller manager's).
  virtual std::string logs() const = 0;

  const std::string& kubeconfig() const { return kubeconfig_; }
  std::string url() const { return "https://127.0.0.1:" + std::to_string(port_); }
  std::uint16_t port() const { return port_; }

 protected:
  std::string kubeconfig_;
  std::uint16_t port_ = 0;
};

std::unique_ptr<Cluster> make_cluster(Backend backend, const TempDir& dir, ClusterOptions options = {});

// GET http://127.0.0.1:PORT/PATH (plain HTTP): status and body; status 0 when unreachable.
std::pair<int, std::string> http_get(std::uint16_t port, const std::string& path);
// The same with any method and a JSON body.
std::pair<int, std::string> http_request(std::uint16_t port, const std::string& method, const std::string& path,
                                         const std::string& body);

}  // namespace capstan::e2e
