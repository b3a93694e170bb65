// The access and rules reviews, answered through the authorizer in kube's shapes.
#include "apiserver/auth/reviews.h"
#include "apiserver/auth/test_env.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::auth {
namespace {

using namespace testing;

class ReviewsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    env.create_namespace("default");
    env.role("default", "cm-reader", json::Array{rule({"get", "list"}, {""}, {"configmaps"})});
    env.binding("default", "reader", "Role", "cm-reader", json::Array{subject("ServiceAccount", "reader", "default")});
    env.role("", "discovery", json::Array{url_rule({"get"}, {"/api", "/api/*"})});
    env.binding("", "discovery", "ClusterRole", "discovery", json::Array{subject("Group", "system:authenticated")});
  }
  // The answer's status (or the error's Status) for `body` posted as `kind`.
  std::string ask(const std::string& resource, const std::string& body, const rest::User& as, const std::string& ns = "") {
    auto r = env.registry.find_group_resource(resource);
    try {
      auto out = reviews.answer(*r, ns, json::parse(body), as);
      const auto* status = json::find(out, {"status"});
      return status ? json::serialize(*status) : json::serialize(out);
    } catch (const ApiError& e) {
      return json::serialize(e.status());
    }
  }
  Env env;
  TokenIssuer tokens{""};
  Reviews reviews{env.authorizer, tokens};
  rest::User admin{"admin", "", {"system:masters", "system:authenticated"}, {}};
  rest::User reader = sa_user("default", "reader");
};

const std::string kSar = "subjectaccessreviews.authorization.k8s.io";
const std::string kLsar = "localsubjectaccessreviews.authorization.k8s.io";
const std::string kSsar = "selfsubjectaccessreviews.authorization.k8s.io";
const std::string kSsrr = "selfsubjectrulesreviews.authorization.k8s.io";

TEST_F(ReviewsTest, SubjectAccessReview) {
  EXPECT_EQ(ask(kSar, R"({"spec":{"user":"system:serviceaccount:default:reader","resourceAttributes":{"verb":"list","resource":"configmaps","namespace":"default"}}})", admin),
            R"({"allowed":true,"reason":"RBAC: allowed by RoleBinding \"reader/default\" of Role \"cm-reader\" to ServiceAccount \"reader/default\""})");
  EXPECT_EQ(ask(kSar, R"({"spec":{"user":"x","groups":["system:authenticated"],"resourceAttributes":{"verb":"get","resource":"pods"}}})", admin),
            R"({"allowed":false})");
  EXPECT_EQ(ask(kSar, R"({"spec":{"user":"x","groups":["system:masters"],"resourceAttributes":{"verb":"get","resource":"pods"}}})", admin),
            R"({"allowed":true})");
  EXPECT_EQ(ask(kSar, R"({"spec":{"user":"x","groups":["system:authenticated"],"nonResourceAttributes":{"verb":"get","path":"/api"}}})", admin),
            R"({"allowed":true,"reason":"RBAC: allowed by ClusterRoleBinding \"discovery\" of ClusterRole \"discovery\" to Group \"system:authenticated\""})");
  EXPECT_EQ(ask(kSar, R"({"spec":{"user":"x","resourceAttributes":{"verb":"get","resource":"pods","fieldSelector":{"rawSelector":"nonsense"}}}})", admin),
            R"({"allowed":false,"evaluationError":"spec.resourceAttributes.fieldSelector ignored due to parse error"})");
}

TEST_F(ReviewsTest, SubjectAccessReviewValidation) {
  EXPECT_EQ(ask(kSar, R"({"spec":{"user":"a"}})", admin),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":".authorization.k8s.io \"\" is invalid: spec: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified","reason":"Invalid","details":{"group":"authorization.k8s.io","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified","field":"spec"}]},"code":422})");
  EXPECT_NE(ask(kSar, R"({"spec":{"resourceAttributes":{"verb":"get"}}})", admin)
                .find(R"(spec.user: Invalid value: \"\": at least one of user or group must be specified)"),
            std::string::npos);
  EXPECT_NE(ask(kSar, R"({"spec":{"user":"a","resourceAttributes":{"verb":"get"},"nonResourceAttributes":{"verb":"get"}}})", admin)
                .find(R"(spec: Invalid value: {\"Path\":\"\",\"Verb\":\"get\"}: exactly one of)"),
            std::string::npos);
  EXPECT_NE(ask(kSar, R"({"metadata":{"name":"x"},"spec":{"user":"a","resourceAttributes":{"verb":"get"}}})", admin).find("must be empty"),
            std::string::npos);
}

