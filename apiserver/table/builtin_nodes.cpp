// Printers for nodes and controllerrevisions (printNode, printControllerRevision).
#include "apiserver/table/printers_internal.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace capstan::apiserver::table::printers {
namespace {

// ---- nodes ------------------------------------------------------------------------------------

// Ready / NotReady from the Ready condition ("Unknown" without one), then SchedulingDisabled.
std::string node_status(const json::Value& node) {
  std::vector<std::string> status;
  if (const auto* conds = json::get_array(node, {"status", "conditions"}))
    for (const auto& c : *conds)
      if (json::get_string(c, {"type"}) == "Ready") {
        status = {json::get_string(c, {"status"}) == "True" ? "Ready" : "NotReady"};
      }
  if (status.empty()) status.push_back("Unknown");
  if (json::get_bool(node, {"spec", "unschedulable"})) status.push_back("SchedulingDisabled");
  return join(status, ",");
}

// findNodeRoles: node-role.kubernetes.io/<role> label keys and the kubernetes.io/role value.
std::string node_roles(const json::Value& node) {
  std::set<std::string> roles;
  constexpr std::string_view kPrefix = "node-role.kubernetes.io/";
  if (const auto* labels = json::get_object(node, {"metadata", "labels"}))
    for (const auto& kv : *labels) {
      std::string_view k = kv.key();
      if (k.substr(0, kPrefix.size()) == kPrefix) {
        if (k.size() > kPrefix.size()) roles.emplace(k.substr(kPrefix.size()));
      } else if (k == "kubernetes.io/role" && kv.value().is_string() && !kv.value().get_string().empty()) {
        roles.emplace(kv.value().get_string());
      }
    }
  if (roles.empty()) return "<none>";
  return join(std::vector<std::string>(roles.begin(), roles.end()), ",");
}

std::string node_address(const json::Value& node, std::string_view type) {
  if (const auto* addrs = json::get_array(node, {"status", "addresses"}))
    for (const auto& a : *addrs)
      if (json::get_string(a, {"type"}) == type) return std::string(json::get_string(a, {"address"}));
  return "<none>";
}

Row node_row(const json::Value& node, meta::TimePoint now) {
  Row row = named_row(node);
  row.cells.emplace_back(node_status(node));
  row.cells.emplace_back(node_roles(node));
  row.cells.emplace_back(age_of(node, now));
  row.cells.emplace_back(str_at(node, {"status", "nodeInfo", "kubeletVersion"}));
  row.cells.emplace_back(node_address(node, "InternalIP"));
  row.cells.emplace_back(node_address(node, "ExternalIP"));
  for (auto key : {"osImage", "kernelVersion", "containerRuntimeVersion"})
    row.cells.emplace_back(or_default(str_at(node, {"status", "nodeInfo", key}), "<unknown>"));
  return row;
}

std::vector<ColumnDefinition> node_columns() {
  const char* addresses =
      "List of addresses reachable to the node. Queried from cloud provider, if available. More info: "
      "https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the "
      "merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use "
      "a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can "
      "change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as "
      "Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).";
  return {
      name_column(),
      column("Status", "string", "The status of the node"),
      column("Roles", "string", "The roles of the node"),
      age_column(),
      column("Version", "string", "Kubelet Version reported by the node."),
      column("Internal-IP", "string", addresses, 1),
      column("External-IP", "string", addresses, 1),
      column("OS-Image", "string", "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).", 1),
      column("Kernel-Version", "string", "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
      column("Container-Runtime", "string",
             "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).", 1),
  };
}

// ---- controllerrevisions ------------------------------------------------------------------------

// The controller owner as formatResourceName prints it: "<kind>.<group>/<name>" in lower case
// ("statefulset.apps/web"), "<none>" without a controller.
std::string controller_of(const json::Value& obj) {
  if (const auto* refs = json::get_array(obj, {"metadata", "ownerReferences"}))
    for (const auto& r : *refs) {
      if (!json::get_bool(r, {"controller"})) continue;
      std::string_view api = json::get_string(r, {"apiVersion"});
      auto slash = api.find('/');
      std::string group(slash == std::string_view::npos ? std::string_view() : api.substr(0, slash));
      std::string kind(json::get_string(r, {"kind"}));
      std::string gk = group.empty() ? kind : kind + "." + group;
      if (gk.empty()) return std::string(json::get_string(r, {"name"}));
      std::transform(gk.begin(), gk.end(), gk.begin(), [](unsigned char c) { return std::tolower(c); });
      return gk + "/" + std::string(json::get_string(r, {"name"}));
    }
  return "<none>";
}

Row controllerrevision_row(const json::Value& obj, meta::TimePoint now) {
  Row row = named_row(obj);
  row.cells.emplace_back(controller_of(obj));
  row.cells.emplace_back(int_at(obj, {"revision"}));
  row.cells.emplace_back(age_of(obj, now));
  return row;
}

}  // namespace

void add_nodes(std::vector<Entry>& out) {
  out.push_back({"", "nodes", FnConverter(node_columns(), node_row)});
  out.push_back({"apps", "controllerrevisions",
                 FnConverter({name_column(), column("Controller", "string", "Controller of the object"),
                              column("Revision", "string", "Revision indicates the revision of the state represented by Data."),
                              age_column()},
                             controllerrevision_row)});
}

}  // namespace capstan::apiserver::table::printers
