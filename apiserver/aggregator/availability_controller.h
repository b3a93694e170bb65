// kube-aggregator's APIServiceAvailabilityController: status condition Available of every
// APIService. Local ones are always available; an aggregated one is available when its Service
// has a ready endpoint and answers GET /apis/<group>/<version> (the discovery check) with a
// 2xx. Re-checked when the APIService, its Service or its Endpoints change, every minute while
// available and every few seconds while not. The APIResourceList of the last passed check is
// kept for aggregated discovery.
#pragma once

#include "apiserver/aggregator/backend.h"
#include "apiserver/system/loop.h"

#include <chrono>
#include <map>
#include <mutex>
#include <optional>

namespace capstan::apiserver::aggregator {

struct AvailabilityOptions {
  std::chrono::milliseconds probe_timeout{5000};
  std::chrono::milliseconds recheck_available{60000};
  std::chrono::milliseconds recheck_unavailable{2000};
};

class AvailabilityController {
 public:
  AvailabilityController(storage::Store& store, Backends& backends, AvailabilityOptions options = {});
  void start();
  void stop() { loop_.stop(); }

  // The APIResourceList the APIService's backend answered its last passed check with.
  std::optional<json::Value> resource_list(const std::string& api_service) const;

 private:
  std::chrono::milliseconds reconcile(const system::Key& k);
  std::chrono::milliseconds check(const std::string& name);

  storage::Store& store_;
  Backends& backends_;
  AvailabilityOptions options_;
  mutable std::mutex mu_;
  std::map<std::string, json::Value> resource_lists_;
  system::Loop loop_;  // declared last: stopped before the rest goes away
};

}  // namespace capstan::apiserver::aggregator
