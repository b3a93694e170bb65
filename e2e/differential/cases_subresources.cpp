// Built-in subresources: a Deployment's scale and status, and a ServiceAccount's token.
#include "e2e/differential/session.h"

namespace capstan::e2e::diff {

DIFF_CASE(subresources, DeploymentScaleAndStatus) {
  const std::string d = "/apis/apps/v1/namespaces/{ns}/deployments";
  s.setup({.method = "POST", .path = d,
           .body = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},
                      "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx:1.25"}]}}}})"});
  s.send("get scale", {.path = d + "/web/scale"});
  auto scale = s.send("patch scale", {.method = "PATCH", .path = d + "/web/scale", .body = R"({"spec":{"replicas":3}})",
                                      .content_type = "application/merge-patch+json"});
  s.capture("rv", scale, {"metadata", "resourceVersion"});
  s.send("put scale with a stale resourceVersion",
         {.method = "PUT", .path = d + "/web/scale",
          .body = R"({"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web","namespace":"{ns}","resourceVersion":"1"},"spec":{"replicas":2}})"});
  s.send("a negative scale", {.method = "PATCH", .path = d + "/web/scale", .body = R"({"spec":{"replicas":-2}})",
                              .content_type = "application/merge-patch+json"});
  s.send("the deployment after scaling", {.path = d + "/web"}, Compare{.masks = {.drop = {"/status"}}});
  s.send("a status write ignores spec", {.method = "PATCH", .path = d + "/web/status",
                                         .body = R"({"spec":{"replicas":7},"status":{"observedGeneration":5}})",
                                         .content_type = "application/merge-patch+json"});
  s.send("scale of a configmap", {.path = "/api/v1/namespaces/{ns}/configmaps/x/scale"});
}

}  // namespace capstan::e2e::diff
