#include "apiserver/system/clusterrole_aggregation_controller.h"

#include "apiserver/auth/policy_rule.h"
#include "runtime/meta/object.h"
#include "runtime/meta/selector.h"

#include <algorithm>

namespace capstan::apiserver::system {
namespace {

const std::string kClusterRoles = "clusterroles.rbac.authorization.k8s.io";
constexpr std::string_view kFieldManager = "clusterrole-aggregation-controller";

// The rules `role` aggregates from `all` (every ClusterRole, in name order).
std::vector<auth::PolicyRule> aggregated_rules(const json::Value& role, const std::vector<storage::Object>& all) {
  std::vector<auth::PolicyRule> out;
  std::string_view self = meta::name_of(role);
  for (const auto& selector : *json::get_array(role, {"aggregationRule", "clusterRoleSelectors"})) {
    auto sel = meta::LabelSelector::from_json(&selector);  // throws SelectorError
    for (const auto& other : all) {
      if (meta::name_of(*other.value) == self || !sel.matches(*other.value)) continue;
      for (auto& r : auth::parse_policy_rules(json::find(*other.value, {"rules"})))
        if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace

ClusterRoleAggregationController::ClusterRoleAggregationController(rest::Service& service)
    : service_(service), loop_("clusterrole-aggregation", service.store(), [this](const Key&) {
        sync_all();
        return std::chrono::milliseconds(0);
      }) {}

void ClusterRoleAggregationController::start() {
  sync_all();
  // Every ClusterRole change can change any aggregation: one key stands for "recompute all".
  loop_.watch(kClusterRoles, [](const storage::Event&) { return std::vector<Key>{Key{kClusterRoles, "", ""}}; });
  loop_.start();
}

int ClusterRoleAggregationController::sync_all() {
  auto all = service_.store().list(kClusterRoles, "", "", 0).items;
  auto resource = service_.registry().find_group_resource(kClusterRoles);
  int written = 0;
  for (const auto& o : all) {
    const json::Value& role = *o.value;
    const auto* selectors = json::get_array(role, {"aggregationRule", "clusterRoleSelectors"});
    if (!selectors) continue;
    std::string name(meta::name_of(role));
    std::vector<auth::PolicyRule> rules;
    try {
      rules = aggregated_rules(role, all);
    } catch (const meta::SelectorError& e) {
      log::warn("ClusterRole has an invalid aggregationRule; not aggregating", {{"clusterRole", name}, {"error", e.what()}});
      continue;
    }
    if (rules == auth::parse_policy_rules(json::find(role, {"rules"}))) continue;
    json::Object apply{{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", "ClusterRole"}, {"metadata", json::Object{{"name", name}}}};
    if (!rules.empty()) apply["rules"] = auth::to_json(rules);
    rest::WriteOptions wo;
    wo.field_manager = std::string(kFieldManager);
    try {
      service_.patch(rest::Target{resource, "v1", "", name, ""}, rest::PatchType::Apply, json::serialize(apply), true, wo);
      ++written;
    } catch (const ApiError& e) {
      if (e.code == 404) continue;  // deleted meanwhile
      throw;
    }
  }
  return written;
}

}  // namespace capstan::apiserver::system
