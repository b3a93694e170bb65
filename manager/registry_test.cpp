#include "manager/registry.h"

#include "manager/flags.h"
#include "runtime/cache/factory.h"
#include "runtime/cache/informer.h"
#include "runtime/controller/manager.h"
#include "runtime/plugin/dry_run.h"
#include "runtime/webhook/server.h"

#include <gtest/gtest.h>

#include <set>

namespace capstan::manager {
namespace {

std::vector<std::string> names_of(const std::vector<const plugin::Plugin*>& ps) {
  std::vector<std::string> out;
  for (const auto* p : ps) out.push_back(p->name());
  return out;
}

TEST(Registry, ControllersFlagNamesEveryControllerAndItsAliases) {
  using V = std::vector<std::string>;
  const auto r = all_controllers();
  EXPECT_EQ(names_of(r.enabled({"*"})), (V{"certificates", "monitoring", "kafka", "gitops"}));
  EXPECT_EQ(names_of(r.enabled({"*", "-gitops"})), (V{"certificates", "monitoring", "kafka"}));
  EXPECT_EQ(names_of(r.enabled({"strimzi", "prometheus-operator"})), (V{"monitoring", "kafka"})) << "aliases";
  EXPECT_EQ(names_of(r.enabled({"cert-manager", "flux"})), (V{"certificates", "gitops"})) << "aliases are accepted";
  try {
    r.enabled({"*", "-bogus"});
    FAIL() << "an unknown name is a usage error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("known controllers: certificates, monitoring, kafka, gitops, secretcopy"), std::string::npos) << e.what();
  }
}

// Wiring a controller with an API group serves the group's webhooks, and every resource a
// controller reads gets get, list and watch in its ClusterRole rules (the webhooks' reads
// included: gitops' Kustomizations).
TEST(Registry, EveryControllerServesItsWebhooksAndMayReadWhatItWatches) {
  const plugin::Registry controllers = all_controllers();  // outlives the loop
  for (const auto& p : controllers.all()) {
    SCOPED_TRACE(p.name());
    plugin::DryRun dry;
    p.wire(dry.wiring());
    const auto& webhooks = dry.webhooks();
    auto& mgr = dry.manager();
    EXPECT_EQ(webhooks.has_paths(), !p.crds(kReleaseEndpoint).empty());
    auto uses = p.informers();
    EXPECT_EQ(uses.size(), mgr.informers().informers().size());
    const std::string rules = json::serialize(json::Value(p.rbac_rules()));
    for (const auto& use : uses) {
      SCOPED_TRACE(use.gvr.resource);
      bool readable = false;
      for (const auto& rule : p.rbac_rules()) {
        auto has = [&](const char* key, const std::string& v) {
          for (const auto& x : *json::get_array(rule, {key}))
            if (x.get_string() == v) return true;
          return false;
        };
        if (has("apiGroups", use.gvr.group) && has("resources", use.gvr.resource) && has("verbs", "get") && has("verbs", "list") &&
            has("verbs", "watch"))
          readable = true;
      }
      EXPECT_TRUE(readable) << rules;
    }
  }
}

// Each controller with API groups configures the groups' admission webhooks, safe to fail:
// Fail, a timeout, no side effects, Equivalent matching, and the manager's namespace left out.
TEST(Registry, EveryControllerConfiguresItsGroupsWebhooks) {
  const WebhookEndpoint& ep = kReleaseEndpoint;
  const plugin::Registry controllers = all_controllers();  // outlives the loop
  for (const auto& p : controllers.all()) {
    SCOPED_TRACE(p.name());
    if (p.crds(kReleaseEndpoint).empty()) {
      EXPECT_TRUE(p.webhook_configurations(ep).empty());
      continue;
    }
    std::set<std::string> crd_groups;
    for (const auto& crd : p.crds(kReleaseEndpoint)) crd_groups.insert(std::string(json::get_string(crd, {"spec", "group"})));
    std::set<std::string> resources;
    for (const auto& crd : p.crds(kReleaseEndpoint)) resources.insert(std::string(json::get_string(crd, {"spec", "names", "plural"})));
    auto cfgs = p.webhook_configurations(ep);
    ASSERT_FALSE(cfgs.empty());
    std::set<std::string> validated;
    for (const auto& cfg : cfgs) {
      EXPECT_EQ(json::get_string(cfg, {"metadata", "name"}), "capstan-" + p.name());
      for (const auto& h : *json::get_array(cfg, {"webhooks"})) {
        EXPECT_EQ(json::get_string(h, {"failurePolicy"}), "Fail");
        EXPECT_EQ(json::get_string(h, {"sideEffects"}), "None");
        EXPECT_EQ(json::get_string(h, {"matchPolicy"}), "Equivalent");
        EXPECT_EQ(json::get_int(h, {"timeoutSeconds"}), 10);
        EXPECT_EQ(json::serialize(*json::find(h, {"namespaceSelector"})),
                  R"({"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"NotIn","values":["capstan-system"]}]})");
        const auto& rule = json::get_array(h, {"rules"})->at(0);
        const json::Array* groups = json::get_array(rule, {"apiGroups"});
        ASSERT_TRUE(groups && groups->size() == 1) << json::serialize(rule);
        EXPECT_TRUE(crd_groups.contains(std::string(groups->at(0).get_string()))) << "a group of this controller's CRDs";
        if (json::get_string(cfg, {"kind"}) == "ValidatingWebhookConfiguration")
          for (const auto& r : *json::get_array(rule, {"resources"})) {
            std::string res(r.get_string());
            if (res.find('/') == std::string::npos) validated.insert(res);
          }
      }
    }
    EXPECT_EQ(validated, resources) << "every kind of the group is validated";
  }
}

}  // namespace
}  // namespace capstan::manager
