// Watch: replay from a resourceVersion, resourceVersion=0, streaming lists with their
// initial-events-end bookmark, the parameters a server must refuse, and 410 Gone for a
// resourceVersion older than the server's history.
#include "e2e/differential/session.h"

namespace capstan::e2e::diff {
namespace {

using namespace std::chrono_literals;

const std::string kCms = "/api/v1/namespaces/{ns}/configmaps";
const std::string kSel = "labelSelector=app%3Dwatched";

std::string cm(const std::string& name, const std::string& value) {
  return R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name + R"(","labels":{"app":"watched"}},"data":{"v":")" +
         value + R"("}})";
}

}  // namespace

DIFF_CASE(watch, ReplaysEveryChangeAfterAResourceVersionInOrder) {
  s.setup({.method = "POST", .path = kCms, .body = cm("before", "0")});
  auto list = s.send("list", {.path = kCms + "?" + kSel});
  s.capture("rv", list, {"metadata", "resourceVersion"});
  s.setup({.method = "POST", .path = kCms, .body = cm("w1", "1")});
  s.setup({.method = "PATCH", .path = kCms + "/w1", .body = R"({"data":{"v":"2"}})", .content_type = "application/merge-patch+json"});
  s.setup({.method = "PATCH", .path = kCms + "/before", .body = R"({"metadata":{"labels":{"app":"gone"}}})",
           .content_type = "application/merge-patch+json"});
  s.setup({.method = "DELETE", .path = kCms + "/w1"});
  s.watch("watch from the list's resourceVersion", {.path = kCms + "?watch=true&" + kSel + "&resourceVersion={rv}&timeoutSeconds=1"}, 5s);
}

DIFF_CASE(watch, ResourceVersionZeroStartsWithTheCurrentObjects) {
  s.setup({.method = "POST", .path = kCms, .body = cm("a", "1")});
  s.setup({.method = "POST", .path = kCms, .body = cm("b", "1")});
  s.watch("watch rv=0", {.path = kCms + "?watch=true&" + kSel + "&resourceVersion=0&timeoutSeconds=1"}, 5s);
  s.send("list rv=0", {.path = kCms + "?" + kSel + "&resourceVersion=0"});
  s.send("list rv=0 with a limit", {.path = kCms + "?" + kSel + "&resourceVersion=0&limit=1"});
}

DIFF_CASE(watch, StreamingListEndsItsInitialEventsWithABookmark) {
  s.setup({.method = "POST", .path = kCms, .body = cm("a", "1")});
  s.setup({.method = "POST", .path = kCms, .body = cm("b", "1")});
  s.watch("sendInitialEvents",
          {.path = kCms + "?watch=true&" + kSel + "&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1"},
          5s);
  s.send("sendInitialEvents without resourceVersionMatch",
         {.path = kCms + "?watch=true&" + kSel + "&sendInitialEvents=true&allowWatchBookmarks=true&timeoutSeconds=1"});
  s.watch("sendInitialEvents without bookmarks",
          {.path = kCms + "?watch=true&" + kSel + "&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1"}, 5s);
  s.send("sendInitialEvents on a list", {.path = kCms + "?" + kSel + "&sendInitialEvents=true"});
}

DIFF_CASE(watch, AResourceVersionOlderThanTheHistoryIsGone) {
  // PodTemplates: the suite's kube-apiserver keeps no watch cache for them (--watch-cache-sizes),
  // so an old resourceVersion reaches etcd's compacted history, as it does for any resource
  // once the watch cache's window has moved past it.
  const std::string templates = "/api/v1/namespaces/{ns}/podtemplates";
  s.setup({.method = "POST", .path = templates,
           .body = R"({"apiVersion":"v1","kind":"PodTemplate","metadata":{"name":"t"},"template":{"spec":{"containers":[{"name":"c","image":"nginx"}]}}})"});
  s.compact();
  Compare rv;
  rv.masks.text.emplace_back(std::regex("[0-9]+"), "<n>");
  s.watch("watch from resourceVersion 1", {.path = templates + "?watch=true&resourceVersion=1&timeoutSeconds=1"}, 5s, rv);
  s.send("list from resourceVersion 1 exactly", {.path = templates + "?resourceVersion=1&resourceVersionMatch=Exact"}, rv);
}

DIFF_CASE(watch, MalformedResourceVersions) {
  s.send("watch", {.path = kCms + "?watch=true&resourceVersion=abc&timeoutSeconds=1"});
  s.send("list", {.path = kCms + "?resourceVersion=abc"});
  s.send("get", {.path = kCms + "/kube-root-ca.crt?resourceVersion=abc"});
  s.send("list with resourceVersionMatch and no resourceVersion", {.path = kCms + "?resourceVersionMatch=Exact"});
}

}  // namespace capstan::e2e::diff
