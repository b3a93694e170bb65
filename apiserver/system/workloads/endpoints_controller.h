// The endpoints controller: for every Service with a selector, an Endpoints object of the
// same name whose subsets hold the selected pods' IPs (ready ones in addresses, others in
// notReadyAddresses; all in addresses with publishNotReadyAddresses), grouped by the ports
// each pod serves (targetPort numbers or named container ports), with hostname for pods
// whose subdomain names the Service. Removed with the Service.
#pragma once

#include "apiserver/rest/service.h"
#include "apiserver/system/loop.h"
#include "apiserver/system/workloads/service_endpoints.h"
#include "apiserver/system/workloads/writer.h"

namespace capstan::apiserver::system::workloads {

// The subsets of a Service's Endpoints object for the given pod endpoints.
json::Array endpoint_subsets(const json::Value& svc, const std::vector<PodEndpoint>& eps);

class EndpointsController {
 public:
  explicit EndpointsController(rest::Service& service);
  void start();
  void stop() { loop_.stop(); }

 private:
  std::chrono::milliseconds reconcile(const Key& k);
  rest::Service& service_;
  Writer writer_;
  ServiceIndex index_;
  Loop loop_;
};

}  // namespace capstan::apiserver::system::workloads
