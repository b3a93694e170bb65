// Impersonation headers, checked as kube-apiserver v1.37.2 (constrained impersonation on) checks
// them; expected texts are kube's answers.
#include "apiserver/auth/impersonation.h"
#include "apiserver/auth/request_attributes.h"
#include "apiserver/auth/test_env.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::auth {
namespace {

using namespace testing;

class ImpersonationTest : public ::testing::Test {
 protected:
  // Runs GET `path` as bob with `headers`; returns the user it runs as, or the error text.
  std::string as_bob(const http::Headers& headers, const std::string& path = "/api/v1/namespaces") {
    http::Request req;
    req.target = path;
    req.headers = headers;
    try {
      auto wanted = requested_user(req.headers);
      if (!wanted) return "no impersonation";
      Attributes a = request_attributes(req, bob);
      rest::User u = impersonation.impersonate(bob, *wanted, a);
      std::string out = u.name + " [";
      for (const auto& g : u.groups) out += (out.back() == '[' ? "" : " ") + g;
      out += "]";
      for (const auto& [k, v] : u.extra) out += " " + k + "=" + v.front();
      if (!u.uid.empty()) out += " uid=" + u.uid;
      return out;
    } catch (const ApiError& e) {
      return std::to_string(e.code) + " " + e.what();
    }
  }
  void grant(const std::string& name, json::Array rules) {
    env.role("", name, std::move(rules));
    env.binding("", name, "ClusterRole", name, json::Array{subject("User", "bob")});
  }
  Env env;
  RbacAuthorizer& authorizer = env.authorizer;
  Impersonation impersonation{env.authorizer};
  rest::User bob{"bob", "", {"system:authenticated"}, {}};
};

TEST_F(ImpersonationTest, HeadersWithoutAUserAreABadRequest) {
  EXPECT_EQ(as_bob({{"Impersonate-Group", "g1"}}),
            R"(400 requested &user.DefaultInfo{Name:"", UID:"", Groups:[]string{"g1"}, Extra:map[string][]string(nil)} without impersonating a user name)");
  EXPECT_EQ(as_bob({{"Impersonate-Uid", "u1"}}),
            R"(400 requested &user.DefaultInfo{Name:"", UID:"u1", Groups:[]string(nil), Extra:map[string][]string(nil)} without impersonating a user name)");
  EXPECT_EQ(as_bob({{"Impersonate-Extra-Scopes", "a"}}),
            R"(400 requested &user.DefaultInfo{Name:"", UID:"", Groups:[]string(nil), Extra:map[string][]string{"scopes":[]string{"a"}}} without impersonating a user name)");
  EXPECT_EQ(as_bob({{"Accept", "x"}}), "no impersonation");
}

TEST_F(ImpersonationTest, RefusedWithTheFirstModesAnswer) {
  EXPECT_EQ(as_bob({{"Impersonate-User", "alice"}}),
            R"(403 namespaces is forbidden: User "bob" cannot impersonate-on:user-info:list resource "namespaces" in API group "" at the cluster scope)");
  EXPECT_EQ(as_bob({{"Impersonate-User", "system:serviceaccount:default:sa1"}}),
            R"(403 namespaces is forbidden: User "bob" cannot impersonate-on:serviceaccount:list resource "namespaces" in API group "" at the cluster scope)");
  EXPECT_EQ(as_bob({{"Impersonate-User", "system:node:n1"}}, "/api/v1/namespaces/default/pods/p"),
            R"(403 pods "p" is forbidden: User "bob" cannot impersonate-on:arbitrary-node:get resource "pods" in API group "" in the namespace "default")");
  EXPECT_EQ(as_bob({{"Impersonate-User", "alice"}}, "/apis"), R"(403 forbidden: User "bob" cannot impersonate-on:user-info:get path "/apis")");
}

TEST_F(ImpersonationTest, LegacyImpersonation) {
  grant("impersonator", json::Array{rule({"impersonate"}, {""}, {"users", "serviceaccounts"})});
  EXPECT_EQ(as_bob({{"Impersonate-User", "alice"}}), "alice [system:authenticated]");
  EXPECT_EQ(as_bob({{"Impersonate-User", "system:serviceaccount:default:sa1"}}),
            "system:serviceaccount:default:sa1 [system:serviceaccounts system:serviceaccounts:default system:authenticated]");
  EXPECT_EQ(as_bob({{"Impersonate-User", "system:anonymous"}}), "system:anonymous [system:unauthenticated]");
  // Legacy worked last for bob, so its refusal is the one reported now.
  EXPECT_EQ(as_bob({{"Impersonate-User", "alice"}, {"Impersonate-Group", "g1"}}),
            R"(403 groups "g1" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope)");
  EXPECT_EQ(as_bob({{"Impersonate-User", "alice"}, {"Impersonate-Uid", "u1"}}),
            R"(403 uids.authentication.k8s.io "u1" is forbidden: User "bob" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope)");
  grant("impersonator2", json::Array{rule({"impersonate"}, {""}, {"groups"}), rule({"impersonate"}, {"authentication.k8s.io"}, {"userextras/scopes"})});
  EXPECT_EQ(as_bob({{"Impersonate-User", "alice"}, {"Impersonate-Group", "g1"}, {"Impersonate-Extra-Scopes", "view"}}),
            "alice [g1 system:authenticated] scopes=view");
  EXPECT_EQ(as_bob({{"Impersonate-User", "alice"}, {"Impersonate-Group", "system:unauthenticated"}}), "alice [system:unauthenticated]");
}

TEST_F(ImpersonationTest, LegacyNeedsTheUserItself) {
  grant("impersonate-users", json::Array{rule({"impersonate"}, {""}, {"users"}, {"carl"})});
  EXPECT_EQ(as_bob({{"Impersonate-User", "carl"}}), "carl [system:authenticated]");
  EXPECT_EQ(as_bob({{"Impersonate-User", "alice"}}),
            R"(403 users "alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope)");
}

TEST_F(ImpersonationTest, ConstrainedUserInfoMode) {
  grant("constrained", json::Array{rule({"impersonate-on:user-info:list"}, {""}, {"namespaces"}),
                                   rule({"impersonate:user-info"}, {"authentication.k8s.io"}, {"users", "groups"})});
  EXPECT_EQ(as_bob({{"Impersonate-User", "alice"}}), "alice [system:authenticated]");
  EXPECT_EQ(as_bob({{"Impersonate-User", "alice"}, {"Impersonate-Group", "devs"}}), "alice [devs system:authenticated]");
  EXPECT_EQ(as_bob({{"Impersonate-User", "alice"}, {"Impersonate-Group", "system:masters"}}),
            R"(403 groups.authentication.k8s.io "system:masters" is forbidden: User "bob" cannot impersonate:user-info resource "groups" in API group "authentication.k8s.io" at the cluster scope: impersonating the system:masters group is not allowed)");
  // Only for what impersonate-on names.
  EXPECT_EQ(as_bob({{"Impersonate-User", "alice"}}, "/api/v1/namespaces/x"),
            R"(403 namespaces "x" is forbidden: User "bob" cannot impersonate-on:user-info:get resource "namespaces" in API group "" in the namespace "x")");
}

TEST_F(ImpersonationTest, ConstrainedServiceAccountAndNodeModes) {
  grant("sa", json::Array{rule({"impersonate-on:serviceaccount:list"}, {""}, {"namespaces"}),
                          rule({"impersonate:serviceaccount"}, {"authentication.k8s.io"}, {"serviceaccounts"})});
  EXPECT_EQ(as_bob({{"Impersonate-User", "system:serviceaccount:ns1:robot"}}),
            "system:serviceaccount:ns1:robot [system:serviceaccounts system:serviceaccounts:ns1 system:authenticated]");
  grant("node", json::Array{rule({"impersonate-on:arbitrary-node:list"}, {""}, {"namespaces"}),
                            rule({"impersonate:arbitrary-node"}, {"authentication.k8s.io"}, {"nodes"})});
  EXPECT_EQ(as_bob({{"Impersonate-User", "system:node:n1"}}), "system:node:n1 [system:nodes system:authenticated]");
}

}  // namespace
}  // namespace capstan::apiserver::auth
