// Escalation prevention on RBAC writes, with kube-apiserver v1.37.2's answers.
#include "apiserver/auth/test_env.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::auth {
namespace {

using namespace testing;

const char* kRoles = "roles.rbac.authorization.k8s.io";
const char* kRoleBindings = "rolebindings.rbac.authorization.k8s.io";
const char* kClusterRoles = "clusterroles.rbac.authorization.k8s.io";
const char* kClusterRoleBindings = "clusterrolebindings.rbac.authorization.k8s.io";

json::Value role_obj(const std::string& kind, const std::string& name, json::Array rules) {
  return json::Object{{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", kind}, {"metadata", json::Object{{"name", name}}},
                      {"rules", std::move(rules)}};
}
json::Value binding_obj(const std::string& kind, const std::string& name, const std::string& role_kind, const std::string& role) {
  return json::Object{{"apiVersion", "rbac.authorization.k8s.io/v1"},
                      {"kind", kind},
                      {"metadata", json::Object{{"name", name}}},
                      {"subjects", json::Array{subject("User", "carl")}},
                      {"roleRef", json::Object{{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", role_kind}, {"name", role}}}};
}

class Escalation : public ::testing::Test {
 protected:
  void SetUp() override {
    env.create_namespace("default");
    // alice may write roles and rolebindings in default, and read configmaps there.
    env.role("default", "rbac-editor",
             json::Array{rule({"create", "update", "patch", "get", "list"}, {""}, {"configmaps"}),
                         rule({"create", "update", "patch", "get", "list"}, {"rbac.authorization.k8s.io"}, {"roles", "rolebindings"})});
    env.binding("default", "alice-editor", "Role", "rbac-editor", json::Array{subject("User", "alice")});
  }
  // The error a write as `u` throws ("" when it succeeds).
  std::string refusal(const rest::User& u, const char* resource, const std::string& ns, json::Value obj, int* code = nullptr) {
    try {
      env.create_as(u, resource, ns, std::move(obj));
      return "";
    } catch (const ApiError& e) {
      if (code) *code = e.code;
      return json::serialize(e.status());
    }
  }
  Env env;
  rest::User alice{"alice", "", {"devs", "system:authenticated"}, {}};
};

TEST_F(Escalation, RolesMayOnlyGrantWhatTheWriterHolds) {
  EXPECT_EQ(refusal(alice, kRoles, "default", role_obj("Role", "r2", json::Array{rule({"get", "list"}, {""}, {"configmaps"})})), "");
  EXPECT_EQ(refusal(alice, kRoles, "default", role_obj("Role", "rx", json::Array{rule({"get"}, {""}, {"secrets"})})),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"roles.rbac.authorization.k8s.io \"rx\" is forbidden: )"
            R"(user \"alice\" (groups=[\"devs\" \"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n)"
            R"({APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\"]}","reason":"Forbidden",)"
            R"("details":{"name":"rx","group":"rbac.authorization.k8s.io","kind":"roles"},"code":403})");
  // What kubectl create role r3 --verb=get,list,delete --resource=configmaps,pods --resource-name=s1 sends.
  auto e = refusal(alice, kRoles, "default",
                   role_obj("Role", "r3", json::Array{rule({"get", "list", "delete"}, {""}, {"configmaps", "pods", "secrets"}, {"s1"})}));
  EXPECT_NE(e.find(R"(not currently held:\n{APIGroups:[\"\"], Resources:[\"configmaps\"], ResourceNames:[\"s1\"], Verbs:[\"delete\"]}\n)"
                   R"({APIGroups:[\"\"], Resources:[\"pods\"], ResourceNames:[\"s1\"], Verbs:[\"get\" \"list\" \"delete\"]}\n)"
                   R"({APIGroups:[\"\"], Resources:[\"secrets\"], ResourceNames:[\"s1\"], Verbs:[\"get\" \"list\" \"delete\"]}")"),
            std::string::npos)
      << e;
}

TEST_F(Escalation, EscalateVerbAllowsAnyRules) {
  env.role("default", "escalator", json::Array{rule({"escalate"}, {"rbac.authorization.k8s.io"}, {"roles"})});
  env.binding("default", "alice-escalate", "Role", "escalator", json::Array{subject("User", "alice")});
  EXPECT_EQ(refusal(alice, kRoles, "default", role_obj("Role", "rx", json::Array{rule({"*"}, {"*"}, {"*"})})), "");
}

TEST_F(Escalation, ClusterRolesAndAggregationRules) {
  rest::User bob{"bob", "", {"system:authenticated"}, {}};
  env.role("", "crb-creator", json::Array{rule({"create", "update"}, {"rbac.authorization.k8s.io"}, {"clusterrolebindings", "clusterroles"})});
  env.binding("", "bob-cr", "ClusterRole", "crb-creator", json::Array{subject("User", "bob")});
  json::Value agg = role_obj("ClusterRole", "agg", json::Array{});
  agg.as_object()["aggregationRule"] = json::parse(R"({"clusterRoleSelectors":[{"matchLabels":{"x":"y"}}]})");
  EXPECT_EQ(refusal(bob, kClusterRoles, "", agg),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"clusterroles.rbac.authorization.k8s.io \"agg\" is forbidden: )"
            R"(must have cluster-admin privileges to use the aggregationRule","reason":"Forbidden",)"
            R"("details":{"name":"agg","group":"rbac.authorization.k8s.io","kind":"clusterroles"},"code":403})");
  json::Value cr1 = role_obj("ClusterRole", "cr1",
                             json::Array{url_rule({"get"}, {"/metrics", "/logs/*"}), rule({"get", "list"}, {"apps"}, {"deployments"}, {"a", "b"})});
  auto e = refusal(bob, kClusterRoles, "", cr1);
  EXPECT_NE(e.find(R"(user \"bob\" (groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n)"
                   R"({APIGroups:[\"apps\"], Resources:[\"deployments\"], ResourceNames:[\"a\"], Verbs:[\"get\" \"list\"]}\n)"
                   R"({APIGroups:[\"apps\"], Resources:[\"deployments\"], ResourceNames:[\"b\"], Verbs:[\"get\" \"list\"]}\n)"
                   R"({NonResourceURLs:[\"/logs/*\"], Verbs:[\"get\"]}\n{NonResourceURLs:[\"/metrics\"], Verbs:[\"get\"]}")"),
            std::string::npos)
      << e;
}

TEST_F(Escalation, ResolutionErrorsAreAppended) {
  rest::User bob{"bob", "", {"system:authenticated"}, {}};
  env.binding("default", "bob-editor", "Role", "rbac-editor", json::Array{subject("User", "bob")});
  env.binding("default", "bob-missing", "Role", "nope", json::Array{subject("User", "bob")});
  auto e = refusal(bob, kRoles, "default", role_obj("Role", "rx", json::Array{rule({"get"}, {""}, {"secrets"})}));
  EXPECT_NE(e.find(R"({APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\"]}; resolution errors: [roles.rbac.authorization.k8s.io \"nope\" not found]")"),
            std::string::npos)
      << e;
}

TEST_F(Escalation, BindingsNeedTheRolesPermissionsOrBind) {
  env.role("default", "r2", json::Array{rule({"get", "list"}, {""}, {"configmaps"})});
  env.role("default", "secrets", json::Array{rule({"get"}, {""}, {"secrets"})});
  EXPECT_EQ(refusal(alice, kRoleBindings, "default", binding_obj("RoleBinding", "b2", "Role", "r2")), "");
  auto e = refusal(alice, kRoleBindings, "default", binding_obj("RoleBinding", "b3", "Role", "secrets"));
  EXPECT_NE(e.find(R"(rolebindings.rbac.authorization.k8s.io \"b3\" is forbidden: user \"alice\" (groups=[\"devs\" \"system:authenticated\"]) )"
                   R"(is attempting to grant RBAC permissions not currently held:\n{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\"]}")"),
            std::string::npos)
      << e;
  int code = 0;
  EXPECT_EQ(refusal(alice, kRoleBindings, "default", binding_obj("RoleBinding", "bx", "ClusterRole", "missing"), &code),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"rolebindings.rbac.authorization.k8s.io \"missing\" not found",)"
            R"("reason":"NotFound","details":{"name":"missing","group":"rbac.authorization.k8s.io","kind":"rolebindings"},"code":404})");
  EXPECT_EQ(code, 404);
  EXPECT_EQ(refusal(alice, kRoleBindings, "default", binding_obj("RoleBinding", "bx", "Bogus", "missing"), &code),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"unsupported role reference kind: \"Bogus\"","code":500})");
  // `bind` on the role lifts the check.
  env.role("default", "binder", json::Array{rule({"bind"}, {"rbac.authorization.k8s.io"}, {"roles"}, {"secrets"})});
  env.binding("default", "alice-binder", "Role", "binder", json::Array{subject("User", "alice")});
  EXPECT_EQ(refusal(alice, kRoleBindings, "default", binding_obj("RoleBinding", "b3", "Role", "secrets")), "");
}

TEST_F(Escalation, ClusterRoleBindingsAndSuperusers) {
  rest::User admin{"admin", "", {"system:masters"}, {}};
  EXPECT_EQ(refusal(admin, kClusterRoleBindings, "", binding_obj("ClusterRoleBinding", "any", "ClusterRole", "missing")), "");
  rest::User bob{"bob", "", {"system:authenticated"}, {}};
  env.role("", "crb-creator", json::Array{rule({"create"}, {"rbac.authorization.k8s.io"}, {"clusterrolebindings"})});
  env.binding("", "bob-crb", "ClusterRole", "crb-creator", json::Array{subject("User", "bob")});
  EXPECT_NE(refusal(bob, kClusterRoleBindings, "", binding_obj("ClusterRoleBinding", "bx", "ClusterRole", "missing"))
                .find(R"("message":"clusterrolebindings.rbac.authorization.k8s.io \"missing\" not found")"),
            std::string::npos);
  // bob holds crb-creator's rules himself, so he may bind it.
  EXPECT_EQ(refusal(bob, kClusterRoleBindings, "", binding_obj("ClusterRoleBinding", "again", "ClusterRole", "crb-creator")), "");
}

TEST_F(Escalation, GarbageCollectorStyleUpdatesPass) {
  env.role("default", "secrets", json::Array{rule({"get"}, {""}, {"secrets"})});
  auto current = env.get(kRoles, "default", "secrets");
  json::Value next = current;
  json::ensure_object(next, {"metadata"})["finalizers"] = json::Array{"example.com/x"};
  rest::WriteOptions o;
  o.user = alice;
  EXPECT_NO_THROW(env.service.update(env.target(kRoles, "default", "secrets"), next, o));
  // Any other change is checked.
  next = env.get(kRoles, "default", "secrets");
  json::ensure_object(next, {"metadata"})["labels"] = json::Object{{"a", "b"}};
  EXPECT_THROW(env.service.update(env.target(kRoles, "default", "secrets"), next, o), ApiError);
}

}  // namespace
}  // namespace capstan::apiserver::auth
