// Printers for the core ("") group: pods, services, endpoints, namespaces, configmaps, secrets,
// serviceaccounts, persistentvolumeclaims and events (also served as events.k8s.io).
#include "apiserver/table/printers_internal.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace capstan::apiserver::table::printers {
namespace {

// ---- pods -------------------------------------------------------------------------------------

bool restartable_init_container(const json::Value* c) {
  return c && json::get_string(*c, {"restartPolicy"}) == "Always";
}

bool condition_true(const json::Value& pod, std::string_view type) {
  if (const auto* conds = json::get_array(pod, {"status", "conditions"}))
    for (const auto& c : *conds)
      if (json::get_string(c, {"type"}) == type) return json::get_string(c, {"status"}) == "True";
  return false;
}

bool has_pod_ready_condition(const json::Value& pod) {
  if (const auto* conds = json::get_array(pod, {"status", "conditions"}))
    for (const auto& c : *conds)
      if (json::get_string(c, {"type"}) == "Ready" && json::get_string(c, {"status"}) == "True") return true;
  return false;
}

// Moves `latest` to the container's last termination time when that is later.
void note_termination(const json::Value& status, std::optional<meta::TimePoint>& latest) {
  if (!json::get_object(status, {"lastState", "terminated"})) return;
  auto t = timestamp_at(status, {"lastState", "terminated", "finishedAt"});
  if (t && (!latest || *latest < *t)) latest = t;
}

std::string exit_reason(const json::Value& terminated, std::string_view prefix) {
  auto signal = int_at(terminated, {"signal"});
  if (signal != 0) return std::string(prefix) + "Signal:" + std::to_string(signal);
  return std::string(prefix) + "ExitCode:" + std::to_string(int_at(terminated, {"exitCode"}));
}

Row pod_row(const json::Value& pod, meta::TimePoint now) {
  Row row = named_row(pod);
  const auto* containers = json::get_array(pod, {"spec", "containers"});
  const auto* init_specs = json::get_array(pod, {"spec", "initContainers"});
  std::int64_t restarts = 0;
  std::int64_t restartable_init_restarts = 0;
  std::int64_t total = containers ? static_cast<std::int64_t>(containers->size()) : 0;
  std::int64_t ready = 0;
  std::optional<meta::TimePoint> last_restart, last_restartable_init_restart;

  std::string phase = str_at(pod, {"status", "phase"});
  std::string reason = phase;
  if (auto r = str_at(pod, {"status", "reason"}); !r.empty()) reason = r;
  if (const auto* conds = json::get_array(pod, {"status", "conditions"}))
    for (const auto& c : *conds)
      if (json::get_string(c, {"type"}) == "PodScheduled" && json::get_string(c, {"reason"}) == "SchedulingGated")
        reason = "SchedulingGated";

  if (phase == "Succeeded")
    row.conditions.push_back({"Completed", "True", "Succeeded", "The pod has completed successfully."});
  else if (phase == "Failed")
    row.conditions.push_back({"Completed", "True", "Failed", "The pod failed."});

  std::map<std::string, const json::Value*, std::less<>> init_by_name;
  if (init_specs) {
    for (const auto& c : *init_specs) {
      init_by_name[std::string(json::get_string(c, {"name"}))] = &c;
      if (restartable_init_container(&c)) ++total;
    }
  }
  const std::size_t init_count = init_specs ? init_specs->size() : 0;

  bool initializing = false;
  if (const auto* statuses = json::get_array(pod, {"status", "initContainerStatuses"})) {
    for (std::size_t i = 0; i < statuses->size(); ++i) {
      const auto& cs = (*statuses)[i];
      restarts += int_at(cs, {"restartCount"});
      note_termination(cs, last_restart);
      auto it = init_by_name.find(json::get_string(cs, {"name"}));
      const bool restartable = it != init_by_name.end() && restartable_init_container(it->second);
      if (restartable) {
        restartable_init_restarts += int_at(cs, {"restartCount"});
        note_termination(cs, last_restartable_init_restart);
      }
      const auto* terminated = json::get_object(cs, {"state", "terminated"});
      const auto* waiting = json::get_object(cs, {"state", "waiting"});
      if (terminated && int_at(cs, {"state", "terminated", "exitCode"}) == 0) continue;
      if (restartable && json::get_bool(cs, {"started"})) {
        if (json::get_bool(cs, {"ready"})) ++ready;
        continue;
      }
      if (terminated) {
        auto r = str_at(cs, {"state", "terminated", "reason"});
        reason = r.empty() ? exit_reason(*json::find(cs, {"state", "terminated"}), "Init:") : "Init:" + r;
      } else if (waiting && !str_at(cs, {"state", "waiting", "reason"}).empty() &&
                 str_at(cs, {"state", "waiting", "reason"}) != "PodInitializing") {
        reason = "Init:" + str_at(cs, {"state", "waiting", "reason"});
      } else {
        reason = "Init:" + std::to_string(i) + "/" + std::to_string(init_count);
      }
      initializing = true;
      break;
    }
  }

  if (!initializing || condition_true(pod, "Initialized")) {
    restarts = restartable_init_restarts;
    last_restart = last_restartable_init_restart;
    bool has_running = false;
    if (const auto* statuses = json::get_array(pod, {"status", "containerStatuses"})) {
      for (auto it = statuses->rbegin(); it != statuses->rend(); ++it) {
        const auto& cs = *it;
        restarts += int_at(cs, {"restartCount"});
        note_termination(cs, last_restart);
        const auto* terminated = json::find(cs, {"state", "terminated"});
        bool is_terminated = terminated && terminated->is_object();
        if (json::get_object(cs, {"state", "waiting"}) && !str_at(cs, {"state", "waiting", "reason"}).empty()) {
          reason = str_at(cs, {"state", "waiting", "reason"});
        } else if (is_terminated && !str_at(cs, {"state", "terminated", "reason"}).empty()) {
          reason = str_at(cs, {"state", "terminated", "reason"});
        } else if (is_terminated) {
          reason = exit_reason(*terminated, "");
        } else if (json::get_bool(cs, {"ready"}) && json::get_object(cs, {"state", "running"})) {
          has_running = true;
          ++ready;
        }
      }
    }
    if (reason == "Completed" && has_running) reason = has_pod_ready_condition(pod) ? "Running" : "NotReady";
  }

  const bool deleting = !str_at(pod, {"metadata", "deletionTimestamp"}).empty();
  if (deleting && str_at(pod, {"status", "reason"}) == "NodeLost") {
    reason = "Unknown";
  } else if (deleting && phase != "Failed" && phase != "Succeeded") {
    reason = "Terminating";
  }

  std::string restarts_str = std::to_string(restarts);
  if (restarts != 0 && last_restart)
    restarts_str += " (" + go_human_duration(std::chrono::duration_cast<std::chrono::nanoseconds>(now - *last_restart)) +
                    " ago)";

  row.cells.emplace_back(std::to_string(ready) + "/" + std::to_string(total));
  row.cells.emplace_back(reason);
  row.cells.emplace_back(restarts_str);
  row.cells.emplace_back(age_of(pod, now));

  // Wide columns. status.podIP stands in for status.podIPs as the v1 -> internal conversion does.
  std::string pod_ip;
  if (const auto* ips = json::get_array(pod, {"status", "podIPs"}); ips && !ips->empty())
    pod_ip = std::string(json::get_string((*ips)[0], {"ip"}));
  else
    pod_ip = str_at(pod, {"status", "podIP"});
  std::string readiness_gates = "<none>";
  if (const auto* gates = json::get_array(pod, {"spec", "readinessGates"}); gates && !gates->empty()) {
    std::size_t true_conditions = 0;
    const auto* conds = json::get_array(pod, {"status", "conditions"});
    for (const auto& g : *gates) {
      auto type = json::get_string(g, {"conditionType"});
      if (!conds) continue;
      for (const auto& c : *conds) {
        if (json::get_string(c, {"type"}) == type) {
          if (json::get_string(c, {"status"}) == "True") ++true_conditions;
          break;
        }
      }
    }
    readiness_gates = std::to_string(true_conditions) + "/" + std::to_string(gates->size());
  }
  row.cells.emplace_back(or_default(pod_ip, "<none>"));
  row.cells.emplace_back(or_default(str_at(pod, {"spec", "nodeName"}), "<none>"));
  row.cells.emplace_back(or_default(str_at(pod, {"status", "nominatedNodeName"}), "<none>"));
  row.cells.emplace_back(readiness_gates);
  return row;
}

std::vector<ColumnDefinition> pod_columns() {
  return {
      name_column(),
      column("Ready", "string", "The aggregate readiness state of this pod for accepting traffic."),
      column("Status", "string", "The aggregate status of the containers in this pod."),
      column("Restarts", "string",
             "The number of times the containers in this pod have been restarted and when the last container in "
             "this pod has restarted."),
      age_column(),
      column("IP", "string",
             "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.",
             1),
      column("Node", "string",
             "NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for "
             "scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this "
             "node becomes responsible for the lifecycle of this pod. This field should not be used to express a "
             "desire for the pod to be scheduled on a specific node. "
             "https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename",
             1),
      column("Nominated Node", "string",
             "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be "
             "scheduled right away as preemption victims receive their graceful termination periods. This field "
             "does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod "
             "elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on "
             "this node to a higher priority pod that is created after preemption. As a result, this field may be "
             "different than PodSpec.nodeName when the pod is scheduled.",
             1),
      column("Readiness Gates", "string",
             "If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its "
             "containers are ready AND all conditions specified in the readiness gates have status equal to "
             "\"True\" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates",
             1),
  };
}

// ---- services ---------------------------------------------------------------------------------

std::string service_type(const json::Value& svc) { return or_default(str_at(svc, {"spec", "type"}), "ClusterIP"); }

std::string service_external_ip(const json::Value& svc) {
  auto type = service_type(svc);
  auto external = strings_at(svc, {"spec", "externalIPs"});
  if (type == "ClusterIP" || type == "NodePort") return external.empty() ? "<none>" : join(external, ",");
  if (type == "LoadBalancer") {
    auto lb = load_balancer_ingress(svc);
    if (!external.empty()) {
      std::vector<std::string> results;
      if (!lb.empty()) {
        std::size_t b = 0;
        while (true) {
          auto e = lb.find(',', b);
          results.push_back(lb.substr(b, e == std::string::npos ? std::string::npos : e - b));
          if (e == std::string::npos) break;
          b = e + 1;
        }
      }
      results.insert(results.end(), external.begin(), external.end());
      return join(results, ",");
    }
    return lb.empty() ? "<pending>" : lb;
  }
  if (type == "ExternalName") return str_at(svc, {"spec", "externalName"});
  return "<unknown>";
}

std::string service_ports(const json::Value& svc) {
  std::vector<std::string> pieces;
  if (const auto* ports = json::get_array(svc, {"spec", "ports"})) {
    for (const auto& p : *ports) {
      auto proto = or_default(str_at(p, {"protocol"}), "TCP");
      auto port = std::to_string(int_at(p, {"port"}));
      auto node_port = int_at(p, {"nodePort"});
      pieces.push_back(node_port > 0 ? port + ":" + std::to_string(node_port) + "/" + proto : port + "/" + proto);
    }
  }
  return join(pieces, ",");
}

Row service_row(const json::Value& svc, meta::TimePoint now) {
  Row row = named_row(svc);
  std::string cluster_ip = "<none>";
  if (auto ips = strings_at(svc, {"spec", "clusterIPs"}); !ips.empty())
    cluster_ip = ips[0];
  else if (auto ip = str_at(svc, {"spec", "clusterIP"}); !ip.empty())
    cluster_ip = ip;  // what the v1 -> internal conversion derives clusterIPs from
  row.cells.emplace_back(service_type(svc));
  row.cells.emplace_back(cluster_ip);
  row.cells.emplace_back(service_external_ip(svc));
  row.cells.emplace_back(or_default(service_ports(svc), "<none>"));
  row.cells.emplace_back(age_of(svc, now));
  row.cells.emplace_back(format_labels(json::get_object(svc, {"spec", "selector"})));
  return row;
}

std::vector<ColumnDefinition> service_columns() {
  return {
      name_column(),
      column("Type", "string",
             "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, "
             "ClusterIP, NodePort, and LoadBalancer. \"ClusterIP\" allocates a cluster-internal IP address for "
             "load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by "
             "manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is \"None\", no "
             "virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual "
             "IP. \"NodePort\" builds on ClusterIP and allocates a port on every node which routes to the same "
             "endpoints as the clusterIP. \"LoadBalancer\" builds on NodePort and creates an external load-balancer "
             "(if supported in the current cloud) which routes to the same endpoints as the clusterIP. "
             "\"ExternalName\" aliases this service to the specified externalName. Several other fields do not "
             "apply to ExternalName services. More info: "
             "https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types"),
      column("Cluster-IP", "string",
             "clusterIP is the IP address of the service and is usually assigned randomly. If an address is "
             "specified manually, is in-range (as per system configuration), and is not in use, it will be "
             "allocated to the service; otherwise creation of the service will fail. This field may not be changed "
             "through updates unless the type field is also being changed to ExternalName (which requires this "
             "field to be blank) or the type field is being changed from ExternalName (in which case this field may "
             "optionally be specified, as describe above).  Valid values are \"None\", empty string (\"\"), or a "
             "valid IP address. Setting this to \"None\" makes a \"headless service\" (no virtual IP), which is "
             "useful when direct endpoint connections are preferred and proxying is not required.  Only applies to "
             "types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of "
             "type ExternalName, creation will fail. This field will be wiped when updating a Service to type "
             "ExternalName. More info: "
             "https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies"),
      column("External-IP", "string",
             "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for "
             "this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that "
             "traffic arrives at a node with this IP.  A common example is external load-balancers that are not "
             "part of the Kubernetes system."),
      column("Port(s)", "string",
             "The list of ports that are exposed by this service. More info: "
             "https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies"),
      age_column(),
      column("Selector", "string",
             "Route service traffic to pods with label keys and values matching this selector. If empty or not "
             "present, the service is assumed to have an external process managing its endpoints, which Kubernetes "
             "will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is "
             "ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/",
             1),
  };
}

// ---- endpoints --------------------------------------------------------------------------------

// net.JoinHostPort: IPv6 hosts in brackets.
std::string join_host_port(std::string_view host, std::int64_t port) {
  const bool v6 = host.find(':') != std::string_view::npos;
  std::string out;
  if (v6) out += '[';
  out += host;
  if (v6) out += ']';
  out += ':';
  out += std::to_string(port);
  return out;
}

std::string format_endpoints(const json::Value& ep) {
  const auto* subsets = json::get_array(ep, {"subsets"});
  if (!subsets || subsets->empty()) return "<none>";
  std::vector<std::string> list;
  const std::size_t max = 3;
  bool more = false;
  std::size_t count = 0;
  for (const auto& ss : *subsets) {
    const auto* addrs = json::get_array(ss, {"addresses"});
    const auto* ports = json::get_array(ss, {"ports"});
    const std::size_t naddrs = addrs ? addrs->size() : 0;
    if (!ports || ports->empty()) {
      // Headless services may have no ports.
      count += naddrs;
      for (std::size_t i = 0; i < naddrs; ++i) {
        if (list.size() == max) {
          more = true;
          break;
        }
        list.emplace_back(json::get_string((*addrs)[i], {"ip"}));
      }
      continue;
    }
    for (const auto& port : *ports) {
      count += naddrs;
      for (std::size_t i = 0; i < naddrs; ++i) {
        if (list.size() == max) {
          more = true;
          break;
        }
        list.push_back(join_host_port(json::get_string((*addrs)[i], {"ip"}), int_at(port, {"port"})));
      }
    }
  }
  std::string ret = join(list, ",");
  if (more) return ret + " + " + std::to_string(count - max) + " more...";
  return ret;
}

Row endpoints_row(const json::Value& ep, meta::TimePoint now) {
  Row row = named_row(ep);
  row.cells.emplace_back(format_endpoints(ep));
  row.cells.emplace_back(age_of(ep, now));
  return row;
}

std::vector<ColumnDefinition> endpoints_columns() {
  return {
      name_column(),
      column("Endpoints", "string",
             "The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to "
             "the IPs they share. A single address with multiple ports, some of which are ready and some of which "
             "are not (because they come from different containers) will result in the address being displayed in "
             "different subsets for the different ports. No address will appear in both Addresses and "
             "NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service."),
      age_column(),
  };
}

// ---- namespaces, configmaps, secrets, serviceaccounts -----------------------------------------

Row namespace_row(const json::Value& ns, meta::TimePoint now) {
  Row row = named_row(ns);
  std::string phase = str_at(ns, {"status", "phase"});
  if (phase.empty()) phase = str_at(ns, {"metadata", "deletionTimestamp"}).empty() ? "Active" : "Terminating";
  row.cells.emplace_back(phase);
  row.cells.emplace_back(age_of(ns, now));
  return row;
}

Row configmap_row(const json::Value& cm, meta::TimePoint now) {
  Row row = named_row(cm);
  row.cells.emplace_back(static_cast<std::int64_t>(size_at(cm, {"data"}) + size_at(cm, {"binaryData"})));
  row.cells.emplace_back(age_of(cm, now));
  return row;
}

Row secret_row(const json::Value& s, meta::TimePoint now) {
  Row row = named_row(s);
  row.cells.emplace_back(or_default(str_at(s, {"type"}), "Opaque"));
  row.cells.emplace_back(static_cast<std::int64_t>(size_at(s, {"data"})));
  row.cells.emplace_back(age_of(s, now));
  return row;
}

// kube 1.37 prints no Secrets column any more.
Row serviceaccount_row(const json::Value& sa, meta::TimePoint now) {
  Row row = named_row(sa);
  row.cells.emplace_back(age_of(sa, now));
  return row;
}

// ---- persistentvolumeclaims -------------------------------------------------------------------

Row pvc_row(const json::Value& pvc, meta::TimePoint now) {
  Row row = named_row(pvc);
  std::string phase = str_at(pvc, {"status", "phase"});
  if (!str_at(pvc, {"metadata", "deletionTimestamp"}).empty()) phase = "Terminating";
  std::string volume = str_at(pvc, {"spec", "volumeName"});
  std::string capacity, access_modes;
  if (!volume.empty()) {
    access_modes = access_modes_at(pvc, {"status", "accessModes"});
    const auto* q = json::find(pvc, {"status", "capacity", "storage"});
    capacity = q && q->is_string() ? std::string(q->get_string()) : "0";
  }
  std::string storage_class = storage_class_of(pvc);
  row.cells.emplace_back(phase);
  row.cells.emplace_back(volume);
  row.cells.emplace_back(capacity);
  row.cells.emplace_back(access_modes);
  row.cells.emplace_back(storage_class);
  row.cells.emplace_back(str_or_unset(pvc, {"spec", "volumeAttributesClassName"}));
  row.cells.emplace_back(age_of(pvc, now));
  row.cells.emplace_back(str_or_unset(pvc, {"spec", "volumeMode"}));
  return row;
}

std::vector<ColumnDefinition> pvc_columns() {
  return {
      name_column(),
      column("Status", "string", "phase represents the current phase of PersistentVolumeClaim."),
      column("Volume", "string", "volumeName is the binding reference to the PersistentVolume backing this claim."),
      column("Capacity", "string", "capacity represents the actual resources of the underlying volume."),
      column("Access Modes", "string",
             "accessModes contains the actual access modes the volume backing the PVC has. More info: "
             "https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1"),
      column("StorageClass", "string", "StorageClass of the pvc"),
      column("VolumeAttributesClass", "string", "VolumeAttributesClass of the pvc"),
      age_column(),
      column("VolumeMode", "string",
             "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when "
             "not included in claim spec.",
             1),
  };
}

// ---- events -----------------------------------------------------------------------------------

// The fields printEvent reads, from either a core/v1 or an events.k8s.io/v1 Event (both are the
// same internal type upstream; events.k8s.io renames them).
struct EventView {
  std::string name, type, reason, message;
  std::string kind, object_name, field_path;
  std::string source_component, source_host, reporting_controller, reporting_instance;
  std::string first_timestamp, last_timestamp, event_time;
  std::int64_t count = 0;
  bool has_series = false;
  std::int64_t series_count = 0;
  std::string series_last_observed;
};

EventView event_view(const json::Value& e) {
  EventView v;
  const bool events_v1 = json::get_string(e, {"apiVersion"}).starts_with("events.k8s.io/") ||
                         (!json::find(e, {"involvedObject"}) && json::find(e, {"regarding"}));
  v.name = str_at(e, {"metadata", "name"});
  v.type = str_at(e, {"type"});
  v.reason = str_at(e, {"reason"});
  v.event_time = str_at(e, {"eventTime"});
  v.reporting_controller = str_at(e, {"reportingController"});
  v.reporting_instance = str_at(e, {"reportingInstance"});
  if (const auto* s = json::get_object(e, {"series"})) {
    v.has_series = true;
    json::Value series(*s);
    v.series_count = int_at(series, {"count"});
    v.series_last_observed = str_at(series, {"lastObservedTime"});
  }
  if (events_v1) {
    v.message = str_at(e, {"note"});
    v.kind = str_at(e, {"regarding", "kind"});
    v.object_name = str_at(e, {"regarding", "name"});
    v.field_path = str_at(e, {"regarding", "fieldPath"});
    v.source_component = str_at(e, {"deprecatedSource", "component"});
    v.source_host = str_at(e, {"deprecatedSource", "host"});
    v.first_timestamp = str_at(e, {"deprecatedFirstTimestamp"});
    v.last_timestamp = str_at(e, {"deprecatedLastTimestamp"});
    v.count = int_at(e, {"deprecatedCount"});
  } else {
    v.message = str_at(e, {"message"});
    v.kind = str_at(e, {"involvedObject", "kind"});
    v.object_name = str_at(e, {"involvedObject", "name"});
    v.field_path = str_at(e, {"involvedObject", "fieldPath"});
    v.source_component = str_at(e, {"source", "component"});
    v.source_host = str_at(e, {"source", "host"});
    v.first_timestamp = str_at(e, {"firstTimestamp"});
    v.last_timestamp = str_at(e, {"lastTimestamp"});
    v.count = int_at(e, {"count"});
  }
  return v;
}

bool zero_time(const std::string& ts) { return ts.empty() || !meta::parse_rfc3339(ts); }

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim_space(std::string_view s) {
  auto b = s.find_first_not_of(" \t\n\r\v\f");
  if (b == std::string_view::npos) return {};
  auto e = s.find_last_not_of(" \t\n\r\v\f");
  return std::string(s.substr(b, e - b + 1));
}

Row event_row(const json::Value& obj, meta::TimePoint now) {
  EventView e = event_view(obj);
  Row row;
  std::string first = zero_time(e.first_timestamp) ? since(e.event_time, now) : since(e.first_timestamp, now);
  std::string last = zero_time(e.last_timestamp) ? first : since(e.last_timestamp, now);
  std::int64_t count = e.count;
  if (e.has_series) {
    last = since(e.series_last_observed, now);
    count = e.series_count;
  } else if (count == 0) {
    count = 1;  // singleton events have no count in the new API
  }
  std::string target = e.object_name.empty() ? lower(e.kind) : lower(e.kind) + "/" + e.object_name;
  std::string component = e.source_component.empty() ? e.reporting_controller : e.source_component;
  std::string instance = e.source_host.empty() ? e.reporting_instance : e.source_host;
  std::string source = instance.empty() ? component : component + ", " + instance;
  row.cells.emplace_back(last);
  row.cells.emplace_back(e.type);
  row.cells.emplace_back(e.reason);
  row.cells.emplace_back(target);
  row.cells.emplace_back(e.field_path);
  row.cells.emplace_back(source);
  row.cells.emplace_back(trim_space(e.message));
  row.cells.emplace_back(first);
  row.cells.emplace_back(count);
  row.cells.emplace_back(e.name);
  return row;
}

std::vector<ColumnDefinition> event_columns() {
  ColumnDefinition name = name_column();
  name.priority = 1;
  return {
      column("Last Seen", "string", "The time at which the most recent occurrence of this event was recorded."),
      column("Type", "string", "Type of this event (Normal, Warning), new types could be added in the future"),
      column("Reason", "string",
             "This should be a short, machine understandable string that gives the reason for the transition into "
             "the object's current status."),
      column("Object", "string", "The object that this event is about."),
      column("Subobject", "string",
             "If referring to a piece of an object instead of an entire object, this string should contain a valid "
             "JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the "
             "object reference is to a container within a pod, this would take on a value like: "
             "\"spec.containers{name}\" (where \"name\" refers to the name of the container that triggered the "
             "event) or if no container name is specified \"spec.containers[2]\" (container with index 2 in this "
             "pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.",
             1),
      column("Source", "string", "The component reporting this event. Should be a short machine understandable string.",
             1),
      column("Message", "string", "A human-readable description of the status of this operation."),
      column("First Seen", "string", "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)",
             1),
      column("Count", "string", "The number of times this event has occurred.", 1),
      name,
  };
}

}  // namespace

