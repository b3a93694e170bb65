#include "apiserver/simulator/endpointslice_controller.h"

#include "runtime/json/patch.h"
#include "runtime/meta/object.h"

#include <map>

namespace capstan::simulator {
namespace {

const std::string kServices = "services";
const std::string kSlices = "endpointslices.discovery.k8s.io";
const std::string kPods = "pods";
constexpr std::size_t kMaxEndpointsPerSlice = 100;

json::Value endpoint(const PodEndpoint& ep) {
  json::Object e{{"addresses", json::Array{json::String(ep.ip)}},
                 {"conditions", json::Object{{"ready", ep.ready}, {"serving", ep.serving}, {"terminating", ep.terminating}}}};
  if (!ep.hostname.empty()) e["hostname"] = ep.hostname;
  if (!ep.node.empty()) e["nodeName"] = ep.node;
  e["targetRef"] = json::Object{{"kind", "Pod"}, {"namespace", ep.ns}, {"name", ep.pod_name}, {"uid", ep.pod_uid}};
  return e;
}

struct Desired {
  std::string ports_key;
  json::Array ports;
  json::Value endpoints;  // array, or null for the placeholder
};

}  // namespace

EndpointSliceController::EndpointSliceController(client::Client& client, Watches& watches)
    : api_(client, "kube-controller-manager"),
      loop_("endpointslices", watches, [this](const Key& k) { return reconcile(k); }) {}

void EndpointSliceController::start() {
  loop_.watch(kServices, [this](const Event& e) { return index_.observe(e); });
  loop_.watch(kPods, [this](const Event& e) { return index_.services_for_pod(e); });
  // A slice changed or deleted by someone else is put back.
  loop_.watch(kSlices, [](const Event& e) -> std::vector<Key> {
    if (meta::label(*e.object, kManagedByLabel) != kSliceControllerName) return {};
    auto svc = meta::label(*e.object, kServiceNameLabel);
    if (svc.empty()) return {};
    return {Key{kServices, std::string(meta::namespace_of(*e.object)), std::string(svc)}};
  });
  loop_.start();
}

std::vector<Object> EndpointSliceController::managed_slices(const std::string& ns, const std::string& service) {
  return api_.list(kSlices, ns,
                   std::string(kServiceNameLabel) + "=" + service + "," + std::string(kManagedByLabel) + "=" +
                       std::string(kSliceControllerName));
}

std::chrono::milliseconds EndpointSliceController::reconcile(const Key& k) {
  auto existing = managed_slices(k.ns, k.name);
  auto svc = api_.get(kServices, k.ns, k.name);
  auto sel = svc ? service_selector(*svc) : std::nullopt;
  if (!svc || !sel || json::get_string(*svc, {"spec", "type"}) == "ExternalName") {
    // Gone (or no longer selecting): our slices go too.
    for (const auto& s : existing) api_.remove(kSlices, k.ns, meta::name_of(*s), meta::uid_of(*s));
    return {};
  }
  auto pods = selected_pods(api_, k.ns, *sel);
  auto eps = service_endpoints(*svc, pods, true);

  // Desired slices: per port set, chunks of at most 100 endpoints.
  std::map<std::string, std::vector<const PodEndpoint*>> groups;
  for (const auto& ep : eps) groups[ep.ports_key].push_back(&ep);
  std::vector<Desired> desired;
  for (const auto& [key, members] : groups) {
    for (std::size_t i = 0; i < members.size(); i += kMaxEndpointsPerSlice) {
      Desired d;
      d.ports_key = key;
      for (const auto& p : members.front()->ports) d.ports.push_back(p.to_json());
      json::Array arr;
      for (std::size_t j = i; j < members.size() && j < i + kMaxEndpointsPerSlice; ++j) arr.push_back(endpoint(*members[j]));
      d.endpoints = std::move(arr);
      desired.push_back(std::move(d));
    }
  }
  if (desired.empty()) desired.push_back(Desired{"[]", json::Array{}, nullptr});  // the placeholder

  json::Object labels = endpoint_labels(*svc);
  labels[kServiceNameLabel] = k.name;
  labels[kManagedByLabel] = kSliceControllerName;
  json::Array owner{meta::controller_reference(*svc).to_json()};

  // Reuse existing slices in order (same port set first), create the rest, drop leftovers.
  std::vector<bool> used(existing.size(), false);
  auto pick = [&](const std::string& ports_key) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < existing.size(); ++i)
      if (!used[i]) {
        const auto* p = json::find(*existing[i], {"ports"});
        if (ports_key == json::serialize(p && p->is_array() ? *p : json::Value(json::Array{}))) return i;
      }
    for (std::size_t i = 0; i < existing.size(); ++i)
      if (!used[i]) return i;
    return std::nullopt;
  };
  for (auto& d : desired) {
    auto shape = [&](json::Value& slice) {
      auto& o = slice.as_object();
      auto& md = json::ensure_object(slice, {"metadata"});
      md["labels"] = labels;
      md["ownerReferences"] = owner;
      o["addressType"] = "IPv4";
      o["endpoints"] = d.endpoints;
      o["ports"] = d.ports;
    };
    if (auto i = pick(d.ports_key)) {
      used[*i] = true;
      api_.mutate(kSlices, k.ns, meta::name_of(*existing[*i]), false, [&](json::Value& cur) {
        json::Value before = cur;
        shape(cur);
        return !json::deep_equal(before, cur);
      });
      continue;
    }
    json::Value slice = json::Object{{"apiVersion", "discovery.k8s.io/v1"},
                                     {"kind", "EndpointSlice"},
                                     {"metadata", json::Object{{"generateName", k.name + "-"}, {"namespace", k.ns}}}};
    shape(slice);
    api_.create(kSlices, k.ns, std::move(slice));
  }
  for (std::size_t i = 0; i < existing.size(); ++i)
    if (!used[i]) api_.remove(kSlices, k.ns, meta::name_of(*existing[i]), meta::uid_of(*existing[i]));
  return {};
}

}  // namespace capstan::simulator
