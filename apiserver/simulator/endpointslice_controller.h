// The EndpointSlice controller: for every Service with a selector, EndpointSlices
// (generateName "<svc>-", addressType IPv4, labels kubernetes.io/service-name and
// endpointslice.kubernetes.io/managed-by, a controller reference to the Service) whose
// endpoints carry conditions ready / serving / terminating, hostname, nodeName and a
// targetRef; one slice per distinct port set, at most 100 endpoints each; an empty
// placeholder slice when nothing is selected. Removed with the Service.
#pragma once

#include "apiserver/simulator/api.h"
#include "apiserver/simulator/loop.h"
#include "apiserver/simulator/service_endpoints.h"

namespace capstan::simulator {

inline constexpr std::string_view kServiceNameLabel = "kubernetes.io/service-name";
inline constexpr std::string_view kManagedByLabel = "endpointslice.kubernetes.io/managed-by";
inline constexpr std::string_view kSliceControllerName = "endpointslice-controller.k8s.io";

class EndpointSliceController {
 public:
  EndpointSliceController(client::Client& client, Watches& watches);
  void start();
  void stop() { loop_.stop(); }

 private:
  std::chrono::milliseconds reconcile(const Key& k);
  std::vector<Object> managed_slices(const std::string& ns, const std::string& service);

  Api api_;
  ServiceIndex index_;
  Loop loop_;
};

}  // namespace capstan::simulator
