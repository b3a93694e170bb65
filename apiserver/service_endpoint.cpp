#include "apiserver/service_endpoint.h"

namespace capstan::apiserver {

const json::Value* service_port(const json::Value& service, std::int64_t port) {
  if (const auto* ports = json::get_array(service, {"spec", "ports"}))
    for (const auto& p : *ports)
      if (json::get_int(p, {"port"}).value_or(0) == port) return &p;
  return nullptr;
}

std::vector<EndpointAddress> endpoint_addresses(const json::Value& endpoints, std::string_view port_name) {
  std::vector<EndpointAddress> out;
  if (const auto* subsets = json::get_array(endpoints, {"subsets"})) {
    for (const auto& ss : *subsets) {
      const auto* addrs = json::get_array(ss, {"addresses"});
      const auto* ports = json::get_array(ss, {"ports"});
      if (!addrs || addrs->empty() || !ports) continue;
      std::string_view ip = json::get_string((*addrs)[0], {"ip"});
      if (ip.empty()) continue;
      for (const auto& p : *ports)
        if (json::get_string(p, {"name"}) == port_name) out.push_back({std::string(ip), json::get_int(p, {"port"}).value_or(0)});
    }
  }
  return out;
}

}  // namespace capstan::apiserver
