#include "e2e/differential/allowlist.h"

#include <regex>

namespace capstan::e2e::diff {
namespace {

// The difference lines of a "... missing on the embedded server" comparison (discovery cases)
// that name only entries of `names` (a regex alternation).
std::string only_on_kube(const std::string& names) {
  return R"re(^/names(: 0 items on embedded, \d+ on kube|/\d+: only on kube: "()re" + names + R"re()")$)re";
}

const std::string kDiscovery = "^discovery/(Legacy|Aggregated)Discovery/";

}  // namespace

const std::vector<Allowance>& allowlist() {
  static const std::vector<Allowance> list = {
      {"^watch/AResourceVersionOlderThanTheHistoryIsGone/watch from resourceVersion 1$",
       R"re(^/0/object/message: embedded "too old resource version: <n> \(<n>\)", kube "The resourceVersion for the provided watch is too old\."$)re",
       "both answer 410 Expired; the embedded server words it as kube-apiserver's watch cache does, this kube path (a "
       "resource without watch cache) as etcd's watcher does"},
      {"^validation/FieldValidationStrictWarnIgnore/Strict on a merge patch$",
       "^(/message|/details/causes/0/message): embedded ",
       "the strict-decoding error quotes the whole patched object; kube prints its nested members in Go struct order, "
       "the embedded server in sorted order (same members and values)"},
      // Discovery: built-in APIs kube-apiserver serves and the embedded server does not.
      {kDiscovery + "(aggregated )?group missing on the embedded server$",
       only_on_kube(R"(certificates\.k8s\.io|node\.k8s\.io|resource\.k8s\.io|)"
                    R"(flowcontrol\.apiserver\.k8s\.io|storagemigration\.k8s\.io)"),
       "API groups not served: certificates (no CSR signers), node (RuntimeClass "
       "needs a container runtime), resource (DRA needs drivers), flowcontrol (no priority and fairness), storagemigration"},
      {kDiscovery + "(aggregated )?group autoscaling$", "^/(preferredVersion|versions)",
       "HorizontalPodAutoscaler is served as autoscaling/v2 only: autoscaling/v1 needs the v1<->v2 conversion "
       "(targetCPUUtilizationPercentage and the annotations carrying other metrics) to be right"},
      {kDiscovery + "(core|aggregated v1) resource missing on the embedded server$",
       only_on_kube(R"(bindings|componentstatuses|replicationcontrollers(/scale|/status)?|)"
                    R"(pods/(attach|ephemeralcontainers|eviction|exec|log|portforward|proxy|resize)|)"
                    R"(nodes/proxy|services/proxy)"),
       "core resources not served: bindings (the deprecated form of pods/binding, which is served), "
       "componentstatuses (deprecated), replicationcontrollers (no controller drives them); pods/attach, exec, log, "
       "portforward, proxy, nodes/proxy and services/proxy need a kubelet or a real endpoint; pods/eviction, "
       "ephemeralcontainers and resize are not implemented"},
      {"^discovery/AggregatedDiscovery/aggregated v1 resource (pods|nodes|services) subresource missing on the embedded server$",
       only_on_kube("attach|ephemeralcontainers|eviction|exec|log|portforward|proxy|resize"),
       "the same pod, node and service subresources as in legacy discovery (see the core resources' reason)"},
      {"^discovery/AggregatedDiscovery/aggregated storage\\.k8s\\.io/v1 resource missing on the embedded server$",
       only_on_kube("csidrivers|csinodes|csistoragecapacities|volumeattachments|volumeattributesclasses"),
       "CSI objects are not served: there are no CSI drivers (PVCs bind through the workload simulator)"},
      {"^discovery/AggregatedDiscovery/aggregated networking\\.k8s\\.io/v1 resource missing on the embedded server$",
       only_on_kube("ipaddresses|servicecidrs"),
       "ClusterIPs are allocated from one fixed range without the IPAddress/ServiceCIDR objects"},
      {"^discovery/AggregatedDiscovery/aggregated admissionregistration\\.k8s\\.io/v1 resource missing on the embedded server$",
       only_on_kube("(validating|mutating)admissionpolic(ies|ybindings)"),
       "CEL admission policies are not implemented (admission webhooks are)"},
  };
  return list;
}

std::string allowed(const Result& r) {
  std::string reason;
  for (const auto& d : r.differences) {
    const Allowance* hit = nullptr;
    for (const auto& a : allowlist())
      if (std::regex_search(r.id, std::regex(a.id_pattern)) && std::regex_search(d, std::regex(a.diff_pattern))) {
        hit = &a;
        break;
      }
    if (!hit) return "";
    if (reason.find(hit->reason) == std::string::npos) reason += (reason.empty() ? "" : "; ") + hit->reason;
  }
  return reason;
}

}  // namespace capstan::e2e::diff
