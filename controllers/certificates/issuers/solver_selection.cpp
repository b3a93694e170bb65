#include "controllers/certificates/issuers/solver_selection.h"

#include "controllers/certificates/acme/resources.h"

#include <algorithm>
#include <tuple>

namespace capstan::certificates {
namespace {

bool labels_match(const std::map<std::string, std::string>& want, const std::map<std::string, std::string>& have) {
  for (const auto& [k, v] : want) {
    auto it = have.find(k);
    if (it == have.end() || it->second != v) return false;
  }
  return true;
}

bool in_zone(std::string_view domain, std::string_view zone) {
  if (domain.starts_with("*.")) domain.remove_prefix(2);
  if (domain == zone) return true;
  return domain.size() > zone.size() && domain.ends_with(zone) && domain[domain.size() - zone.size() - 1] == '.';
}

}  // namespace

std::string_view solver_type(const v1::AcmeChallengeSolver& solver) {
  if (solver.dns01) return acme::kDns01;
  if (solver.http01) return acme::kHttp01;
  return {};
}

std::optional<v1::AcmeChallengeSolver> select_solver(const v1::AcmeIssuer& acme, std::string_view domain,
                                                     const std::map<std::string, std::string>& labels,
                                                     const std::vector<std::string>& offered) {
  const v1::AcmeChallengeSolver* best = nullptr;
  // (names matched, zone length, labels count)
  std::tuple<int, std::size_t, std::size_t> best_score{-1, 0, 0};
  for (const auto& s : acme.solvers) {
    std::string_view type = solver_type(s);
    if (type.empty() || std::find(offered.begin(), offered.end(), type) == offered.end()) continue;
    std::tuple<int, std::size_t, std::size_t> score{0, 0, 0};
    if (s.selector) {
      const auto& sel = *s.selector;
      if (!labels_match(sel.match_labels, labels)) continue;
      std::get<2>(score) = sel.match_labels.size();
      bool name_hit = false;
      for (const auto& n : sel.dns_names)
        if (n == domain) name_hit = true;
      std::size_t zone_len = 0;
      bool zone_hit = false;
      for (const auto& z : sel.dns_zones)
        if (in_zone(domain, z) && z.size() >= zone_len) zone_len = z.size(), zone_hit = true;
      if ((!sel.dns_names.empty() || !sel.dns_zones.empty()) && !name_hit && !zone_hit) continue;
      std::get<0>(score) = name_hit ? 1 : 0;
      std::get<1>(score) = zone_len;
    }
    if (!best || score > best_score) {
      best = &s;
      best_score = score;
    }
  }
  if (!best) return std::nullopt;
  return *best;
}

}  // namespace capstan::certificates
