// Rule matching (rbac.RuleAllows), the compact form of escalation messages, and Covers /
// CompactRules, against the cases kube's own tests and kube-apiserver answers exercise.
#include "apiserver/auth/policy_compare.h"
#include "apiserver/auth/test_env.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::auth {
namespace {

using testing::path_attrs;
using testing::resource_attrs;

const rest::User kUser{"u", "", {}, {}};

PolicyRule R(std::vector<std::string> verbs, std::vector<std::string> groups, std::vector<std::string> resources,
             std::vector<std::string> names = {}) {
  return PolicyRule{std::move(verbs), std::move(groups), std::move(resources), std::move(names), {}};
}
PolicyRule U(std::vector<std::string> verbs, std::vector<std::string> urls) { return PolicyRule{std::move(verbs), {}, {}, {}, std::move(urls)}; }

TEST(RuleAllows, VerbsGroupsAndResources) {
  auto r = R({"get", "list"}, {""}, {"configmaps"});
  EXPECT_TRUE(rule_allows(resource_attrs(kUser, "get", "", "configmaps", "ns"), r));
  EXPECT_TRUE(rule_allows(resource_attrs(kUser, "list", "", "configmaps"), r));
  EXPECT_FALSE(rule_allows(resource_attrs(kUser, "watch", "", "configmaps"), r));
  EXPECT_FALSE(rule_allows(resource_attrs(kUser, "get", "apps", "configmaps"), r));
  EXPECT_FALSE(rule_allows(resource_attrs(kUser, "get", "", "secrets"), r));
  // A subresource needs its own entry.
  EXPECT_FALSE(rule_allows(resource_attrs(kUser, "get", "", "configmaps", "ns", "x", "status"), r));
  auto star = R({"*"}, {"*"}, {"*"});
  EXPECT_TRUE(rule_allows(resource_attrs(kUser, "escalate", "rbac.authorization.k8s.io", "clusterroles"), star));
  EXPECT_TRUE(rule_allows(resource_attrs(kUser, "get", "apps", "deployments", "ns", "d", "scale"), star));
  // Resource rules never allow paths, and URL rules never resources.
  EXPECT_FALSE(rule_allows(path_attrs(kUser, "get", "/api"), star));
  EXPECT_FALSE(rule_allows(resource_attrs(kUser, "get", "", "pods"), U({"*"}, {"*"})));
}

TEST(RuleAllows, Subresources) {
  auto sub = R({"get"}, {"apps"}, {"deployments/scale"});
  EXPECT_TRUE(rule_allows(resource_attrs(kUser, "get", "apps", "deployments", "ns", "d", "scale"), sub));
  EXPECT_FALSE(rule_allows(resource_attrs(kUser, "get", "apps", "deployments", "ns", "d"), sub));
  EXPECT_FALSE(rule_allows(resource_attrs(kUser, "get", "apps", "statefulsets", "ns", "d", "scale"), sub));
  auto any_scale = R({"get"}, {"apps"}, {"*/scale"});
  EXPECT_TRUE(rule_allows(resource_attrs(kUser, "get", "apps", "statefulsets", "ns", "s", "scale"), any_scale));
  EXPECT_FALSE(rule_allows(resource_attrs(kUser, "get", "apps", "statefulsets", "ns", "s", "status"), any_scale));
  EXPECT_FALSE(rule_allows(resource_attrs(kUser, "get", "apps", "statefulsets", "ns", "s"), any_scale));
  // "*/scale" is a wildcard only in the resource position; "deployments/*" is a literal.
  EXPECT_FALSE(rule_allows(resource_attrs(kUser, "get", "apps", "deployments", "ns", "d", "scale"), R({"get"}, {"apps"}, {"deployments/*"})));
  EXPECT_TRUE(rule_allows(resource_attrs(kUser, "create", "", "serviceaccounts", "ns", "sa", "token"),
                          R({"create"}, {""}, {"serviceaccounts/token"})));
}

TEST(RuleAllows, ResourceNames) {
  auto r = R({"get", "update"}, {""}, {"configmaps"}, {"a", "b"});
  EXPECT_TRUE(rule_allows(resource_attrs(kUser, "get", "", "configmaps", "ns", "a"), r));
  EXPECT_FALSE(rule_allows(resource_attrs(kUser, "get", "", "configmaps", "ns", "c"), r));
  // A list (no name) is not covered by a rule restricted to names.
  EXPECT_FALSE(rule_allows(resource_attrs(kUser, "list", "", "configmaps", "ns"), r));
}

TEST(RuleAllows, NonResourceUrls) {
  auto r = U({"get"}, {"/healthz", "/apis/*", "/logs*"});
  EXPECT_TRUE(rule_allows(path_attrs(kUser, "get", "/healthz"), r));
  EXPECT_FALSE(rule_allows(path_attrs(kUser, "get", "/healthz/ping"), r));
  EXPECT_TRUE(rule_allows(path_attrs(kUser, "get", "/apis/apps/v1"), r));
  EXPECT_TRUE(rule_allows(path_attrs(kUser, "get", "/apis/"), r));
  EXPECT_FALSE(rule_allows(path_attrs(kUser, "get", "/apis"), r));
  EXPECT_TRUE(rule_allows(path_attrs(kUser, "get", "/logsfoo"), r));
  EXPECT_FALSE(rule_allows(path_attrs(kUser, "post", "/healthz"), r));
  EXPECT_TRUE(rule_allows(path_attrs(kUser, "post", "/anything"), U({"*"}, {"*"})));
}

TEST(PolicyRuleJson, ParsesLenientlyAndSerialisesAsKube) {
  auto r = parse_policy_rule(json::parse(R"({"verbs":["get",1,null],"apiGroups":"nope","resources":["pods"],"resourceNames":[]})"));
  EXPECT_EQ(r, R({"get"}, {}, {"pods"}));
  EXPECT_EQ(json::serialize(to_json(R({"get"}, {""}, {"pods"}, {"a"}))),
            R"({"verbs":["get"],"apiGroups":[""],"resources":["pods"],"resourceNames":["a"]})");
  EXPECT_EQ(json::serialize(to_json(U({"get"}, {"/x"}))), R"({"verbs":["get"],"nonResourceURLs":["/x"]})");
  EXPECT_TRUE(parse_policy_rules(nullptr).empty());
  json::Value garbage = json::parse(R"([1, "x", {"verbs": {"a": 1}}])");
  auto rules = parse_policy_rules(&garbage);
  ASSERT_EQ(rules.size(), 3u);
  EXPECT_TRUE(rules[2].verbs.empty());
}

TEST(CompactString, AsKubePrintsIt) {
  EXPECT_EQ(compact_string(R({"get", "list"}, {""}, {"secrets"})), R"({APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]})");
  EXPECT_EQ(compact_string(R({"get"}, {"apps"}, {"deployments"}, {"a"})),
            R"({APIGroups:["apps"], Resources:["deployments"], ResourceNames:["a"], Verbs:["get"]})");
  EXPECT_EQ(compact_string(U({"get"}, {"/metrics"})), R"({NonResourceURLs:["/metrics"], Verbs:["get"]})");
}

TEST(Covers, BreaksRulesDownAndReportsWhatIsMissing) {
  std::vector<PolicyRule> owner = {R({"get", "list"}, {""}, {"configmaps"}), R({"*"}, {"apps"}, {"*/scale"}), U({"get"}, {"/logs/*"})};
  std::vector<PolicyRule> missing;
  EXPECT_TRUE(covers(owner, {R({"get"}, {""}, {"configmaps"}, {"x"})}));
  EXPECT_TRUE(covers(owner, {R({"update"}, {"apps"}, {"deployments/scale", "statefulsets/scale"})}));
  EXPECT_TRUE(covers(owner, {U({"get"}, {"/logs/a", "/logs/*"})}));
  EXPECT_FALSE(covers(owner, {R({"get", "delete"}, {""}, {"configmaps", "pods"})}, &missing));
  EXPECT_EQ(missing, (std::vector<PolicyRule>{R({"delete"}, {""}, {"configmaps"}), R({"get"}, {""}, {"pods"}), R({"delete"}, {""}, {"pods"})}));
  // A rule limited to names does not cover one without.
  EXPECT_FALSE(covers({R({"get"}, {""}, {"secrets"}, {"s"})}, {R({"get"}, {""}, {"secrets"})}));
  EXPECT_TRUE(covers({R({"*"}, {"*"}, {"*"}), U({"*"}, {"*"})}, {R({"get"}, {"x"}, {"y"}), U({"get"}, {"/z"})}));
}

TEST(Covers, CompactRulesMergesVerbs) {
  auto compacted = compact_rules({R({"get"}, {""}, {"pods"}), R({"list"}, {""}, {"pods"}), R({"get"}, {""}, {"pods"}, {"a"}),
                                  U({"get"}, {"/x"}), R({"watch"}, {""}, {"pods"})});
  ASSERT_EQ(compacted.size(), 3u);
  EXPECT_EQ(compacted[0], U({"get"}, {"/x"}));
  EXPECT_EQ(compacted[1], R({"get", "list", "watch"}, {""}, {"pods"}));
  EXPECT_EQ(compacted[2], R({"get"}, {""}, {"pods"}, {"a"}));
}

}  // namespace
}  // namespace capstan::apiserver::auth
