// The RBAC authorizer over stored Roles and bindings: who is allowed what, the reasons kube gives,
// and the 403 messages kube-apiserver answers (texts taken from kube-apiserver v1.37.2).
#include "apiserver/auth/test_env.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::auth {
namespace {

using namespace testing;

class RbacAuthorizerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    env.create_namespace("default");
    env.create_namespace("other");
    env.role("default", "cm-reader", json::Array{rule({"get", "list"}, {""}, {"configmaps"})});
    env.binding("default", "reader", "Role", "cm-reader", json::Array{subject("ServiceAccount", "reader", "default")});
  }
  Env env;
  rest::User reader = sa_user("default", "reader");
  rest::User bob{"bob", "", {"system:authenticated"}, {}};
};

TEST_F(RbacAuthorizerTest, RoleBindingGrantsInItsNamespaceOnly) {
  auto d = env.authorizer.authorize(resource_attrs(reader, "list", "", "configmaps", "default"));
  EXPECT_TRUE(d.allowed);
  EXPECT_EQ(d.reason, R"(RBAC: allowed by RoleBinding "reader/default" of Role "cm-reader" to ServiceAccount "reader/default")");
  EXPECT_FALSE(env.authorizer.authorize(resource_attrs(reader, "list", "", "configmaps", "other")).allowed);
  EXPECT_FALSE(env.authorizer.authorize(resource_attrs(reader, "list", "", "configmaps")).allowed);
  EXPECT_FALSE(env.authorizer.authorize(resource_attrs(reader, "watch", "", "configmaps", "default")).allowed);
  EXPECT_FALSE(env.authorizer.authorize(resource_attrs(bob, "get", "", "configmaps", "default", "x")).allowed);
}

TEST_F(RbacAuthorizerTest, SubjectsUsersGroupsAndServiceAccounts) {
  env.role("", "pod-reader", json::Array{rule({"get"}, {""}, {"pods"})});
  env.binding("", "by-group", "ClusterRole", "pod-reader", json::Array{subject("Group", "devs")});
  env.binding("", "by-user", "ClusterRole", "pod-reader", json::Array{subject("User", "carl")});
  // A ServiceAccount subject of a ClusterRoleBinding needs a namespace.
  env.binding("", "sa-no-ns", "ClusterRole", "pod-reader", json::Array{subject("ServiceAccount", "x")});
  env.binding("", "sa", "ClusterRole", "pod-reader", json::Array{subject("User", "nobody"), subject("ServiceAccount", "x", "ns1")});
  rest::User dev{"dana", "", {"devs", "system:authenticated"}, {}};
  rest::User carl{"carl", "", {}, {}};
  auto d = env.authorizer.authorize(resource_attrs(dev, "get", "", "pods", "any", "p"));
  EXPECT_EQ(d.reason, R"(RBAC: allowed by ClusterRoleBinding "by-group" of ClusterRole "pod-reader" to Group "devs")");
  d = env.authorizer.authorize(resource_attrs(carl, "get", "", "pods"));
  EXPECT_EQ(d.reason, R"(RBAC: allowed by ClusterRoleBinding "by-user" of ClusterRole "pod-reader" to User "carl")");
  d = env.authorizer.authorize(resource_attrs(sa_user("ns1", "x"), "get", "", "pods"));
  EXPECT_EQ(d.reason, R"(RBAC: allowed by ClusterRoleBinding "sa" of ClusterRole "pod-reader" to ServiceAccount "x/ns1")");
  EXPECT_FALSE(env.authorizer.authorize(resource_attrs(sa_user("ns2", "x"), "get", "", "pods")).allowed);
  // A user whose name is a ServiceAccount's is that ServiceAccount for RBAC.
  rest::User cert_user{"system:serviceaccount:ns1:x", "", {}, {}};
  EXPECT_TRUE(env.authorizer.authorize(resource_attrs(cert_user, "get", "", "pods")).allowed);
}

TEST_F(RbacAuthorizerTest, SystemMastersMayDoAnything) {
  rest::User admin{"admin", "", {"system:masters", "system:authenticated"}, {}};
  auto d = env.authorizer.authorize(resource_attrs(admin, "delete", "x.example.com", "things", "ns", "t"));
  EXPECT_TRUE(d.allowed);
  EXPECT_EQ(d.reason, "");
  EXPECT_TRUE(env.authorizer.allows_everything(admin));
  EXPECT_FALSE(env.authorizer.allows_everything(bob));
}

TEST_F(RbacAuthorizerTest, UpdatesToRolesAndBindingsApplyAtOnce) {
  EXPECT_FALSE(env.authorizer.authorize(resource_attrs(reader, "watch", "", "configmaps", "default")).allowed);
  rest::WriteOptions o;
  env.service.update(env.target("roles.rbac.authorization.k8s.io", "default", "cm-reader"),
                     json::Object{{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", "Role"},
                                  {"metadata", json::Object{{"name", "cm-reader"}, {"namespace", "default"}}},
                                  {"rules", json::Array{rule({"get", "list", "watch"}, {""}, {"configmaps"})}}},
                     o);
  EXPECT_TRUE(env.authorizer.authorize(resource_attrs(reader, "watch", "", "configmaps", "default")).allowed);
  env.remove("rolebindings.rbac.authorization.k8s.io", "default", "reader");
  EXPECT_FALSE(env.authorizer.authorize(resource_attrs(reader, "list", "", "configmaps", "default")).allowed);
}

TEST_F(RbacAuthorizerTest, MissingRolesAreTheReason) {
  env.binding("default", "bob-missing", "Role", "nope", json::Array{subject("User", "bob")});
  auto d = env.authorizer.authorize(resource_attrs(bob, "list", "", "configmaps", "default"));
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.reason, R"(rbac: RBAC: role.rbac.authorization.k8s.io "nope" not found)");
  env.binding("", "bob-missing-cr", "ClusterRole", "gone", json::Array{subject("User", "bob")});
  d = env.authorizer.authorize(resource_attrs(bob, "list", "", "configmaps", "default"));
  EXPECT_EQ(d.reason, R"(rbac: RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "nope" not found])");
  auto e = forbidden_error(resource_attrs(bob, "list", "", "configmaps", "default"), d.reason);
  EXPECT_EQ(std::string(e.what()),
            R"(configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default": )"
            R"(rbac: RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "nope" not found])");
}

