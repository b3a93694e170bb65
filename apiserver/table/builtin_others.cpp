// Printers for policy, coordination.k8s.io, discovery.k8s.io, networking.k8s.io,
// rbac.authorization.k8s.io, admissionregistration.k8s.io, scheduling.k8s.io and
// apiextensions.k8s.io resources.
#include "apiserver/table/printers_internal.h"

#include <algorithm>

namespace capstan::apiserver::table::printers {
namespace {

// "list + N more..." after three entries, "<unset>" for none (listWithMoreString).
std::string list_with_more(const std::vector<std::string>& list, bool more, std::size_t count, std::size_t max) {
  std::string ret = join(list, ",");
  if (more) return ret + " + " + std::to_string(count - max) + " more...";
  return ret.empty() ? "<unset>" : ret;
}

// ---- poddisruptionbudgets ---------------------------------------------------------------------

// IntOrString.String(): the number or the string; "N/A" when unset.
std::string int_or_string(const json::Value* v) {
  if (!v || v->is_null()) return "N/A";
  if (v->is_string()) return std::string(v->get_string());
  if (v->is_int64()) return std::to_string(v->get_int64());
  if (v->is_uint64()) return std::to_string(v->get_uint64());
  if (v->is_double()) return std::to_string(static_cast<std::int64_t>(v->get_double()));
  return "N/A";
}

Row pdb_row(const json::Value& pdb, meta::TimePoint now) {
  Row row = named_row(pdb);
  row.cells.emplace_back(int_or_string(json::find(pdb, {"spec", "minAvailable"})));
  row.cells.emplace_back(int_or_string(json::find(pdb, {"spec", "maxUnavailable"})));
  row.cells.emplace_back(int_at(pdb, {"status", "disruptionsAllowed"}));
  row.cells.emplace_back(age_of(pdb, now));
  return row;
}

// ---- leases -----------------------------------------------------------------------------------

Row lease_row(const json::Value& lease, meta::TimePoint now) {
  Row row = named_row(lease);
  row.cells.emplace_back(str_at(lease, {"spec", "holderIdentity"}));
  row.cells.emplace_back(age_of(lease, now));
  return row;
}

// ---- endpointslices ---------------------------------------------------------------------------

std::string discovery_ports(const json::Value& slice) {
  std::vector<std::string> list;
  const std::size_t max = 3;
  bool more = false;
  std::size_t count = 0;
  if (const auto* ports = json::get_array(slice, {"ports"})) {
    for (const auto& p : *ports) {
      if (list.size() < max) {
        std::string port = "*";
        const auto* num = json::find(p, {"port"});
        const auto* name = json::find(p, {"name"});
        if (num && !num->is_null()) port = std::to_string(int_at(p, {"port"}));
        else if (name && name->is_string()) port = std::string(name->get_string());
        list.push_back(port);
      } else if (list.size() == max) {
        more = true;
      }
      ++count;
    }
  }
  return list_with_more(list, more, count, max);
}

std::string discovery_endpoints(const json::Value& slice) {
  std::vector<std::string> list;
  const std::size_t max = 3;
  bool more = false;
  std::size_t count = 0;
  if (const auto* eps = json::get_array(slice, {"endpoints"})) {
    for (const auto& ep : *eps) {
      if (const auto* addrs = json::get_array(ep, {"addresses"})) {
        for (const auto& a : *addrs) {
          if (list.size() < max) list.emplace_back(a.is_string() ? std::string(a.get_string()) : "");
          else if (list.size() == max) more = true;
          ++count;
        }
      }
    }
  }
  return list_with_more(list, more, count, max);
}

Row endpointslice_row(const json::Value& s, meta::TimePoint now) {
  Row row = named_row(s);
  row.cells.emplace_back(str_at(s, {"addressType"}));
  row.cells.emplace_back(discovery_ports(s));
  row.cells.emplace_back(discovery_endpoints(s));
  row.cells.emplace_back(age_of(s, now));
  return row;
}

// ---- ingresses, ingressclasses, networkpolicies -----------------------------------------------

std::string ingress_hosts(const json::Value& ing) {
  std::vector<std::string> list;
  const std::size_t max = 3;
  bool more = false;
  std::size_t rules_count = 0;
  if (const auto* rules = json::get_array(ing, {"spec", "rules"})) {
    rules_count = rules->size();
    for (const auto& r : *rules) {
      if (list.size() == max) more = true;
      auto host = json::get_string(r, {"host"});
      if (!more && !host.empty()) list.emplace_back(host);
    }
  }
  if (list.empty()) return "*";
  std::string ret = join(list, ",");
  if (more) return ret + " + " + std::to_string(rules_count - max) + " more...";
  return ret;
}

Row ingress_row(const json::Value& ing, meta::TimePoint now) {
  Row row = named_row(ing);
  const auto* cls = json::find(ing, {"spec", "ingressClassName"});
  row.cells.emplace_back(cls && cls->is_string() ? std::string(cls->get_string()) : "<none>");
  row.cells.emplace_back(ingress_hosts(ing));
  row.cells.emplace_back(load_balancer_ingress(ing));
  row.cells.emplace_back(size_at(ing, {"spec", "tls"}) != 0 ? "80, 443" : "80");
  row.cells.emplace_back(age_of(ing, now));
  return row;
}

Row ingressclass_row(const json::Value& ic, meta::TimePoint now) {
  Row row = named_row(ic);
  std::string parameters = "<none>";
  if (const auto* p = json::get_object(ic, {"spec", "parameters"})) {
    json::Value params(*p);
    parameters = str_at(params, {"kind"});
    const auto* group = json::find(params, {"apiGroup"});
    if (group && group->is_string()) {
      parameters += '.';
      parameters += group->get_string();
    }
    parameters += '/';
    parameters += str_at(params, {"name"});
  }
  row.cells.emplace_back(str_at(ic, {"spec", "controller"}));
  row.cells.emplace_back(parameters);
  row.cells.emplace_back(age_of(ic, now));
  return row;
}

Row networkpolicy_row(const json::Value& np, meta::TimePoint now) {
  Row row = named_row(np);
  // spec.podSelector is a struct, not a pointer: absent means the empty selector.
  const auto* sel = json::find(np, {"spec", "podSelector"});
  json::Value empty = json::Object{};
  row.cells.emplace_back(format_label_selector(sel ? sel : &empty));
  row.cells.emplace_back(age_of(np, now));
  return row;
}

// ---- rolebindings, clusterrolebindings --------------------------------------------------------

Row binding_row(const json::Value& b, meta::TimePoint now) {
  Row row = named_row(b);
  row.cells.emplace_back(str_at(b, {"roleRef", "kind"}) + "/" + str_at(b, {"roleRef", "name"}));
  row.cells.emplace_back(age_of(b, now));
  std::vector<std::string> users, groups, sas;
  if (const auto* subjects = json::get_array(b, {"subjects"})) {
    for (const auto& s : *subjects) {
      auto kind = json::get_string(s, {"kind"});
      auto name = std::string(json::get_string(s, {"name"}));
      if (kind == "ServiceAccount") sas.push_back(std::string(json::get_string(s, {"namespace"})) + "/" + name);
      else if (kind == "User") users.push_back(name);
      else if (kind == "Group") groups.push_back(name);
    }
  }
  row.cells.emplace_back(join(users, ", "));
  row.cells.emplace_back(join(groups, ", "));
  row.cells.emplace_back(join(sas, ", "));
  return row;
}

std::vector<ColumnDefinition> binding_columns(std::string_view noun, std::string role_description) {
  std::string n(noun);
  return {
      name_column(),
      column("Role", "string", std::move(role_description)),
      age_column(),
      column("Users", "string", "Users in the " + n, 1),
      column("Groups", "string", "Groups in the " + n, 1),
      column("ServiceAccounts", "string", "ServiceAccounts in the " + n, 1),
  };
}

// ---- webhook configurations -------------------------------------------------------------------

Row webhook_row(const json::Value& w, meta::TimePoint now) {
  Row row = named_row(w);
  row.cells.emplace_back(static_cast<std::int64_t>(size_at(w, {"webhooks"})));
  row.cells.emplace_back(age_of(w, now));
  return row;
}

std::vector<ColumnDefinition> webhook_columns() {
  return {
      name_column(),
      column("Webhooks", "integer", "Webhooks indicates the number of webhooks registered in this configuration"),
      age_column(),
  };
}

// ---- priorityclasses --------------------------------------------------------------------------

Row priorityclass_row(const json::Value& pc, meta::TimePoint now) {
  Row row = named_row(pc);
  row.cells.emplace_back(int_at(pc, {"value"}));
  row.cells.emplace_back(json::get_bool(pc, {"globalDefault"}));
  row.cells.emplace_back(age_of(pc, now));
  row.cells.emplace_back(str_at(pc, {"preemptionPolicy"}));
  return row;
}

std::vector<ColumnDefinition> priorityclass_columns() {
  return {
      name_column(),
      column("Value", "integer",
             "value represents the integer value of this priority class. This is the actual priority that pods "
             "receive when they have the name of this class in their pod spec."),
      column("Global-Default", "boolean",
             "globalDefault specifies whether this PriorityClass should be considered as the default priority for "
             "pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. "
             "However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the "
             "smallest value of such global default PriorityClasses will be used as the default priority."),
      age_column(),
      column("PreemptionPolicy", "string",
             "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, "
             "PreemptLowerPriority. Defaults to PreemptLowerPriority if unset."),
  };
}

// ---- customresourcedefinitions (the apiextensions server's own table convertor) ---------------

Row crd_row(const json::Value& crd, meta::TimePoint) {
  Row row = named_row(crd);
  std::vector<std::string> versions;
  if (const auto* vs = json::get_array(crd, {"spec", "versions"}))
    for (const auto& v : *vs)
      if (json::get_bool(v, {"served"}))
        versions.push_back(str_at(v, {"name"}) + (json::get_bool(v, {"storage"}) ? "(storage)" : ""));
  std::sort(versions.begin(), versions.end());
  bool established = false;
  if (const auto* conds = json::get_array(crd, {"status", "conditions"}))
    for (const auto& c : *conds)
      established |= str_at(c, {"type"}) == "Established" && str_at(c, {"status"}) == "True";
  row.cells.emplace_back(str_at(crd, {"spec", "scope"}));
  row.cells.emplace_back(join(versions, ","));
  row.cells.emplace_back(created_at(crd));
  row.cells.emplace_back(str_at(crd, {"spec", "group"}));
  row.cells.emplace_back(str_at(crd, {"spec", "names", "kind"}));
  row.cells.emplace_back(join(strings_at(crd, {"spec", "names", "shortNames"}), ","));
  row.cells.emplace_back(established);
  return row;
}

std::vector<ColumnDefinition> crd_columns() {
  return {
      name_column(),
      column("Scope", "string", "Cluster/Namespaced"),
      column("Versions", "string", "Served versions"),
      column("Created At", "date", kCreationTimestampDescription),
      column("Group", "string", "API group", 1),
      column("Kind", "string", "CustomResource kind", 1),
      column("ShortNames", "string", "Short names", 1),
      column("Established", "boolean", "Established status", 1),
  };
}

}  // namespace

void add_others(std::vector<Entry>& out) {
  out.push_back({"scheduling.k8s.io", "priorityclasses", FnConverter(priorityclass_columns(), priorityclass_row)});
  out.push_back({"apiextensions.k8s.io", "customresourcedefinitions", FnConverter(crd_columns(), crd_row)});
  out.push_back({"policy", "poddisruptionbudgets",
                 FnConverter({name_column(),
                              column("Min Available", "string", "The minimum number of pods that must be available."),
                              column("Max Unavailable", "string", "The maximum number of pods that may be unavailable."),
                              column("Allowed Disruptions", "integer",
                                     "Calculated number of pods that may be disrupted at this time."),
                              age_column()},
                             pdb_row)});
  out.push_back({"coordination.k8s.io", "leases",
                 FnConverter({name_column(),
                              column("Holder", "string",
                                     "holderIdentity contains the identity of the holder of a current lease. If "
                                     "Coordinated Leader Election is used, the holder identity must be equal to the "
                                     "elected LeaseCandidate.metadata.name field."),
                              age_column()},
                             lease_row)});
  out.push_back(
      {"discovery.k8s.io", "endpointslices",
       FnConverter({name_column(),
                    column("AddressType", "string",
                           "addressType specifies the type of address carried by this EndpointSlice. All addresses in "
                           "this slice must be the same type. This field is immutable after creation. The following "
                           "address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: "
                           "Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name. (Deprecated) The "
                           "EndpointSlice controller only generates, and kube-proxy only processes, slices of "
                           "addressType \"IPv4\" and \"IPv6\". No semantics are defined for the \"FQDN\" type."),
                    column("Ports", "string",
                           "ports specifies the list of network ports exposed by each endpoint in this slice. Each port "
                           "must have a unique name. Each slice may include a maximum of 100 ports. Services always "
                           "have at least 1 port, so EndpointSlices generated by the EndpointSlice controller will "
                           "likewise always have at least 1 port. EndpointSlices used for other purposes may have an "
                           "empty ports list."),
                    column("Endpoints", "string",
                           "endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of "
                           "1000 endpoints."),
                    age_column()},
                   endpointslice_row)});
  out.push_back(
      {"networking.k8s.io", "ingresses",
       FnConverter({name_column(),
                    column("Class", "string",
                           "The name of the IngressClass resource that should be used for additional configuration"),
                    column("Hosts", "string",
                           "Hosts that incoming requests are matched against before the ingress rule"),
                    column("Address", "string", "Address is a list containing ingress points for the load-balancer"),
                    column("Ports", "string", "Ports of TLS configurations that open"), age_column()},
                   ingress_row)});
  out.push_back({"networking.k8s.io", "ingressclasses",
                 FnConverter({name_column(),
                              column("Controller", "string", "Controller that is responsible for handling this class"),
                              column("Parameters", "string", "A reference to a resource with additional parameters"),
                              age_column()},
                             ingressclass_row)});
  out.push_back(
      {"networking.k8s.io", "networkpolicies",
       FnConverter({name_column(),
                    column("Pod-Selector", "string",
                           "podSelector selects the pods to which this NetworkPolicy object applies. The array of rules "
                           "is applied to any pods selected by this field. An empty selector matches all pods in the "
                           "policy's namespace. Multiple network policies can select the same set of pods. In this "
                           "case, the ingress rules for each are combined additively. This field is optional. If it is "
                           "not specified, it defaults to an empty selector."),
                    age_column()},
                   networkpolicy_row)});
  out.push_back({"rbac.authorization.k8s.io", "rolebindings",
                 FnConverter(binding_columns("roleBinding",
                                             "roleRef can reference a Role in the current namespace or a ClusterRole "
                                             "in the global namespace. If the RoleRef cannot be resolved, the "
                                             "Authorizer must return an error."),
                             binding_row)});
  out.push_back({"rbac.authorization.k8s.io", "clusterrolebindings",
                 FnConverter(binding_columns("clusterRoleBinding",
                                             "roleRef can only reference a ClusterRole in the global namespace. If the "
                                             "RoleRef cannot be resolved, the Authorizer must return an error."),
                             binding_row)});
  out.push_back({"admissionregistration.k8s.io", "mutatingwebhookconfigurations",
                 FnConverter(webhook_columns(), webhook_row)});
  out.push_back({"admissionregistration.k8s.io", "validatingwebhookconfigurations",
                 FnConverter(webhook_columns(), webhook_row)});
}

}  // namespace capstan::apiserver::table::printers
