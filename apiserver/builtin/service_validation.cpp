// ValidateService (k8s.io/kubernetes/pkg/apis/core/validation, v1.32) in upstream order: ports
// present unless headless or ExternalName, per-type rules, each port, selector, session
// affinity, type, nodePorts on ClusterIP, duplicate (protocol, port) pairs.
#include "apiserver/builtin/service_validation.h"

#include "apiserver/builtin/go_values.h"
#include "apiserver/builtin/names.h"
#include "apiserver/builtin/object_meta.h"

#include <set>

namespace capstan::apiserver::builtin {
namespace {

using validation::Cause;
using validation::FieldPath;
using Causes = std::vector<Cause>;

const json::Value& or_empty(const json::Value& v) {
  static const json::Value empty = json::Object{};
  return v.is_object() ? v : empty;
}

json::Value str(std::string_view s) { return json::String(s); }

bool headless(const json::Value& svc) {
  const auto* ips = json::get_array(svc, {"spec", "clusterIPs"});
  return ips && ips->size() == 1 && (*ips)[0].is_string() && (*ips)[0].get_string() == "None";
}

// validateServicePort.
void validate_port(const json::Value& port, bool require_name, std::set<std::string, std::less<>>& names, const FieldPath& path,
                   Causes& out) {
  std::string_view name = json::get_string(port, {"name"});
  if (require_name && name.empty()) {
    out.push_back(validation::field_required(path.child("name"), ""));
  } else if (!name.empty()) {
    for (auto& m : names::dns1123_label(name)) out.push_back(validation::field_invalid(path.child("name"), str(name), m));
    if (names.count(name)) out.push_back(validation::field_duplicate(path.child("name"), str(name)));
    else names.emplace(name);
  }
  std::int64_t number = json::get_int(port, {"port"}).value_or(0);
  for (auto& m : names::port_number(number)) out.push_back(validation::field_invalid(path.child("port"), json::Value(number), m));
  std::string_view protocol = json::get_string(port, {"protocol"});
  if (protocol.empty()) out.push_back(validation::field_required(path.child("protocol"), ""));
  else if (protocol != "SCTP" && protocol != "TCP" && protocol != "UDP")
    out.push_back(validation::field_not_supported(path.child("protocol"), str(protocol), {"SCTP", "TCP", "UDP"}));
  // ValidatePortNumOrName.
  const auto* target = json::find(port, {"targetPort"});
  if (target && target->is_string()) {
    for (auto& m : names::port_name(target->get_string())) out.push_back(validation::field_invalid(path.child("targetPort"), *target, m));
  } else {
    std::int64_t t = target ? json::get_int(port, {"targetPort"}).value_or(0) : 0;
    for (auto& m : names::port_number(t)) out.push_back(validation::field_invalid(path.child("targetPort"), json::Value(t), m));
  }
  if (const auto* app = json::find(port, {"appProtocol"}); app && app->is_string())
    for (auto& m : names::qualified_name(app->get_string())) out.push_back(validation::field_invalid(path.child("appProtocol"), *app, m));
}

}  // namespace

Causes validate_service(const json::Value& svc) {
  Causes out;
  auto spec = FieldPath("spec");
  std::string_view type = json::get_string(svc, {"spec", "type"});
  const auto* ports = json::get_array(svc, {"spec", "ports"});
  std::size_t nports = ports ? ports->size() : 0;
  if (nports == 0 && !headless(svc) && type != "ExternalName") out.push_back(validation::field_required(spec.child("ports"), ""));

  if (type == "LoadBalancer") {
    if (headless(svc))
      out.push_back(validation::field_invalid(spec.child("clusterIPs").index(0), str("None"), "may not be set to 'None' for LoadBalancer services"));
    for (std::size_t i = 0; i < nports; ++i)
      if (json::get_int((*ports)[i], {"port"}).value_or(0) == 10250)
        out.push_back(validation::field_invalid(spec.child("ports").index(i), json::Value(std::int64_t{10250}),
                                            "may not expose port 10250 externally since it is used by kubelet"));
  } else if (type == "NodePort") {
    if (headless(svc))
      out.push_back(validation::field_invalid(spec.child("clusterIPs").index(0), str("None"), "may not be set to 'None' for NodePort services"));
  } else if (type == "ExternalName") {
    if (const auto* ips = json::get_array(svc, {"spec", "clusterIPs"}); ips && !ips->empty())
      out.push_back(validation::field_forbidden(spec.child("clusterIPs"), "may not be set for ExternalName services"));
    std::string_view cname = json::get_string(svc, {"spec", "externalName"});
    if (!cname.empty() && cname.back() == '.') cname.remove_suffix(1);
    if (cname.empty()) out.push_back(validation::field_required(spec.child("externalName"), ""));
    else
      for (auto& m : names::dns1123_subdomain(cname)) out.push_back(validation::field_invalid(spec.child("externalName"), str(cname), m));
  }

  std::set<std::string, std::less<>> port_names;
  for (std::size_t i = 0; i < nports; ++i)
    validate_port(or_empty((*ports)[i]), nports > 1, port_names, spec.child("ports").index(i), out);

  if (const auto* selector = json::get_object(svc, {"spec", "selector"})) validate_label_map(*selector, spec.child("selector"), out);

  std::string_view affinity = json::get_string(svc, {"spec", "sessionAffinity"});
  if (affinity.empty()) out.push_back(validation::field_required(spec.child("sessionAffinity"), ""));
  else if (affinity != "ClientIP" && affinity != "None")
    out.push_back(validation::field_not_supported(spec.child("sessionAffinity"), str(affinity), {"ClientIP", "None"}));

  if (type.empty()) out.push_back(validation::field_required(spec.child("type"), ""));
  else if (type != "ClusterIP" && type != "ExternalName" && type != "LoadBalancer" && type != "NodePort")
    out.push_back(validation::field_not_supported(spec.child("type"), str(type), {"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"}));

  if (type == "ClusterIP")
    for (std::size_t i = 0; i < nports; ++i)
      if (json::get_int((*ports)[i], {"nodePort"}).value_or(0) != 0)
        out.push_back(validation::field_forbidden(spec.child("ports").index(i).child("nodePort"), "may not be used when `type` is 'ClusterIP'"));

  std::set<std::pair<std::string, std::int64_t>> seen;
  for (std::size_t i = 0; i < nports; ++i) {
    std::string protocol(json::get_string((*ports)[i], {"protocol"}));
    std::int64_t number = json::get_int((*ports)[i], {"port"}).value_or(0);
    if (!seen.emplace(protocol, number).second) {
      out.push_back(Cause{std::string(validation::reason::kDuplicate), spec.child("ports").index(i).str(),
                          "Duplicate value: " + go_service_port_key(protocol, number)});
    }
  }
  return out;
}

}  // namespace capstan::apiserver::builtin
