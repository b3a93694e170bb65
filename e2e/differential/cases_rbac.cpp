// Authorization: a ServiceAccount's token (TokenRequest) allowed and denied by a Role, the
// 403 bodies clients show, SubjectAccessReview and its self and local forms, `kubectl auth
// can-i`, impersonation, and the bootstrap ClusterRoles every cluster has.
#include "e2e/differential/session.h"

namespace capstan::e2e::diff {
namespace {

const std::string kCms = "/api/v1/namespaces/{ns}/configmaps";

void reader_with_token(Session& s) {
  s.setup({.method = "POST", .path = "/api/v1/namespaces/{ns}/serviceaccounts",
           .body = R"({"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"reader"}})"});
  s.setup({.method = "POST", .path = "/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles",
           .body = R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"cm-reader"},
                      "rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["get","list","watch"]},
                               {"apiGroups":[""],"resources":["configmaps"],"resourceNames":["writable"],"verbs":["update","patch"]}]})"});
  s.setup({.method = "POST", .path = "/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/rolebindings",
           .body = R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"cm-reader"},
                      "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"cm-reader"},
                      "subjects":[{"kind":"ServiceAccount","name":"reader","namespace":"{ns}"}]})"});
  Compare token;
  token.masks.mask = {"/status/token", "/status/expirationTimestamp"};
  auto t = s.send("TokenRequest", {.method = "POST", .path = "/api/v1/namespaces/{ns}/serviceaccounts/reader/token",
                                   .body = R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":3600}})"},
                  token);
  s.capture("token", t, {"status", "token"});
  s.setup({.method = "POST", .path = kCms, .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"writable"},"data":{"a":"b"}})"});
}

}  // namespace

DIFF_CASE(rbac, AServiceAccountTokenIsAllowedWhatItsRoleGrantsAndNothingElse) {
  reader_with_token(s);
  s.send("list in its namespace", {.path = kCms, .bearer = "{token}"});
  s.send("get a missing one", {.path = kCms + "/missing", .bearer = "{token}"});
  s.send("list in another namespace", {.path = "/api/v1/namespaces/default/configmaps", .bearer = "{token}"});
  s.send("list across namespaces", {.path = "/api/v1/configmaps", .bearer = "{token}"});
  s.send("get a secret", {.path = "/api/v1/namespaces/{ns}/secrets/x", .bearer = "{token}"});
  s.send("create", {.method = "POST", .path = kCms, .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"new"}})",
                    .bearer = "{token}"});
  s.send("patch the named one", {.method = "PATCH", .path = kCms + "/writable", .body = R"({"data":{"a":"c"}})",
                                 .content_type = "application/merge-patch+json", .bearer = "{token}"});
  s.send("patch another", {.method = "PATCH", .path = kCms + "/kube-root-ca.crt", .body = R"({"data":{"a":"c"}})",
                           .content_type = "application/merge-patch+json", .bearer = "{token}"});
  s.send("a cluster-scoped resource", {.path = "/api/v1/namespaces", .bearer = "{token}"});
  s.send("a subresource", {.method = "POST", .path = "/api/v1/namespaces/{ns}/serviceaccounts/reader/token",
                           .body = R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{}})", .bearer = "{token}"});
  s.send("discovery is open to every authenticated user", {.path = "/api", .bearer = "{token}"}, Compare{.body = false});
  s.send("a non-resource path it may not read", {.path = "/metrics", .bearer = "{token}"}, Compare{.body = false});
  s.send("a bad token", {.path = kCms, .bearer = "not-a-token"});
}

