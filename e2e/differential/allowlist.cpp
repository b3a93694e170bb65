#include "e2e/differential/allowlist.h"

#include <regex>

namespace capstan::e2e::diff {

const std::vector<Allowance>& allowlist() {
  static const std::vector<Allowance> list = {
      {"^crd/ValidationErrors/(a CEL rule across fields fails|minimum and maximum)$",
       "CEL|replicas must not exceed size|status: embedded 201, kube 422|only on embedded|only on kube|some validation rules were not checked",
       "x-kubernetes-validations (CEL) rules are not evaluated by the embedded server yet (issue 13); schema errors and "
       "the rules-not-checked cause match"},
      {"^watch/AResourceVersionOlderThanTheHistoryIsGone/watch from resourceVersion 1$",
       "^/0/object/message: embedded \"too old resource version: <n> \(<n>\)\", kube \"The resourceVersion for the provided watch is too old\.\"$",
       "both answer 410 Expired; the embedded server words it as kube-apiserver's watch cache does, this kube path (a "
       "resource without watch cache) as etcd's watcher does"},
      {"^validation/FieldValidationStrictWarnIgnore/Strict on a merge patch$",
       "^(/message|/details/causes/0/message): embedded ",
       "the strict-decoding error quotes the whole patched object; kube prints its nested members in Go struct order, "
       "the embedded server in sorted order (same members and values)"},
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
