#include "apiserver/simulator/endpoints_controller.h"

#include "runtime/json/patch.h"
#include "runtime/meta/object.h"

#include <map>

namespace capstan::simulator {
namespace {

const std::string kServices = "services";
const std::string kEndpoints = "endpoints";
const std::string kPods = "pods";

json::Value address(const PodEndpoint& ep) {
  json::Object a{{"ip", ep.ip}};
  if (!ep.hostname.empty()) a["hostname"] = ep.hostname;
  if (!ep.node.empty()) a["nodeName"] = ep.node;
  a["targetRef"] = json::Object{{"kind", "Pod"}, {"namespace", ep.ns}, {"name", ep.pod_name}, {"uid", ep.pod_uid}};
  return a;
}

}  // namespace

json::Array endpoint_subsets(const json::Value& svc, const std::vector<PodEndpoint>& eps) {
  const auto* ports = json::get_array(svc, {"spec", "ports"});
  bool no_ports = !ports || ports->empty();
  if (no_ports && json::get_string(svc, {"spec", "clusterIP"}) != "None") return {};
  struct Subset {
    json::Array addresses, not_ready, ports;
  };
  std::map<std::string, Subset> groups;
  for (const auto& ep : eps) {
    auto& g = groups[ep.ports_key];
    if (g.ports.empty())
      for (const auto& p : ep.ports) g.ports.push_back(p.to_json());
    // Endpoints never list terminating pods unless publishNotReadyAddresses (then ready).
    (ep.ready ? g.addresses : g.not_ready).push_back(address(ep));
  }
  json::Array out;
  for (auto& [key, g] : groups) {
    json::Object s;
    if (!g.addresses.empty()) s["addresses"] = std::move(g.addresses);
    if (!g.not_ready.empty()) s["notReadyAddresses"] = std::move(g.not_ready);
    if (!g.ports.empty()) s["ports"] = std::move(g.ports);
    out.push_back(std::move(s));
  }
  return out;
}

EndpointsController::EndpointsController(client::Client& client, Watches& watches)
    : api_(client, "kube-controller-manager"),
      loop_("endpoints", watches, [this](const Key& k) { return reconcile(k); }) {}

void EndpointsController::start() {
  // Services first: the index must know them before pod events are mapped.
  loop_.watch(kServices, [this](const Event& e) { return index_.observe(e); });
  loop_.watch(kPods, [this](const Event& e) { return index_.services_for_pod(e); });
  loop_.start();
}

std::chrono::milliseconds EndpointsController::reconcile(const Key& k) {
  auto svc = api_.get(kServices, k.ns, k.name);
  if (!svc) {
    if (auto ep = api_.get(kEndpoints, k.ns, k.name)) api_.remove(kEndpoints, k.ns, k.name, meta::uid_of(*ep));
    return {};
  }
  if (json::get_string(*svc, {"spec", "type"}) == "ExternalName") return {};
  auto sel = service_selector(*svc);
  if (!sel) return {};  // no selector: the endpoints are somebody else's
  auto pods = selected_pods(api_, k.ns, *sel);
  bool publish_not_ready = json::get_bool(*svc, {"spec", "publishNotReadyAddresses"});
  auto subsets = endpoint_subsets(*svc, service_endpoints(*svc, pods, publish_not_ready));
  auto labels = endpoint_labels(*svc);

  if (!api_.get(kEndpoints, k.ns, k.name)) {
    json::Object md{{"name", k.name}, {"namespace", k.ns}};
    if (!labels.empty()) md["labels"] = labels;
    json::Object ep{{"apiVersion", "v1"}, {"kind", "Endpoints"}, {"metadata", std::move(md)}};
    if (!subsets.empty()) ep["subsets"] = subsets;
    api_.create(kEndpoints, k.ns, std::move(ep));  // AlreadyExists (a race) is retried by the loop
    return {};
  }
  api_.mutate(kEndpoints, k.ns, k.name, false, [&](json::Value& cur) {
    json::Value before = cur;
    auto& o = cur.as_object();
    auto& md = json::ensure_object(cur, {"metadata"});
    if (labels.empty()) md.erase("labels");
    else md["labels"] = labels;
    if (subsets.empty()) o.erase("subsets");
    else o["subsets"] = subsets;
    return !json::deep_equal(before, cur);
  });
  return {};
}

}  // namespace capstan::simulator
