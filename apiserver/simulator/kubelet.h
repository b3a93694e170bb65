// The kubelet (and scheduler) stand-in: binds every unscheduled pod to the fake node
// (pods/binding, as kube-scheduler does; pods of other nodes are left alone), "starts" its
// containers (phase Running, a pod IP from 10.244.0.0/16, container statuses) and after
// the ready delay reports them ready (conditions PodScheduled, Initialized,
// ContainersReady, Ready; readiness gates honoured). Pods mounting a PersistentVolumeClaim
// wait, unscheduled, until it is Bound; pods mounting a Secret/ConfigMap volume that does not
// exist stay Pending in ContainerCreating, and those whose env refers to a missing Secret,
// ConfigMap or key in CreateContainerConfigError, until it appears (optional refs excepted).
// Pods being deleted have their containers terminated (phase Succeeded); a graceful deletion
// is then completed with a grace-period-0 delete, as the kubelet does.
#pragma once

#include "apiserver/simulator/api.h"
#include "apiserver/simulator/loop.h"
#include "apiserver/simulator/workload_options.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace capstan::simulator {

// Pod addresses out of 10.244.0.0/16 (skipping .0/.255 host parts), never handed out twice.
class IpPool {
 public:
  std::optional<std::string> allocate();
  void reserve(std::string_view ip);
  void release(std::string_view ip);

 private:
  std::set<std::uint32_t> used_;
  std::uint32_t next_ = 0;
};

// "nginx" -> "docker.io/library/nginx:latest", as the container runtime reports images.
std::string normalize_image(std::string_view image);

class Kubelet {
 public:
  Kubelet(client::Client& client, Watches& watches, const WorkloadOptions& options);
  void start();
  void stop() { loop_.stop(); }

 private:
  struct Running {
    std::string uid;
    std::string ip;
    std::chrono::steady_clock::time_point since;  // when the containers started
    std::string started_at;                       // the same, as RFC 3339
  };

  std::chrono::milliseconds reconcile(const Key& k);
  std::chrono::milliseconds sync_pod(const Key& k);
  void wake_pods_using_claim(const Key& claim);
  void wake_waiting_pods(const Key& dependency);
  struct Blocked {
    std::string reason;   // ContainerCreating | CreateContainerConfigError
    std::string message;
  };
  // What keeps the containers from starting (a missing Secret, ConfigMap or key), if anything.
  std::optional<Blocked> missing_dependency(const json::Value& pod);
  void forget(const std::string& key);
  Running& track(const std::string& key, const json::Value& pod);
  std::optional<std::string> unbound_claim(const json::Value& pod);
  std::chrono::milliseconds ready_delay(const json::Value& container) const;

  WorkloadOptions opts_;
  Api kubelet_;
  Api scheduler_;
  IpPool ips_;
  std::map<std::string, Running> running_;  // by ns/name; touched by the loop thread only
  Loop loop_;
};

}  // namespace capstan::simulator
