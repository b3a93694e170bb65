#include "apiserver/simulator/resources.h"

#include <array>
#include <stdexcept>
#include <string>

namespace capstan::simulator {
namespace {

struct Entry {
  meta::GroupVersionResource gvr;
  bool namespaced;
};

const std::array<Entry, 13>& table() {
  static const std::array<Entry, 13> t = {{
      {{"", "v1", "pods"}, true},
      {{"", "v1", "services"}, true},
      {{"", "v1", "endpoints"}, true},
      {{"", "v1", "persistentvolumeclaims"}, true},
      {{"", "v1", "persistentvolumes"}, false},
      {{"", "v1", "nodes"}, false},
      {{"", "v1", "secrets"}, true},
      {{"", "v1", "configmaps"}, true},
      {{"apps", "v1", "deployments"}, true},
      {{"apps", "v1", "replicasets"}, true},
      {{"apps", "v1", "statefulsets"}, true},
      {{"apps", "v1", "controllerrevisions"}, true},
      {{"discovery.k8s.io", "v1", "endpointslices"}, true},
  }};
  return t;
}

const Entry& entry(std::string_view group_resource) {
  for (const auto& e : table())
    if (e.gvr.group_resource() == group_resource) return e;
  throw std::invalid_argument("the workload simulator does not use resource " + std::string(group_resource));
}

}  // namespace

const meta::GroupVersionResource& gvr(std::string_view group_resource) { return entry(group_resource).gvr; }
bool namespaced(std::string_view group_resource) { return entry(group_resource).namespaced; }

}  // namespace capstan::simulator