DIFF_CASE(rbac, AccessReviewsAndKubectlAuthCanI) {
  reader_with_token(s);
  auto sar = [&](const std::string& verb, const std::string& ns, const std::string& resource) {
    return R"({"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"user":"system:serviceaccount:{ns}:reader",
      "groups":["system:serviceaccounts","system:serviceaccounts:{ns}","system:authenticated"],
      "resourceAttributes":{"namespace":")" + ns + R"(","verb":")" + verb + R"(","resource":")" + resource + R"("}}})";
  };
  const std::string sars = "/apis/authorization.k8s.io/v1/subjectaccessreviews";
  s.send("SubjectAccessReview allowed", {.method = "POST", .path = sars, .body = sar("list", "{ns}", "configmaps")});
  s.send("SubjectAccessReview denied", {.method = "POST", .path = sars, .body = sar("delete", "{ns}", "configmaps")});
  s.send("SubjectAccessReview in another namespace", {.method = "POST", .path = sars, .body = sar("list", "default", "configmaps")});
  s.send("LocalSubjectAccessReview",
         {.method = "POST", .path = "/apis/authorization.k8s.io/v1/namespaces/{ns}/localsubjectaccessreviews",
          .body = R"({"apiVersion":"authorization.k8s.io/v1","kind":"LocalSubjectAccessReview","metadata":{"namespace":"{ns}"},
                     "spec":{"user":"system:serviceaccount:{ns}:reader","resourceAttributes":{"namespace":"{ns}","verb":"get","resource":"configmaps"}}})"});
  s.send("SelfSubjectAccessReview with the token",
         {.method = "POST", .path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
          .body = R"({"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":{"namespace":"{ns}","verb":"watch","resource":"configmaps"}}})",
          .bearer = "{token}"});
  s.send("SelfSubjectRulesReview with the token",
         {.method = "POST", .path = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
          .body = R"({"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","spec":{"namespace":"{ns}"}})", .bearer = "{token}"});
  s.send("SelfSubjectReview (kubectl auth whoami)",
         {.method = "POST", .path = "/apis/authentication.k8s.io/v1/selfsubjectreviews",
          .body = R"({"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"})", .bearer = "{token}"});
  const std::string as = "--as=system:serviceaccount:{ns}:reader";
  s.kubectl("can-i list", {"auth", "can-i", "list", "configmaps", "-n", "{ns}", as});
  s.kubectl("can-i delete", {"auth", "can-i", "delete", "configmaps", "-n", "{ns}", as});
  s.kubectl("can-i patch a named one", {"auth", "can-i", "patch", "configmaps/writable", "-n", "{ns}", as});
  s.kubectl("can-i --list", {"auth", "can-i", "--list", "-n", "{ns}", as});
  s.kubectl("as admin", {"auth", "can-i", "*", "*"});
}

DIFF_CASE(rbac, ImpersonationNeedsItsVerb) {
  reader_with_token(s);
  s.send("the admin impersonates the reader",
         {.path = kCms, .headers = {{"Impersonate-User", "system:serviceaccount:{ns}:reader"}}});
  s.send("the admin impersonates the reader where it may not read",
         {.path = "/api/v1/namespaces/default/configmaps", .headers = {{"Impersonate-User", "system:serviceaccount:{ns}:reader"}}});
  s.send("the reader may not impersonate", {.path = kCms, .headers = {{"Impersonate-User", "admin"}}, .bearer = "{token}"});
  s.send("groups without a user", {.path = kCms, .headers = {{"Impersonate-Group", "system:masters"}}});
}

DIFF_CASE(rbac, RoleEscalationIsRefused) {
  reader_with_token(s);
  // The reader may create Roles in its namespace, but not ones granting more than it holds.
  s.setup({.method = "POST", .path = "/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles",
           .body = R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"role-writer"},
                      "rules":[{"apiGroups":["rbac.authorization.k8s.io"],"resources":["roles","rolebindings"],"verbs":["create"]}]})"});
  s.setup({.method = "POST", .path = "/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/rolebindings",
           .body = R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"role-writer"},
                      "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"role-writer"},
                      "subjects":[{"kind":"ServiceAccount","name":"reader","namespace":"{ns}"}]})"});
  s.send("a role within its own rights", {.method = "POST", .path = "/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles",
                                          .body = R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"ok"},
                                                     "rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["get"]}]})",
                                          .bearer = "{token}"});
  s.send("a role granting more", {.method = "POST", .path = "/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles",
                                  .body = R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"more"},
                                             "rules":[{"apiGroups":[""],"resources":["secrets"],"verbs":["get"]}]})",
                                  .bearer = "{token}"});
  s.send("a binding to cluster-admin", {.method = "POST", .path = "/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/rolebindings",
                                        .body = R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"admin"},
                                                   "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"cluster-admin"},
                                                   "subjects":[{"kind":"ServiceAccount","name":"reader","namespace":"{ns}"}]})",
                                        .bearer = "{token}"});
}

DIFF_CASE(rbac, BootstrapClusterRoles) {
  Compare roles;
  roles.masks.drop = {"/metadata/managedFields", "/metadata/annotations"};
  for (const char* role : {"cluster-admin", "admin", "edit", "view", "system:basic-user", "system:discovery", "system:public-info-viewer"})
    s.send(std::string("clusterrole ") + role, {.path = std::string("/apis/rbac.authorization.k8s.io/v1/clusterroles/") + role}, roles);
  for (const char* binding : {"cluster-admin", "system:basic-user", "system:discovery", "system:public-info-viewer"})
    s.send(std::string("clusterrolebinding ") + binding,
           {.path = std::string("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/") + binding}, roles);
}

}  // namespace capstan::e2e::diff
