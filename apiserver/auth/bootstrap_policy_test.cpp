// The bootstrap RBAC policy and ClusterRole aggregation, compared with what kube-apiserver
// v1.37.2 (and kube-controller-manager's aggregation controller) create (testdata/).
#include "apiserver/auth/bootstrap_policy.h"
#include "apiserver/auth/test_env.h"
#include "apiserver/system/clusterrole_aggregation_controller.h"
#include "runtime/json/patch.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace capstan::apiserver::auth {
namespace {

using namespace testing;

json::Value testdata(const std::string& name) {
  std::filesystem::path dir = CAPSTAN_AUTH_TESTDATA;
  if (const char* src = std::getenv("CAPSTAN_SOURCE_DIR")) {
    auto p = std::filesystem::path(src) / "apiserver/auth/testdata";
    if (std::filesystem::exists(p)) dir = p;
  }
  std::ifstream in(dir / name);
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(ss.str(), name);
}

std::string plural(std::string_view kind) {
  if (kind == "ClusterRole") return "clusterroles.rbac.authorization.k8s.io";
  if (kind == "ClusterRoleBinding") return "clusterrolebindings.rbac.authorization.k8s.io";
  if (kind == "Role") return "roles.rbac.authorization.k8s.io";
  return "rolebindings.rbac.authorization.k8s.io";
}

class BootstrapPolicy : public ::testing::Test {
 protected:
  void SetUp() override {
    for (auto ns : {"default", "kube-system", "kube-public"}) env.create_namespace(ns);
    reconcile_bootstrap_policy(env.service);
  }
  Env env;
};

TEST_F(BootstrapPolicy, MatchesKubeApiserverObjectForObject) {
  auto kube = testdata("kube-1.37.2-bootstrap-policy.json");
  std::size_t total = 0;
  for (const auto& want : kube.as_array()) {
    std::string kind(json::get_string(want, {"kind"}));
    std::string ns(json::get_string(want, {"namespace"}));
    std::string name(json::get_string(want, {"name"}));
    SCOPED_TRACE(kind + " " + ns + "/" + name);
    auto got = env.get(plural(kind), ns, name);
    ASSERT_TRUE(got.is_object());
    EXPECT_TRUE(json::deep_equal(*json::find(got, {"metadata", "labels"}), *json::find(want, {"labels"})));
    EXPECT_TRUE(json::deep_equal(*json::find(got, {"metadata", "annotations"}), *json::find(want, {"annotations"})));
    for (auto member : {"aggregationRule", "subjects", "roleRef"}) {
      const auto* w = json::find(want, {member});
      const auto* g = json::find(got, {member});
      ASSERT_EQ(w == nullptr, g == nullptr) << member;
      if (w) EXPECT_TRUE(json::deep_equal(*w, *g)) << member << ": " << json::serialize(*g) << " want " << json::serialize(*w);
    }
    if (kind == "ClusterRole" || kind == "Role")
      EXPECT_EQ(parse_policy_rules(json::find(got, {"rules"})), parse_policy_rules(json::find(want, {"rules"})));
    ++total;
  }
  EXPECT_EQ(total, 141u);
  EXPECT_EQ(env.store.count("clusterroles.rbac.authorization.k8s.io"), 73u);
  EXPECT_EQ(env.store.count("clusterrolebindings.rbac.authorization.k8s.io"), 54u);
  EXPECT_EQ(env.store.count("roles.rbac.authorization.k8s.io"), 7u);
  EXPECT_EQ(env.store.count("rolebindings.rbac.authorization.k8s.io"), 7u);
}

TEST_F(BootstrapPolicy, AggregationGivesAdminEditViewKubesRules) {
  system::ClusterRoleAggregationController aggregation(env.service);
  EXPECT_EQ(aggregation.sync_all(), 3);
  // edit aggregates view: a second pass settles it (the controller's loop would run again).
  aggregation.sync_all();
  aggregation.sync_all();
  EXPECT_EQ(aggregation.sync_all(), 0);
  auto kube = testdata("kube-1.37.2-aggregated-rules.json");
  for (auto name : {"admin", "edit", "view"}) {
    SCOPED_TRACE(name);
    auto got = env.get("clusterroles.rbac.authorization.k8s.io", "", name);
    EXPECT_EQ(parse_policy_rules(json::find(got, {"rules"})), parse_policy_rules(json::find(kube, {name})));
    // Written by server-side apply, as the controller does.
    EXPECT_NE(json::serialize(*json::find(got, {"metadata", "managedFields"})).find(R"("manager":"clusterrole-aggregation-controller","operation":"Apply")"),
              std::string::npos);
  }
}

TEST_F(BootstrapPolicy, AggregationFollowsChanges) {
  system::ClusterRoleAggregationController aggregation(env.service);
  aggregation.start();
  auto view_rules = [&] { return parse_policy_rules(json::find(env.get("clusterroles.rbac.authorization.k8s.io", "", "view"), {"rules"})); };
  ASSERT_EQ(view_rules().size(), 12u);
  json::Value extra = json::Object{{"apiVersion", "rbac.authorization.k8s.io/v1"},
                                   {"kind", "ClusterRole"},
                                   {"metadata", json::Object{{"name", "widgets-view"}, {"labels", json::Object{{"rbac.authorization.k8s.io/aggregate-to-view", "true"}}}}},
                                   {"rules", json::Array{rule({"get", "list", "watch"}, {"example.com"}, {"widgets"})}}};
  env.create("clusterroles.rbac.authorization.k8s.io", "", extra);
  PolicyRule widgets{{"get", "list", "watch"}, {"example.com"}, {"widgets"}, {}, {}};
  auto has_widgets = [&](const char* role) {
    auto rules = parse_policy_rules(json::find(env.get("clusterroles.rbac.authorization.k8s.io", "", role), {"rules"}));
    return std::find(rules.begin(), rules.end(), widgets) != rules.end();
  };
  EXPECT_TRUE(system::testing::eventually([&] { return has_widgets("view") && has_widgets("edit") && has_widgets("admin"); }));
  env.remove("clusterroles.rbac.authorization.k8s.io", "", "widgets-view");
  EXPECT_TRUE(system::testing::eventually([&] { return !has_widgets("view") && !has_widgets("admin"); }));
  EXPECT_EQ(view_rules().size(), 12u);
  aggregation.stop();
}

TEST_F(BootstrapPolicy, ReconcilingAgainChangesNothing) {
  auto rv = env.store.current_rv();
  reconcile_bootstrap_policy(env.service);
  EXPECT_EQ(env.store.current_rv(), rv);
}

TEST_F(BootstrapPolicy, ReconcilingRestoresWhatIsMissingButKeepsAdditions) {
  const std::string crs = "clusterroles.rbac.authorization.k8s.io";
  rest::WriteOptions o;
  o.field_manager = "admin";
  auto basic = env.get(crs, "", "system:basic-user");
  json::erase(basic, {"metadata", "labels"});
  basic.as_object()["rules"] = json::Array{rule({"get"}, {""}, {"pods"})};
  env.service.update(env.target(crs, "", "system:basic-user"), basic, o);
  auto discovery = env.get(crs, "", "system:discovery");
  json::ensure_object(discovery, {"metadata", "annotations"})["rbac.authorization.kubernetes.io/autoupdate"] = "false";
  discovery.as_object()["rules"] = json::Array{};
  env.service.update(env.target(crs, "", "system:discovery"), discovery, o);
  env.remove("clusterrolebindings.rbac.authorization.k8s.io", "", "system:basic-user");

  reconcile_bootstrap_policy(env.service);
  basic = env.get(crs, "", "system:basic-user");
  EXPECT_EQ(json::get_string(basic, {"metadata", "labels", "kubernetes.io/bootstrapping"}), "rbac-defaults");
  auto rules = parse_policy_rules(json::find(basic, {"rules"}));
  ASSERT_EQ(rules.size(), 4u);  // the addition, then kube's rules broken down
  EXPECT_EQ(rules[0].resources, std::vector<std::string>{"pods"});
  EXPECT_EQ(rules[1], (PolicyRule{{"create"}, {"authorization.k8s.io"}, {"selfsubjectaccessreviews"}, {}, {}}));
  // autoupdate=false protects a role.
  EXPECT_TRUE(parse_policy_rules(json::find(env.get(crs, "", "system:discovery"), {"rules"})).empty());
  EXPECT_TRUE(env.exists("clusterrolebindings.rbac.authorization.k8s.io", "", "system:basic-user"));
}

TEST_F(BootstrapPolicy, DefaultsGrantWhatKubeGrantsEveryone) {
  rest::User someone{"someone", "", {"system:authenticated"}, {}};
  rest::User anonymous{"system:anonymous", "", {"system:unauthenticated"}, {}};
  for (auto p : {"/api", "/apis/apps/v1", "/version", "/healthz", "/openapi/v3", "/readyz"})
    EXPECT_TRUE(env.authorizer.authorize(path_attrs(someone, "get", p)).allowed) << p;
  EXPECT_TRUE(env.authorizer.authorize(path_attrs(anonymous, "get", "/version")).allowed);
  EXPECT_TRUE(env.authorizer.authorize(path_attrs(anonymous, "get", "/healthz")).allowed);
  EXPECT_FALSE(env.authorizer.authorize(path_attrs(anonymous, "get", "/api")).allowed);
  EXPECT_TRUE(env.authorizer.authorize(resource_attrs(someone, "create", "authorization.k8s.io", "selfsubjectaccessreviews")).allowed);
  EXPECT_FALSE(env.authorizer.authorize(resource_attrs(someone, "list", "", "configmaps", "default")).allowed);
  auto sa = sa_user("default", "x");
  EXPECT_TRUE(env.authorizer.authorize(path_attrs(sa, "get", "/.well-known/openid-configuration")).allowed);
  rest::User scheduler{"system:kube-scheduler", "", {"system:authenticated"}, {}};
  auto d = env.authorizer.authorize(resource_attrs(scheduler, "get", "", "pods", "default"));
  EXPECT_EQ(d.reason, R"(RBAC: allowed by ClusterRoleBinding "system:kube-scheduler" of ClusterRole "system:kube-scheduler" to User "system:kube-scheduler")");
  d = env.authorizer.authorize(resource_attrs(sa_user("kube-system", "namespace-controller"), "get", "", "pods", "default"));
  EXPECT_EQ(d.reason,
            R"(RBAC: allowed by ClusterRoleBinding "system:controller:namespace-controller" of ClusterRole "system:controller:namespace-controller" to ServiceAccount "namespace-controller/kube-system")");
}

}  // namespace
}  // namespace capstan::apiserver::auth
