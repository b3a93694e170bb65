// Create, read, update, delete: the bodies and Status answers of the basic verbs, including
// the ones clients get wrong against a server that is not kube-apiserver (bodies without
// apiVersion/kind, stale resourceVersions, preconditions, finalizers, dry-run).
#include "e2e/differential/session.h"

namespace capstan::e2e::diff {
namespace {

const std::string kCms = "/api/v1/namespaces/{ns}/configmaps";

std::string cm(const std::string& name, const std::string& extra = "") {
  return R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name + R"(","labels":{"app":"diff"})" + extra +
         R"(},"data":{"k":"v"}})";
}

}  // namespace

DIFF_CASE(crud, CreateGetReplaceDeleteAConfigMap) {
  auto created = s.send("create", {.method = "POST", .path = kCms, .body = cm("a")});
  s.capture("rv", created, {"metadata", "resourceVersion"});
  s.send("get", {.path = kCms + "/a"});
  s.send("replace", {.method = "PUT", .path = kCms + "/a",
                     .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"{rv}"},"data":{"k":"v2"}})"});
  s.send("replace with a stale resourceVersion",
         {.method = "PUT", .path = kCms + "/a",
          .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"{rv}"},"data":{"k":"v3"}})"});
  s.send("replace without a resourceVersion",
         {.method = "PUT", .path = kCms + "/a", .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v4"}})"});
  s.send("replace with another name in the body",
         {.method = "PUT", .path = kCms + "/a", .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"},"data":{}})"});
  s.send("delete", {.method = "DELETE", .path = kCms + "/a"});
  s.send("get after delete", {.path = kCms + "/a"});
  s.send("delete again", {.method = "DELETE", .path = kCms + "/a"});
}

DIFF_CASE(crud, BodiesWithoutApiVersionAndKindTakeThemFromTheUrl) {
  s.send("configmap", {.method = "POST", .path = kCms, .body = R"({"metadata":{"name":"bare"},"data":{"a":"b"}})"});
  s.send("secret", {.method = "POST", .path = "/api/v1/namespaces/{ns}/secrets",
                    .body = R"({"metadata":{"name":"bare"},"stringData":{"a":"b"}})"});
  s.send("deployment", {.method = "POST", .path = "/apis/apps/v1/namespaces/{ns}/deployments",
                        .body = R"({"metadata":{"name":"bare"},"spec":{"selector":{"matchLabels":{"a":"b"}},
                                   "template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}})"});
  s.send("wrong kind in the body", {.method = "POST", .path = kCms, .body = R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"x"}})"});
  s.send("wrong apiVersion in the body",
         {.method = "POST", .path = kCms, .body = R"({"apiVersion":"apps/v1","kind":"ConfigMap","metadata":{"name":"x"}})"});
}

DIFF_CASE(crud, AlreadyExistsNotFoundAndBadNames) {
  s.send("create", {.method = "POST", .path = kCms, .body = cm("dup")});
  s.send("create again", {.method = "POST", .path = kCms, .body = cm("dup")});
  s.send("in a missing namespace", {.method = "POST", .path = "/api/v1/namespaces/nope/configmaps", .body = cm("x")});
  s.send("invalid name", {.method = "POST", .path = kCms, .body = cm("Not_A_Name")});
  s.send("no name", {.method = "POST", .path = kCms, .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{}})"});
  s.send("unknown resource", {.path = "/api/v1/namespaces/{ns}/nosuchthings"});
  s.send("unknown group", {.path = "/apis/nosuch.example.com/v1/things"});
  s.send("malformed JSON", {.method = "POST", .path = kCms, .body = R"({"apiVersion":"v1",)"});
}

DIFF_CASE(crud, GenerateNameAndDryRun) {
  Compare random_suffix;
  random_suffix.masks.text.emplace_back(std::regex("gen-[a-z0-9]{5}"), "gen-<suffix>");
  s.send("generateName", {.method = "POST", .path = kCms, .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"gen-"}})"},
         random_suffix);
  s.send("dry-run create", {.method = "POST", .path = kCms + "?dryRun=All", .body = cm("dry")});
  s.send("dry-run leaves nothing", {.path = kCms + "/dry"});
  s.send("bad dryRun value", {.method = "POST", .path = kCms + "?dryRun=Some", .body = cm("dry")});
  s.send("create", {.method = "POST", .path = kCms, .body = cm("real")});
  s.send("dry-run delete", {.method = "DELETE", .path = kCms + "/real?dryRun=All"});
  s.send("still there", {.path = kCms + "/real"});
}

DIFF_CASE(crud, DeletePreconditionsAndReturnedBodies) {
  s.send("create", {.method = "POST", .path = kCms, .body = cm("p")});
  s.send("uid precondition fails",
         {.method = "DELETE", .path = kCms + "/p", .body = R"({"preconditions":{"uid":"00000000-0000-0000-0000-000000000000"}})"});
  Compare record;
  record.masks.text.emplace_back(std::regex("in record \\([0-9]+\\)"), "in record (<rv>)");
  s.send("resourceVersion precondition fails", {.method = "DELETE", .path = kCms + "/p", .body = R"({"preconditions":{"resourceVersion":"1"}})"},
         record);
  // ServiceAccounts answer a delete with the deleted object, ConfigMaps with a Status.
  s.send("create serviceaccount", {.method = "POST", .path = "/api/v1/namespaces/{ns}/serviceaccounts",
                                   .body = R"({"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"robot"}})"});
  s.send("delete serviceaccount", {.method = "DELETE", .path = "/api/v1/namespaces/{ns}/serviceaccounts/robot"});
  s.send("delete with a bad propagationPolicy", {.method = "DELETE", .path = kCms + "/p", .body = R"({"propagationPolicy":"Sideways"})"});
}

DIFF_CASE(crud, FinalizersHoldADeletedObject) {
  s.send("create", {.method = "POST", .path = kCms, .body = cm("held", R"(,"finalizers":["example.com/hold"])")});
  auto deleting = s.send("delete", {.method = "DELETE", .path = kCms + "/held"});
  s.capture("rv", deleting, {"metadata", "resourceVersion"});
  s.send("a new finalizer is refused",
         {.method = "PATCH", .path = kCms + "/held", .body = R"({"metadata":{"finalizers":["example.com/hold","example.com/more"]}})",
          .content_type = "application/merge-patch+json"});
  s.send("other changes are still allowed", {.method = "PATCH", .path = kCms + "/held", .body = R"({"data":{"k":"changed"}})",
                                             .content_type = "application/merge-patch+json"});
  s.send("the last finalizer removed", {.method = "PATCH", .path = kCms + "/held", .body = R"({"metadata":{"finalizers":null}})",
                                        .content_type = "application/merge-patch+json"});
  s.send("gone", {.path = kCms + "/held"});
}

DIFF_CASE(crud, EveryNamespaceHasTheRootCaConfigMapAndTheDefaultServiceAccount) {
  s.wait_for(kCms + "/kube-root-ca.crt");
  s.wait_for("/api/v1/namespaces/{ns}/serviceaccounts/default");
  Compare ca;
  ca.masks.mask = {"/data/ca.crt"};
  s.send("kube-root-ca.crt", {.path = kCms + "/kube-root-ca.crt"}, ca);
  Compare sa;
  sa.masks.drop = {"/secrets"};
  s.send("default serviceaccount", {.path = "/api/v1/namespaces/{ns}/serviceaccounts/default"}, sa);
}

}  // namespace capstan::e2e::diff