TEST_F(ReviewsTest, LocalSubjectAccessReview) {
  EXPECT_EQ(ask(kLsar, R"({"metadata":{"namespace":"default"},"spec":{"user":"system:serviceaccount:default:reader","resourceAttributes":{"verb":"get","resource":"configmaps","namespace":"default"}}})",
                admin, "default"),
            R"({"allowed":true,"reason":"RBAC: allowed by RoleBinding \"reader/default\" of Role \"cm-reader\" to ServiceAccount \"reader/default\""})");
  EXPECT_EQ(ask(kLsar, R"({"spec":{"user":"x","resourceAttributes":{"verb":"get","resource":"pods"}}})", admin, "default"),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":".authorization.k8s.io \"\" is invalid: spec.resourceAttributes.namespace: Invalid value: \"\": must match metadata.namespace","reason":"Invalid","details":{"group":"authorization.k8s.io","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"\": must match metadata.namespace","field":"spec.resourceAttributes.namespace"}]},"code":422})");
  EXPECT_EQ(ask(kLsar, R"({"metadata":{"namespace":"other"},"spec":{"user":"x","resourceAttributes":{"verb":"get","resource":"pods","namespace":"other"}}})", admin, "default"),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the namespace of the provided object does not match the namespace sent on the request","reason":"BadRequest","code":400})");
}

TEST_F(ReviewsTest, SelfSubjectAccessReviewAsksAboutTheRequester) {
  EXPECT_EQ(ask(kSsar, R"({"spec":{"resourceAttributes":{"verb":"get","resource":"configmaps","namespace":"default"}}})", reader),
            R"({"allowed":true,"reason":"RBAC: allowed by RoleBinding \"reader/default\" of Role \"cm-reader\" to ServiceAccount \"reader/default\""})");
  EXPECT_EQ(ask(kSsar, R"({"metadata":{"creationTimestamp":null},"spec":{"resourceAttributes":{"verb":"delete","resource":"configmaps","namespace":"default"}}})", reader),
            R"({"allowed":false})");
  EXPECT_EQ(ask(kSsar, R"({"spec":{"resourceAttributes":{"verb":"get","resource":"pods"}}})", admin), R"({"allowed":true})");
}

TEST_F(ReviewsTest, SelfSubjectRulesReview) {
  auto r = env.registry.find_group_resource(kSsrr);
  auto out = reviews.answer(*r, "", json::parse(R"({"metadata":{"managedFields":[]},"spec":{"namespace":"default"}})"), reader);
  EXPECT_EQ(json::serialize(out),
            R"({"metadata":{},"spec":{},"status":{"resourceRules":[{"verbs":["get","list"],"apiGroups":[""],"resources":["configmaps"]}],)"
            R"("nonResourceRules":[{"verbs":["get"],"nonResourceURLs":["/api","/api/*"]}],"incomplete":false}})");
  EXPECT_EQ(ask(kSsrr, R"({"spec":{}})", reader),
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"no namespace on request","reason":"BadRequest","code":400})");
  env.binding("default", "missing", "Role", "nope", json::Array{subject("Group", "system:authenticated")});
  EXPECT_NE(ask(kSsrr, R"({"spec":{"namespace":"default"}})", reader).find(R"("evaluationError":"role.rbac.authorization.k8s.io \"nope\" not found")"),
            std::string::npos);
}

TEST_F(ReviewsTest, SelfSubjectReviewAndTokenReview) {
  auto ssr = env.registry.find_group_resource("selfsubjectreviews.authentication.k8s.io");
  rest::User u{"alice", "", {"devs", "system:authenticated"}, {{"scopes", {"view"}}}};
  auto out = reviews.answer(*ssr, "", json::Object{}, u);
  EXPECT_EQ(json::serialize(*json::find(out, {"status"})),
            R"({"userInfo":{"username":"alice","groups":["devs","system:authenticated"],"extra":{"scopes":["view"]}}})");
  EXPECT_FALSE(json::get_string(out, {"metadata", "creationTimestamp"}).empty());

  TokenClaims c;
  c.ns = "default";
  c.service_account = "reader";
  c.uid = "u-1";
  c.audiences = {"https://kubernetes.default.svc"};
  c.expires_at = 4102444800;  // 2100
  auto tr = env.registry.find_group_resource("tokenreviews.authentication.k8s.io");
  out = reviews.answer(*tr, "", json::Object{{"spec", json::Object{{"token", tokens.issue(c)}}}}, admin);
  EXPECT_EQ(json::serialize(*json::find(out, {"status"})),
            R"({"authenticated":true,"user":{"username":"system:serviceaccount:default:reader","uid":"u-1","groups":["system:serviceaccounts","system:serviceaccounts:default","system:authenticated"]},"audiences":["https://kubernetes.default.svc"]})");
}

}  // namespace
}  // namespace capstan::apiserver::auth
