// The endpoints controller: for every Service with a selector, an Endpoints object of the
// same name whose subsets hold the selected pods' IPs (ready ones in addresses, others in
// notReadyAddresses; all in addresses with publishNotReadyAddresses), grouped by the ports
// each pod serves (targetPort numbers or named container ports), with hostname for pods
// whose subdomain names the Service. Removed with the Service.
#pragma once

#include "apiserver/simulator/api.h"
#include "apiserver/simulator/loop.h"
#include "apiserver/simulator/service_endpoints.h"

namespace capstan::simulator {

// The subsets of a Service's Endpoints object for the given pod endpoints.
json::Array endpoint_subsets(const json::Value& svc, const std::vector<PodEndpoint>& eps);

class EndpointsController {
 public:
  EndpointsController(client::Client& client, Watches& watches);
  void start();
  void stop() { loop_.stop(); }

 private:
  std::chrono::milliseconds reconcile(const Key& k);
  Api api_;
  ServiceIndex index_;
  Loop loop_;
};

}  // namespace capstan::simulator
