// Reading a Service and its Endpoints to find where to dial it, as kube-apiserver's service
// resolver does for webhooks and aggregated APIs (there is no cluster network here): the Service
// port by number, then the endpoint addresses offering the port of that name. Shared by the
// admission webhook client and the aggregator's backends, which differ only in what they do when
// nothing is found.
#pragma once

#include "runtime/json/json.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver {

// The entry of the Service's spec.ports whose port is `port`, or nullptr.
const json::Value* service_port(const json::Value& service, std::int64_t port);

struct EndpointAddress {
  std::string ip;
  std::int64_t port = 0;  // as written: 0 when the endpoint port has none
};

// Of each subset of `endpoints` (an Endpoints object) that has addresses, its first address with
// each of its ports named `port_name` ("" for an unnamed Service port), in order. Subsets whose
// first address has no ip are passed over.
std::vector<EndpointAddress> endpoint_addresses(const json::Value& endpoints, std::string_view port_name);

}  // namespace capstan::apiserver
