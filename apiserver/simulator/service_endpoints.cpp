#include "apiserver/simulator/service_endpoints.h"

#include "apiserver/simulator/objects.h"
#include "runtime/meta/object.h"

#include <algorithm>

namespace capstan::simulator {
namespace {

// podutil.FindPort: a number is the port; a name is looked up among the containers' ports
// with the same protocol.
std::optional<std::int64_t> find_port(const json::Value& pod, const json::Value& svc_port) {
  const json::Value* target = json::find(svc_port, {"targetPort"});
  if (!target || target->is_null()) target = json::find(svc_port, {"port"});
  if (!target) return std::nullopt;
  if (target->is_int64()) return target->get_int64();
  if (target->is_uint64()) return static_cast<std::int64_t>(target->get_uint64());
  if (!target->is_string()) return std::nullopt;
  std::string_view name = target->get_string();
  std::string_view proto = json::get_string(svc_port, {"protocol"}, "TCP");
  for (auto key : {"containers", "initContainers"})
    if (const auto* cs = json::get_array(pod, {"spec", key}))
      for (const auto& c : *cs)
        if (const auto* ports = json::get_array(c, {"ports"}))
          for (const auto& p : *ports)
            if (json::get_string(p, {"name"}) == name && json::get_string(p, {"protocol"}, "TCP") == proto)
              if (auto n = json::get_int(p, {"containerPort"})) return *n;
  return std::nullopt;
}

}  // namespace

std::vector<Key> ServiceIndex::observe(const Event& e) {
  const json::Value& svc = *e.object;
  std::string ns(meta::namespace_of(svc)), name(meta::name_of(svc));
  {
    std::lock_guard<std::mutex> l(mu_);
    auto sel = e.type == EventType::Deleted ? std::nullopt : service_selector(svc);
    if (sel) {
      by_ns_[ns][name] = *sel;
    } else if (auto it = by_ns_.find(ns); it != by_ns_.end()) {
      it->second.erase(name);
      if (it->second.empty()) by_ns_.erase(it);
    }
  }
  return {Key{"services", ns, name}};
}

std::vector<Key> ServiceIndex::services_for_pod(const Event& e) const {
  std::vector<Key> out;
  std::string ns(meta::namespace_of(*e.object));
  std::lock_guard<std::mutex> l(mu_);
  auto it = by_ns_.find(ns);
  if (it == by_ns_.end()) return out;
  for (const auto& [name, sel] : it->second) {
    bool hit = sel.matches(*e.object) || (e.previous && sel.matches(*e.previous));
    if (hit) out.push_back(Key{"services", ns, name});
  }
  return out;
}

std::optional<meta::LabelSelector> service_selector(const json::Value& svc) {
  const auto* sel = json::get_object(svc, {"spec", "selector"});
  if (!sel || sel->empty()) return std::nullopt;
  json::Value v = json::Object{{"matchLabels", *sel}};
  try {
    return meta::LabelSelector::from_json(&v);
  } catch (const meta::SelectorError&) {
    return std::nullopt;
  }
}

json::Value EndpointPort::to_json() const {
  json::Object o{{"name", name}, {"port", port}, {"protocol", protocol}};
  if (!app_protocol.empty()) o["appProtocol"] = app_protocol;
  return o;
}

std::vector<PodEndpoint> service_endpoints(const json::Value& svc, const std::vector<Object>& pods,
                                           bool include_terminating) {
  std::vector<PodEndpoint> out;
  bool publish_not_ready = json::get_bool(svc, {"spec", "publishNotReadyAddresses"});
  std::string_view svc_name = meta::name_of(svc);
  std::string_view svc_ns = meta::namespace_of(svc);
  const auto* svc_ports = json::get_array(svc, {"spec", "ports"});
  for (const auto& obj : pods) {
    const json::Value& pod = *obj;
    if (pod_terminal(pod)) continue;
    std::string_view ip = json::get_string(pod, {"status", "podIP"});
    if (ip.empty()) continue;
    bool terminating = meta::is_deleting(pod);
    if (terminating && !include_terminating) continue;
    PodEndpoint ep;
    ep.ip = ip;
    ep.node = json::get_string(pod, {"spec", "nodeName"});
    ep.pod_name = meta::name_of(pod);
    ep.pod_uid = meta::uid_of(pod);
    ep.ns = meta::namespace_of(pod);
    auto hostname = json::get_string(pod, {"spec", "hostname"});
    if (!hostname.empty() && json::get_string(pod, {"spec", "subdomain"}) == svc_name && ep.ns == svc_ns) ep.hostname = hostname;
    bool ready = meta::pod_ready(pod);
    ep.serving = publish_not_ready || ready;
    ep.terminating = terminating;
    ep.ready = publish_not_ready || (ready && !terminating);
    if (svc_ports) {
      for (const auto& sp : *svc_ports) {
        auto port = find_port(pod, sp);
        if (!port) continue;
        EndpointPort p;
        p.name = json::get_string(sp, {"name"});
        p.port = *port;
        p.protocol = json::get_string(sp, {"protocol"}, "TCP");
        p.app_protocol = json::get_string(sp, {"appProtocol"});
        ep.ports.push_back(std::move(p));
      }
      if (ep.ports.empty() && !svc_ports->empty()) continue;  // serves none of the Service's ports
    }
    json::Array key;
    for (const auto& p : ep.ports) key.push_back(p.to_json());
    ep.ports_key = json::serialize(key);
    out.push_back(std::move(ep));
  }
  std::sort(out.begin(), out.end(), [](const PodEndpoint& a, const PodEndpoint& b) {
    return std::tie(a.ip, a.pod_uid) < std::tie(b.ip, b.pod_uid);
  });
  return out;
}

std::vector<Object> selected_pods(Api& api, const std::string& ns, const meta::LabelSelector& selector) {
  std::vector<Object> out;
  for (auto& p : api.list("pods", ns))
    if (selector.matches(*p)) out.push_back(std::move(p));
  return out;
}

json::Object endpoint_labels(const json::Value& svc) {
  json::Object labels;
  if (const auto* l = json::get_object(svc, {"metadata", "labels"})) labels = *l;
  if (json::get_string(svc, {"spec", "clusterIP"}) == "None") labels["service.kubernetes.io/headless"] = "";
  return labels;
}

}  // namespace capstan::simulator
