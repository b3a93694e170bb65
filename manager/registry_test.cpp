#include "manager/registry.h"

#include "manager/flags.h"
#include "runtime/cache/factory.h"
#include "runtime/client/client.h"
#include "runtime/controller/manager.h"
#include "runtime/metrics/registry.h"
#include "runtime/webhook/server.h"

#include <gtest/gtest.h>

#include <set>

namespace capstan::manager {
namespace {

std::vector<std::string> names_of(const std::vector<const ControllerDescriptor*>& ds) {
  std::vector<std::string> out;
  for (const auto* d : ds) out.push_back(d->name);
  return out;
}

TEST(Registry, ControllersFlagFollowsKubeControllerManager) {
  using V = std::vector<std::string>;
  EXPECT_EQ(names_of(enabled_controllers({"*"})), (V{"certificates", "monitoring", "kafka", "gitops"}));
  EXPECT_EQ(names_of(enabled_controllers({"*", "-certificates"})), (V{"monitoring", "kafka", "gitops"}));
  EXPECT_EQ(names_of(enabled_controllers({"*", "-gitops"})), (V{"certificates", "monitoring", "kafka"}));
  EXPECT_EQ(names_of(enabled_controllers({"monitoring"})), V{"monitoring"});
  EXPECT_EQ(names_of(enabled_controllers({"strimzi", "prometheus-operator"})), (V{"monitoring", "kafka"})) << "aliases";
  EXPECT_EQ(names_of(enabled_controllers({"certificates"})), V{"certificates"});
  EXPECT_EQ(names_of(enabled_controllers({"cert-manager", "flux"})), (V{"certificates", "gitops"})) << "aliases are accepted";
  EXPECT_EQ(names_of(enabled_controllers({"-certificates", "certificates"})), V{}) << "the first explicit match wins";
  EXPECT_EQ(names_of(enabled_controllers({"-gitops", "*"})), (V{"certificates", "monitoring", "kafka"})) << "the first explicit match wins";
  EXPECT_EQ(names_of(enabled_controllers({})), V{});
  try {
    enabled_controllers({"*", "-bogus"});
    FAIL() << "an unknown name is a usage error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown controller \"bogus\""), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("known controllers: certificates, monitoring, kafka, gitops"), std::string::npos) << e.what();
  }
}

// What a descriptor declares is exactly what its wiring reads: no undeclared informer, none
// declared and left unused.
TEST(Registry, EveryControllerDeclaresExactlyTheInformersItReads) {
  for (const auto& d : all_controllers()) {
    SCOPED_TRACE(d.name);
    ASSERT_TRUE(d.informers) << "no informers() in the descriptor";
    client::Config cfg;
    cfg.server = "https://127.0.0.1:1";  // never contacted: nothing is started
    client::Client client(cfg);
    metrics::Registry registry;
    controller::ManagerOptions mo;
    mo.registry = &registry;
    mo.metrics_bind_address = "0";
    controller::Manager mgr(client, mo);
    webhook::ServerOptions wo;
    wo.port = 0;
    wo.registry = &registry;
    webhook::Server webhooks(wo);
    d.wire(mgr, webhooks, Settings{});
    // The webhooks read only what the controller declares (gitops: its Kustomizations).
    ASSERT_TRUE(d.register_webhooks) << "no webhooks attached";
    EXPECT_FALSE(webhooks.has_paths()) << "wire() serves webhooks itself";
    d.register_webhooks(mgr, webhooks, Settings{});
    EXPECT_TRUE(webhooks.has_paths());
    std::vector<const ControllerDescriptor*> just_this{&d};
    EXPECT_EQ(undeclared_informers(mgr.informers(), just_this), std::vector<std::string>{});

    std::set<std::string> wired;
    for (const auto* inf : mgr.informers().informers()) wired.insert(inf->options().gvr.resource + "?" + inf->options().label_selector);
    std::set<std::string> declared;
    for (const auto& need : d.informers()) declared.insert(need.type.gvr.resource + "?" + need.label_selector);
    EXPECT_EQ(wired, declared);
  }
}

// Each controller configures the admission webhooks of its own API group, safe to fail: Fail,
// a timeout, no side effects, Equivalent matching, and the manager's namespace left out.
TEST(Registry, EveryControllerConfiguresItsGroupsWebhooks) {
  WebhookEndpoint ep{"", "capstan-system", "capstan-webhook-service", "", "capstan-system"};
  for (const auto& d : all_controllers()) {
    SCOPED_TRACE(d.name);
    ASSERT_TRUE(d.webhook_configurations);
    std::set<std::string> crd_groups;
    for (const auto& crd : d.crds()) crd_groups.insert(std::string(json::get_string(crd, {"spec", "group"})));
    ASSERT_EQ(crd_groups.size(), 1u);
    std::set<std::string> resources;
    for (const auto& crd : d.crds()) resources.insert(std::string(json::get_string(crd, {"spec", "names", "plural"})));
    auto cfgs = d.webhook_configurations(ep);
    ASSERT_FALSE(cfgs.empty());
    std::set<std::string> validated;
    for (const auto& cfg : cfgs) {
      EXPECT_EQ(json::get_string(cfg, {"metadata", "name"}), "capstan-" + d.name);
      for (const auto& h : *json::get_array(cfg, {"webhooks"})) {
        EXPECT_EQ(json::get_string(h, {"failurePolicy"}), "Fail");
        EXPECT_EQ(json::get_string(h, {"sideEffects"}), "None");
        EXPECT_EQ(json::get_string(h, {"matchPolicy"}), "Equivalent");
        EXPECT_EQ(json::get_int(h, {"timeoutSeconds"}), 10);
        EXPECT_EQ(json::serialize(*json::find(h, {"namespaceSelector"})),
                  R"({"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"NotIn","values":["capstan-system"]}]})");
        const auto& rule = json::get_array(h, {"rules"})->at(0);
        EXPECT_EQ(json::serialize(*json::find(rule, {"apiGroups"})), "[\"" + *crd_groups.begin() + "\"]");
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

TEST(Registry, DeclaredInformersAreCreatedOncePerResourceAndSelector) {
  client::Config cfg;
  cfg.server = "https://127.0.0.1:1";
  client::Client client(cfg);
  cache::InformerFactory factory(client);
  auto all = enabled_controllers({"*"});
  create_informers(factory, all);
  auto first = factory.informers().size();
  create_informers(factory, all);  // a second controller declaring the same informers shares them
  EXPECT_EQ(factory.informers().size(), first);
  std::size_t declared = 0;
  for (const auto* d : all) declared += d->informers().size();
  EXPECT_EQ(first, declared);
  EXPECT_TRUE(undeclared_informers(factory, all).empty());
  EXPECT_FALSE(undeclared_informers(factory, {}).empty());
}

}  // namespace
}  // namespace capstan::manager
