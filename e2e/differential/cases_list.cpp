// LIST: label and field selectors (every operator, and the errors of bad ones), pagination
// with limit and continue tokens, remainingItemCount.
#include "e2e/differential/session.h"

namespace capstan::e2e::diff {
namespace {

const std::string kCms = "/api/v1/namespaces/{ns}/configmaps";

void make_labelled(Session& s) {
  const char* items[][3] = {{"p1", "prod", "web"}, {"p2", "prod", ""}, {"d1", "dev", "web"}, {"d2", "dev", "db"}, {"s1", "staging", ""}};
  for (const auto& it : items) {
    std::string labels = std::string(R"("env":")") + it[1] + "\"";
    if (*it[2]) labels += std::string(R"(,"tier":")") + it[2] + "\"";
    s.setup({.method = "POST", .path = kCms,
             .body = std::string(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")") + it[0] + R"(","labels":{)" + labels +
                     R"(,"set":"sel"}}})"});
  }
}

}  // namespace

DIFF_CASE(list, LabelSelectors) {
  make_labelled(s);
  for (const char* sel : {"env%3Dprod", "env%3D%3Dprod", "env!%3Dprod,set%3Dsel", "env+in+(prod,dev)", "env+notin+(prod),set%3Dsel", "tier",
                          "!tier,set%3Dsel", "tier,env%3Ddev", "env%3Dnone"})
    s.send(std::string("labelSelector=") + sel, {.path = kCms + "?labelSelector=" + sel});
  for (const char* bad : {"env%3D%3D%3Dprod", "a+b", "env+in+prod", "!"})
    s.send(std::string("bad labelSelector=") + bad, {.path = kCms + "?labelSelector=" + bad});
}

DIFF_CASE(list, FieldSelectors) {
  make_labelled(s);
  s.send("metadata.name", {.path = kCms + "?fieldSelector=metadata.name%3Dp1"});
  s.send("metadata.name!=", {.path = kCms + "?fieldSelector=metadata.name!%3Dp1&labelSelector=set%3Dsel"});
  s.send("metadata.namespace", {.path = "/api/v1/configmaps?fieldSelector=metadata.namespace%3D{ns}&labelSelector=set%3Dsel"});
  s.send("an unsupported field", {.path = kCms + "?fieldSelector=data.k%3Dv"});
  s.send("a malformed selector", {.path = kCms + "?fieldSelector=metadata.name"});
  s.send("secrets by type", {.path = "/api/v1/namespaces/{ns}/secrets?fieldSelector=type%3Dkubernetes.io/tls"});
}

DIFF_CASE(list, PaginationWithContinueTokens) {
  make_labelled(s);
  auto first = s.send("limit=2", {.path = kCms + "?labelSelector=set%3Dsel&limit=2"});
  s.capture("next", first, {"metadata", "continue"});
  auto second = s.send("second page", {.path = kCms + "?labelSelector=set%3Dsel&limit=2&continue={next}"});
  s.capture("next", second, {"metadata", "continue"});
  s.send("last page", {.path = kCms + "?labelSelector=set%3Dsel&limit=2&continue={next}"});
  s.send("all namespaces, limit=2", {.path = "/api/v1/configmaps?labelSelector=set%3Dsel&limit=2"});
  s.send("a limit larger than the list", {.path = kCms + "?labelSelector=set%3Dsel&limit=100"});
  s.send("a negative limit", {.path = kCms + "?labelSelector=set%3Dsel&limit=-1"});
  s.send("a continue token that is not one", {.path = kCms + "?limit=2&continue=bm90LWEtdG9rZW4"});
}

}  // namespace capstan::e2e::diff
