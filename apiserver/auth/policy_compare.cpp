#include "apiserver/auth/policy_compare.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace capstan::apiserver::auth {
namespace {

bool has(const std::vector<std::string>& set, std::string_view s) { return std::find(set.begin(), set.end(), s) != set.end(); }

bool has_all(const std::vector<std::string>& set, const std::vector<std::string>& want) {
  for (const auto& w : want)
    if (!has(set, w)) return false;
  return true;
}

bool resources_cover(const std::vector<std::string>& owner, const std::vector<std::string>& want) {
  if (has(owner, "*") || has_all(owner, want)) return true;
  for (const auto& path : want) {
    if (has(owner, path)) continue;
    auto slash = path.find('/');
    if (slash == std::string::npos) return false;
    if (!has(owner, "*/" + path.substr(slash + 1))) return false;
  }
  return true;
}

bool url_covers(std::string_view owner, std::string_view sub) {
  if (owner == sub) return true;
  if (owner.empty() || owner.back() != '*') return false;
  while (!owner.empty() && owner.back() == '*') owner.remove_suffix(1);
  return sub.substr(0, owner.size()) == owner;
}

bool urls_cover(const std::vector<std::string>& owner, const std::vector<std::string>& want) {
  for (const auto& path : want) {
    bool covered = false;
    for (const auto& o : owner)
      if (url_covers(o, path)) {
        covered = true;
        break;
      }
    if (!covered) return false;
  }
  return true;
}

bool rule_covers(const PolicyRule& owner, const PolicyRule& sub) {
  bool verbs = has(owner.verbs, "*") || has_all(owner.verbs, sub.verbs);
  bool groups = has(owner.api_groups, "*") || has_all(owner.api_groups, sub.api_groups);
  bool names = sub.resource_names.empty() ? owner.resource_names.empty()
                                          : owner.resource_names.empty() || has_all(owner.resource_names, sub.resource_names);
  return verbs && groups && resources_cover(owner.resources, sub.resources) && names &&
         urls_cover(owner.non_resource_urls, sub.non_resource_urls);
}

}  // namespace

std::vector<PolicyRule> breakdown_rule(const PolicyRule& r) {
  std::vector<PolicyRule> out;
  for (const auto& g : r.api_groups)
    for (const auto& res : r.resources)
      for (const auto& v : r.verbs) {
        if (r.resource_names.empty()) {
          out.push_back(PolicyRule{{v}, {g}, {res}, {}, {}});
        } else {
          for (const auto& n : r.resource_names) out.push_back(PolicyRule{{v}, {g}, {res}, {n}, {}});
        }
      }
  for (const auto& u : r.non_resource_urls)
    for (const auto& v : r.verbs) out.push_back(PolicyRule{{v}, {}, {}, {}, {u}});
  return out;
}

bool covers(const std::vector<PolicyRule>& owner, const std::vector<PolicyRule>& servant, std::vector<PolicyRule>* missing) {
  bool all = true;
  for (const auto& s : servant) {
    for (auto& sub : breakdown_rule(s)) {
      bool covered = std::any_of(owner.begin(), owner.end(), [&](const PolicyRule& o) { return rule_covers(o, sub); });
      if (covered) continue;
      all = false;
      if (!missing) return false;
      missing->push_back(std::move(sub));
    }
  }
  return all;
}

std::vector<PolicyRule> compact_rules(const std::vector<PolicyRule>& rules) {
  std::vector<PolicyRule> out;
  using Key = std::tuple<std::string, std::string, bool, std::string>;
  std::map<Key, std::size_t> simple;  // -> index in `merged`
  std::vector<PolicyRule> merged;
  for (const auto& r : rules) {
    bool is_simple = r.resource_names.size() <= 1 && r.non_resource_urls.empty() && r.api_groups.size() == 1 && r.resources.size() == 1;
    if (!is_simple) {
      out.push_back(r);
      continue;
    }
    Key k{r.api_groups[0], r.resources[0], !r.resource_names.empty(), r.resource_names.empty() ? "" : r.resource_names[0]};
    auto it = simple.find(k);
    if (it == simple.end()) {
      simple.emplace(k, merged.size());
      merged.push_back(r);
    } else {
      auto& verbs = merged[it->second].verbs;
      verbs.insert(verbs.end(), r.verbs.begin(), r.verbs.end());
    }
  }
  out.insert(out.end(), merged.begin(), merged.end());
  return out;
}

}  // namespace capstan::apiserver::auth
