#include "runtime/plugin/plugin.h"

#include "runtime/controller/manager.h"
#include "runtime/plugin/registry.h"

#include <gtest/gtest.h>

namespace capstan::plugin {
namespace {

const meta::ResourceType kWidgets{{"example.capstan.dev", "v1", "widgets"}, "Widget", true};
const meta::ResourceType kConfigMaps{{"", "v1", "configmaps"}, "ConfigMap", true};
const meta::ResourceType kSecrets{{"", "v1", "secrets"}, "Secret", true};

// A plugin that reconciles Widgets, owns ConfigMaps and reads its own labelled Secrets.
Plugin widgets(std::string name = "widgets") {
  return Plugin(std::move(name))
      .permits({"example.capstan.dev"}, {"widgets/status"}, {"update", "patch"})
      .permits({""}, {"configmaps"}, {"create", "patch", "delete"})
      .permits({""}, {"events"}, {"create", "patch"})
      .setup([](Wiring& w) {
        cache::InformerOptions ours;
        ours.label_selector = "example.capstan.dev/owned=true";
        w.manager.controller("widgets")
            .for_(kWidgets)
            .owns(kConfigMaps)
            .watches(kSecrets, [](const cache::ObjectPtr&) { return std::vector<controller::Request>{}; }, {}, ours)
            .complete([](const controller::Request&, controller::Context&) { return controller::Result{}; });
      });
}

TEST(Plugin, InformersAreRecordedFromWhatSetupWatches) {
  auto uses = widgets().informers();
  std::vector<InformerUse> expected{{kConfigMaps.gvr, ""}, {kSecrets.gvr, "example.capstan.dev/owned=true"}, {kWidgets.gvr, ""}};
  EXPECT_EQ(uses, expected);
}

TEST(Plugin, ReadRulesAreDerivedAndMergedWithPermits) {
  EXPECT_EQ(json::serialize(json::Value(widgets().rbac_rules())),
            R"([{"apiGroups":[""],"resources":["configmaps"],"verbs":["get","list","watch","create","patch","delete"]},)"
            R"({"apiGroups":[""],"resources":["events"],"verbs":["create","patch"]},)"
            R"({"apiGroups":[""],"resources":["secrets"],"verbs":["get","list","watch"]},)"
            R"({"apiGroups":["example.capstan.dev"],"resources":["widgets"],"verbs":["get","list","watch"]},)"
            R"({"apiGroups":["example.capstan.dev"],"resources":["widgets/status"],"verbs":["update","patch"]}])");
}

TEST(Plugin, ResourcesWithTheSameVerbsShareARule) {
  auto p = Plugin("p").permits({""}, {"services", "pods"}, {"get", "delete"}).permits({""}, {"pods"}, {"approve", "get"});
  EXPECT_EQ(json::serialize(json::Value(p.rbac_rules())),
            R"([{"apiGroups":[""],"resources":["pods"],"verbs":["get","delete","approve"]},)"
            R"({"apiGroups":[""],"resources":["services"],"verbs":["get","delete"]}])");
}

TEST(Plugin, WebhooksAreConfiguredAndServedAfterSetup) {
  std::vector<std::string> calls;
  auto p = Plugin("p")
               .setup([&](Wiring&) { calls.push_back("setup"); })
               .webhooks({[](const webhook::Endpoint& ep) {
                            return std::vector<json::Value>{json::Object{{"service", ep.service_name}}};
                          },
                          [&](Wiring&) { calls.push_back("serve"); }});
  auto cfgs = p.webhook_configurations(webhook::Endpoint{"", "ns", "svc", "", ""});
  ASSERT_EQ(cfgs.size(), 1u);
  EXPECT_EQ(json::get_string(cfgs[0], {"service"}), "svc");
  p.informers();  // wires once
  EXPECT_EQ(calls, (std::vector<std::string>{"setup", "serve"}));
}

TEST(Plugin, FlagsParseIntoStateTheSetupReads) {
  auto workers = std::make_shared<long long>(1);
  auto p = Plugin("p").flags([workers](flags::FlagSet& fs) { fs.add_int("p-workers", workers.get(), "workers"); });
  flags::FlagSet fs("test");
  p.add_flags(fs);
  fs.parse({"--p-workers=4"});
  EXPECT_EQ(*workers, 4);
  EXPECT_TRUE(fs.changed("p-workers"));
}

TEST(Plugin, DevDefaultsSetOnlyTheFlagsTheUserDidNotGive) {
  auto port = std::make_shared<long long>(8089);
  auto p = Plugin("p")
               .flags([port](flags::FlagSet& fs) { fs.add_int("p-port", port.get(), "port"); })
               .dev_defaults([](flags::FlagSet& fs, const DevEnvironment& dev) {
                 if (fs.changed("p-port")) return std::vector<std::string>{};
                 std::string n = std::to_string(dev.loopback_port("p"));
                 fs.set("p-port", n);
                 return std::vector<std::string>{"p: " + n};
               });
  DevEnvironment dev{"/tmp/x", [](const std::string&) { return std::uint16_t{40001}; }};
  flags::FlagSet fs("dev");
  p.add_flags(fs);
  EXPECT_EQ(p.apply_dev_defaults(fs, dev), std::vector<std::string>{"p: 40001"});
  EXPECT_EQ(*port, 40001);
  flags::FlagSet given("dev");
  p.add_flags(given);
  given.parse({"--p-port=7"});
  EXPECT_TRUE(p.apply_dev_defaults(given, dev).empty());
  EXPECT_EQ(*port, 7);
}

std::vector<std::string> names_of(const std::vector<const Plugin*>& ps) {
  std::vector<std::string> out;
  for (const auto* p : ps) out.push_back(p->name());
  return out;
}

TEST(Registry, ControllersFlagFollowsKubeControllerManager) {
  Registry r;
  r.add(Plugin("a").alias("alpha"));
  r.add(Plugin("b"));
  r.add(Plugin("c").off_by_default());
  using V = std::vector<std::string>;
  EXPECT_EQ(names_of(r.enabled({"*"})), (V{"a", "b"})) << "off-by-default plugins need their name";
  EXPECT_EQ(names_of(r.enabled({"*", "c"})), (V{"a", "b", "c"}));
  EXPECT_EQ(names_of(r.enabled({"*", "-a"})), V{"b"});
  EXPECT_EQ(names_of(r.enabled({"alpha"})), V{"a"}) << "aliases are accepted";
  EXPECT_EQ(names_of(r.enabled({"-a", "a"})), V{}) << "the first explicit match wins";
  EXPECT_EQ(names_of(r.enabled({"-b", "*"})), V{"a"});
  EXPECT_EQ(names_of(r.enabled({})), V{});
  try {
    r.enabled({"*", "-bogus"});
    FAIL() << "an unknown name is a usage error";
  } catch (const flags::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown controller \"bogus\" in --controllers (known controllers: a, b, c"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(r.add(Plugin("alpha")), std::invalid_argument) << "a name taken by an alias";
}

}  // namespace
}  // namespace capstan::plugin