void add_core(std::vector<Entry>& out) {
  out.push_back({"", "pods", FnConverter(pod_columns(), pod_row)});
  out.push_back({"", "services", FnConverter(service_columns(), service_row)});
  out.push_back({"", "endpoints", FnConverter(endpoints_columns(), endpoints_row)});
  out.push_back({"", "namespaces",
                 FnConverter({name_column(), column("Status", "string", "The status of the namespace"), age_column()},
                             namespace_row)});
  out.push_back({"", "configmaps",
                 FnConverter({name_column(),
                              column("Data", "string",
                                     "Data contains the configuration data. Each key must consist of alphanumeric "
                                     "characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the "
                                     "BinaryData field. The keys stored in Data must not overlap with the keys in the "
                                     "BinaryData field, this is enforced during validation process."),
                              age_column()},
                             configmap_row)});
  out.push_back({"", "secrets",
                 FnConverter({name_column(),
                              column("Type", "string",
                                     "Used to facilitate programmatic handling of secret data. More info: "
                                     "https://kubernetes.io/docs/concepts/configuration/secret/#secret-types"),
                              column("Data", "string",
                                     "Data contains the secret data. Each key must consist of alphanumeric characters, "
                                     "'-', '_' or '.'. The serialized form of the secret data is a base64 encoded "
                                     "string, representing the arbitrary (possibly non-string) data value here. "
                                     "Described in https://tools.ietf.org/html/rfc4648#section-4"),
                              age_column()},
                             secret_row)});
  out.push_back(
      {"", "serviceaccounts", FnConverter({name_column(), age_column()}, serviceaccount_row)});
  out.push_back({"", "persistentvolumeclaims", FnConverter(pvc_columns(), pvc_row)});
  out.push_back({"", "events", FnConverter(event_columns(), event_row)});
  out.push_back({"events.k8s.io", "events", FnConverter(event_columns(), event_row)});
}

}  // namespace capstan::apiserver::table::printers
