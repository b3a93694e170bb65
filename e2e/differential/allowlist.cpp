#include "e2e/differential/allowlist.h"

#include <regex>

namespace capstan::e2e::diff {

const std::vector<Allowance>& allowlist() {
  static const std::vector<Allowance> list = {
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