TEST(ForbiddenError, EveryShape) {
  rest::User u{"system:serviceaccount:default:reader", "", {}, {}};
  auto body = [](const ApiError& e) { return json::serialize(e.status()); };
  EXPECT_EQ(body(forbidden_error(resource_attrs(u, "list", "", "configmaps", "other"), "")),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps is forbidden: User \"system:serviceaccount:default:reader\" cannot list resource \"configmaps\" in API group \"\" in the namespace \"other\"","reason":"Forbidden","details":{"kind":"configmaps"},"code":403})");
  EXPECT_EQ(body(forbidden_error(resource_attrs(u, "get", "", "configmaps", "default", "x"), "")),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \"x\" is forbidden: User \"system:serviceaccount:default:reader\" cannot get resource \"configmaps\" in API group \"\" in the namespace \"default\"","reason":"Forbidden","details":{"name":"x","kind":"configmaps"},"code":403})");
  EXPECT_EQ(body(forbidden_error(resource_attrs(u, "get", "apps", "deployments", "default", "x", "scale"), "")),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \"x\" is forbidden: User \"system:serviceaccount:default:reader\" cannot get resource \"deployments/scale\" in API group \"apps\" in the namespace \"default\"","reason":"Forbidden","details":{"name":"x","group":"apps","kind":"deployments"},"code":403})");
  EXPECT_EQ(body(forbidden_error(resource_attrs(u, "list", "", "nodes"), "")),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"nodes is forbidden: User \"system:serviceaccount:default:reader\" cannot list resource \"nodes\" in API group \"\" at the cluster scope","reason":"Forbidden","details":{"kind":"nodes"},"code":403})");
  EXPECT_EQ(body(forbidden_error(path_attrs(u, "get", "/apis"), "")),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \"system:serviceaccount:default:reader\" cannot get path \"/apis\"","reason":"Forbidden","details":{},"code":403})");
  EXPECT_EQ(std::string(forbidden_error(resource_attrs(u, "create", "", "serviceaccounts", "default", "sa", "token"), "").what()),
            R"(serviceaccounts "sa" is forbidden: User "system:serviceaccount:default:reader" cannot create resource "serviceaccounts/token" in API group "" in the namespace "default")");
  // The message is sanitised against HTML; the reason is not.
  EXPECT_EQ(std::string(forbidden_error(path_attrs(u, "get", "/<x>&"), "a<b").what()),
            R"(forbidden: User "system:serviceaccount:default:reader" cannot get path "/&lt;x&gt;&amp;": a<b)");
}

TEST_F(RbacAuthorizerTest, RulesForListsClusterThenNamespaceRules) {
  env.role("", "urls", json::Array{url_rule({"get"}, {"/metrics"}), rule({"get"}, {""}, {"nodes"})});
  env.binding("", "reader-urls", "ClusterRole", "urls", json::Array{subject("Group", "system:serviceaccounts")});
  auto rules = env.authorizer.rules_for(reader, "default");
  ASSERT_EQ(rules.resource_rules.size(), 2u);
  EXPECT_EQ(rules.resource_rules[0].resources, std::vector<std::string>{"nodes"});
  EXPECT_EQ(rules.resource_rules[1].resources, std::vector<std::string>{"configmaps"});
  ASSERT_EQ(rules.non_resource_rules.size(), 1u);
  EXPECT_EQ(rules.non_resource_rules[0].non_resource_urls, std::vector<std::string>{"/metrics"});
  EXPECT_EQ(rules.evaluation_error, "");
  EXPECT_EQ(env.authorizer.rules_for(reader, "other").resource_rules.size(), 1u);
}

TEST_F(RbacAuthorizerTest, MalformedObjectsNeverCrash) {
  // Stored as written (the store does not validate RBAC objects): nonsense must grant nothing.
  env.store.create("clusterroles.rbac.authorization.k8s.io",
                   json::parse(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"bad"},"rules":"everything"})"));
  env.store.create("clusterrolebindings.rbac.authorization.k8s.io",
                   json::parse(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":"bad"},)"
                               R"("subjects":[1,{"kind":"Group"},{"kind":"Group","name":"system:authenticated"}],"roleRef":"bad"})"));
  env.store.create("clusterrolebindings.rbac.authorization.k8s.io",
                   json::parse(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":"bad2"},)"
                               R"("subjects":{"kind":"User"},"roleRef":{"kind":"ClusterRole","name":"bad"}})"));
  auto d = env.authorizer.authorize(resource_attrs(bob, "get", "", "pods"));
  EXPECT_FALSE(d.allowed);
  EXPECT_EQ(d.reason, R"(rbac: RBAC: unsupported role reference kind: "")");
}

}  // namespace
}  // namespace capstan::apiserver::auth
