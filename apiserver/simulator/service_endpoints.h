// What the endpoints controllers share: an index of Services' selectors (so pod events can
// be mapped to the Services selecting them without a request from the watch callback), and the per-pod endpoint of a Service (address, readiness, hostname, ports
// resolved from targetPort numbers or named container ports).
#pragma once

#include "apiserver/simulator/api.h"
#include "apiserver/simulator/loop.h"
#include "runtime/meta/selector.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace capstan::simulator {

class ServiceIndex {
 public:
  // Feed with every event of "services"; returns the Service's own key.
  std::vector<Key> observe(const Event& e);
  // Keys of the Services whose selector matches the pod before or after the event.
  std::vector<Key> services_for_pod(const Event& e) const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::map<std::string, meta::LabelSelector>, std::less<>> by_ns_;
};

// spec.selector of a Service as a label selector; nullopt when it has none (then the
// endpoints are the user's to manage).
std::optional<meta::LabelSelector> service_selector(const json::Value& svc);

struct EndpointPort {
  std::string name;
  std::int64_t port = 0;
  std::string protocol;
  std::string app_protocol;
  json::Value to_json() const;
};

struct PodEndpoint {
  std::string ip;
  std::string node;
  std::string hostname;
  std::string pod_name;
  std::string pod_uid;
  std::string ns;
  bool ready = false;        // Endpoints: addresses vs notReadyAddresses; slices: conditions.ready
  bool serving = false;
  bool terminating = false;
  std::vector<EndpointPort> ports;  // the Service's ports this pod serves (targetPort resolved)
  std::string ports_key;            // ports as canonical text, for grouping
};

// The endpoints of `svc` among `pods` (those it selects). `include_terminating` keeps pods
// being deleted (EndpointSlices do; Endpoints only with publishNotReadyAddresses).
std::vector<PodEndpoint> service_endpoints(const json::Value& svc, const std::vector<Object>& pods,
                                           bool include_terminating);

// The pods of `ns` that `selector` (a Service's) selects, read through `api`.
std::vector<Object> selected_pods(Api& api, const std::string& ns, const meta::LabelSelector& selector);

// Labels for Endpoints/EndpointSlices of `svc`: the Service's labels plus
// service.kubernetes.io/headless for clusterIP None.
json::Object endpoint_labels(const json::Value& svc);

}  // namespace capstan::simulator
