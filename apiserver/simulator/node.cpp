#include "apiserver/simulator/node.h"

#include "runtime/json/patch.h"
#include "runtime/meta/time.h"

namespace capstan::simulator {

void register_node(Api& api, const WorkloadOptions& options) {
  const std::string& name = options.node_name;
  std::string now = meta::format_rfc3339(meta::Clock::now());
  json::Object resources{{"cpu", "8"}, {"memory", "32Gi"}, {"pods", "250"}};
  json::Value status = json::Object{
      {"conditions", json::Array{json::Object{{"type", "Ready"}, {"status", "True"}, {"reason", "KubeletReady"},
                                              {"message", "capstan simulated kubelet is posting ready status"},
                                              {"lastHeartbeatTime", now}, {"lastTransitionTime", now}}}},
      {"addresses", json::Array{json::Object{{"type", "InternalIP"}, {"address", options.host_ip}},
                                json::Object{{"type", "Hostname"}, {"address", name}}}},
      {"capacity", resources},
      {"allocatable", resources},
      {"nodeInfo", json::Object{{"kubeletVersion", "v1.32.0-capstan"}, {"containerRuntimeVersion", "capstan://simulated"},
                                {"operatingSystem", "linux"}, {"architecture", "amd64"}, {"osImage", "Capstan simulated node"},
                                {"kernelVersion", ""}, {"kubeProxyVersion", ""}, {"machineID", ""}, {"systemUUID", ""},
                                {"bootID", ""}}}};
  if (!api.get("nodes", "", name)) {
    json::Value node = json::Object{
        {"apiVersion", "v1"},
        {"kind", "Node"},
        {"metadata", json::Object{{"name", name},
                                  {"labels", json::Object{{"kubernetes.io/hostname", name},
                                                          {"kubernetes.io/os", "linux"},
                                                          {"kubernetes.io/arch", "amd64"},
                                                          {"topology.kubernetes.io/zone", "capstan-zone-a"}}}}}};
    try {
      api.create("nodes", "", node);
    } catch (const ApiError& e) {
      if (!client::is_already_exists(e)) throw;
    }
  }
  api.mutate("nodes", "", name, true, [&](json::Value& cur) {
    cur.as_object()["status"] = status;
    return true;
  });
}

}  // namespace capstan::simulator
