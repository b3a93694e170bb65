// The EndpointSlice controller: for every Service with a selector, EndpointSlices
// (generateName "<svc>-", addressType IPv4, labels kubernetes.io/service-name and
// endpointslice.kubernetes.io/managed-by, a controller reference to the Service) whose
// endpoints carry conditions ready / serving / terminating, hostname, nodeName and a
// targetRef; one slice per distinct port set, at most 100 endpoints each; an empty
// placeholder slice when nothing is selected. Removed with the Service.
#pragma once

#include "apiserver/rest/service.h"
#include "apiserver/system/loop.h"
#include "apiserver/system/workloads/service_endpoints.h"
#include "apiserver/system/workloads/writer.h"

namespace capstan::apiserver::system::workloads {

inline constexpr std::string_view kServiceNameLabel = "kubernetes.io/service-name";
inline constexpr std::string_view kManagedByLabel = "endpointslice.kubernetes.io/managed-by";
inline constexpr std::string_view kSliceControllerName = "endpointslice-controller.k8s.io";

class EndpointSliceController {
 public:
  explicit EndpointSliceController(rest::Service& service);
  void start();
  void stop() { loop_.stop(); }

 private:
  std::chrono::milliseconds reconcile(const Key& k);
  std::vector<storage::Object> managed_slices(const std::string& ns, const std::string& service) const;

  rest::Service& service_;
  Writer writer_;
  ServiceIndex index_;
  Loop loop_;
};

}  // namespace capstan::apiserver::system::workloads
