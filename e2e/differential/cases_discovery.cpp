// Discovery (legacy and aggregated), /version, Table output of built-in resources, and
// kubectl's views of them. Built-in groups and resources the embedded server does not serve
// are compared as one list each, so a missing one is named rather than flooding the report.
#include "e2e/differential/crd_fixture.h"

#include <set>

namespace capstan::e2e::diff {
namespace {

// Splits `list` (an array of objects) into name -> entry; the name is at `key`.
std::map<std::string, json::Value> by_key(const json::Value* list, json::Path key) {
  std::map<std::string, json::Value> out;
  if (list && list->is_array())
    for (const auto& e : list->as_array())
      if (e.is_object()) out[std::string(json::get_string(e, key))] = e;
  return out;
}

// Compares two collections entry by entry for the names both have, plus one comparison of
// the names only kube has (and only embedded has).
void compare_collections(Session& s, const std::string& label, const Answer& a, json::Path items, json::Path key,
                         const Compare& c = {}) {
  if (!a.embedded || !a.kube) return;
  auto e = by_key(json::find(*a.embedded, items), key);
  auto k = by_key(json::find(*a.kube, items), key);
  json::Array only_kube, only_embedded;
  for (const auto& [name, entry] : k) {
    auto it = e.find(name);
    if (it == e.end()) {
      only_kube.push_back(json::Value(name));
      continue;
    }
    s.record(label + " " + name, a.embedded_status, a.kube_status, it->second, entry, c);
  }
  for (const auto& [name, _] : e)
    if (!k.count(name)) only_embedded.push_back(json::Value(name));
  s.record(label + " served by one server only", a.embedded_status, a.kube_status, json::Value(json::Object{{"names", only_embedded}}),
           json::Value(json::Object{{"names", json::Array{}}}), c);
  s.record(label + " missing on the embedded server", a.embedded_status, a.kube_status, json::Value(json::Object{{"names", json::Array{}}}),
           json::Value(json::Object{{"names", only_kube}}), c);
}

}  // namespace

DIFF_CASE(discovery, LegacyDiscovery) {
  install_gadgets(s);
  Compare addr;
  addr.masks.drop = {"/serverAddressByClientCIDRs"};
  s.send("/api", {.path = "/api"}, addr);
  auto groups = s.send("/apis status", {.path = "/apis"}, Compare{.body = false});
  compare_collections(s, "group", groups, {"groups"}, {"name"}, addr);
  auto core = s.send("/api/v1 status", {.path = "/api/v1"}, Compare{.body = false});
  compare_collections(s, "core resource", core, {"resources"}, {"name"});
  for (const char* gv : {"apps/v1", "rbac.authorization.k8s.io/v1", "apiextensions.k8s.io/v1", "coordination.k8s.io/v1", "diff.example.com/v1"}) {
    auto r = s.send(std::string("/apis/") + gv + " status", {.path = std::string("/apis/") + gv}, Compare{.body = false});
    compare_collections(s, std::string(gv) + " resource", r, {"resources"}, {"name"});
  }
  s.send("an unknown group version", {.path = "/apis/apps/v7"});
}

// `v` with `member` removed from each element of its array at `list`.
json::Value without_member(json::Value v, json::Path list, std::string_view member) {
  if (auto* items = json::find(v, list); items && items->is_array())
    for (auto& e : items->as_array())
      if (auto* o = e.if_object()) o->erase(member);
  return v;
}

// Aggregated discovery's resources of one group version, resource by resource: each entry
// without its subresources, then the subresources as a collection of their own.
void compare_aggregated_resources(Session& s, const std::string& label, const Answer& a, const json::Value* embedded,
                                  const json::Value* kube) {
  auto pick = [](const json::Value* v) { return v ? json::Value(json::Object{{"resources", *v}}) : json::Value(nullptr); };
  Answer whole = a;
  whole.embedded = pick(embedded);
  whole.kube = pick(kube);
  Answer entries = whole;
  entries.embedded = without_member(*whole.embedded, {"resources"}, "subresources");
  entries.kube = without_member(*whole.kube, {"resources"}, "subresources");
  compare_collections(s, label, entries, {"resources"}, {"resource"});
  auto e = by_key(json::find(*whole.embedded, {"resources"}), {"resource"});
  auto k = by_key(json::find(*whole.kube, {"resources"}), {"resource"});
  for (const auto& [name, entry] : k) {
    auto it = e.find(name);
    if (it == e.end()) continue;
    Answer subs = a;
    subs.embedded = it->second;
    subs.kube = entry;
    if (!json::find(it->second, {"subresources"}) && !json::find(entry, {"subresources"})) continue;
    compare_collections(s, label + " " + name + " subresource", subs, {"subresources"}, {"subresource"});
  }
}

DIFF_CASE(discovery, AggregatedDiscovery) {
  install_gadgets(s);
  const std::string v2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json";
  auto apis = s.send("/apis aggregated status", {.path = "/apis", .accept = v2}, Compare{.body = false, .headers = {"Content-Type"}});
  auto core = s.send("/api aggregated status", {.path = "/api", .accept = v2}, Compare{.body = false, .headers = {"Content-Type"}});
  // Each group: its metadata and version names, then each version's resources.
  for (const auto& [label, answer] : {std::pair{std::string("aggregated group"), apis}, std::pair{std::string("aggregated core group"), core}}) {
    if (!answer.embedded || !answer.kube) continue;
    auto eg = by_key(json::find(*answer.embedded, {"items"}), {"metadata", "name"});
    auto kg = by_key(json::find(*answer.kube, {"items"}), {"metadata", "name"});
    Answer groups = answer;
    json::Array e_items, k_items;
    for (const auto& [_, g] : eg) e_items.push_back(without_member(g, {"versions"}, "resources"));
    for (const auto& [_, g] : kg) k_items.push_back(without_member(g, {"versions"}, "resources"));
    groups.embedded = json::Value(json::Object{{"items", e_items}});
    groups.kube = json::Value(json::Object{{"items", k_items}});
    compare_collections(s, label, groups, {"items"}, {"metadata", "name"});
    for (const auto& [group, kube_group] : kg) {
      auto it = eg.find(group);
      if (it == eg.end()) continue;
      auto ev = by_key(json::find(it->second, {"versions"}), {"version"});
      auto kv = by_key(json::find(kube_group, {"versions"}), {"version"});
      for (const auto& [version, kube_version] : kv) {
        auto e = ev.find(version);
        if (e == ev.end()) continue;
        std::string gv = group.empty() ? version : group + "/" + version;
        compare_aggregated_resources(s, "aggregated " + gv + " resource", answer, json::find(e->second, {"resources"}),
                                     json::find(kube_version, {"resources"}));
      }
    }
  }
}

DIFF_CASE(discovery, VersionAndHealth) {
  Compare version;
  version.masks.mask = {"/gitVersion", "/gitCommit", "/buildDate", "/goVersion", "/gitTreeState", "/major", "/minor", "/emulationMajor",
                        "/emulationMinor", "/minCompatibilityMajor", "/minCompatibilityMinor", "/platform", "/compiler"};
  s.send("/version", {.path = "/version"}, version);
  s.send("/healthz", {.path = "/healthz", .accept = ""});
  s.send("/livez", {.path = "/livez", .accept = ""});
  s.send("/readyz", {.path = "/readyz", .accept = ""});
}

DIFF_CASE(discovery, TablesOfBuiltInResources) {
  s.setup({.method = "POST", .path = "/api/v1/namespaces/{ns}/configmaps",
           .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"t","labels":{"app":"table"}},"data":{"a":"1","b":"2"}})"});
  s.setup({.method = "POST", .path = "/apis/apps/v1/namespaces/{ns}/deployments",
           .body = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":0,"selector":{"matchLabels":{"app":"web"}},
                      "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx:1.25"}]}}}})"});
  const std::string table = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
  Compare ages;
  ages.masks.text.emplace_back(std::regex("^[0-9]+[smhd]$"), "<age>");
  s.send("configmaps", {.path = "/api/v1/namespaces/{ns}/configmaps?labelSelector=app%3Dtable", .accept = table}, ages);
  s.send("one configmap", {.path = "/api/v1/namespaces/{ns}/configmaps/t", .accept = table}, ages);
  s.send("deployments", {.path = "/apis/apps/v1/namespaces/{ns}/deployments", .accept = table}, ages);
  s.send("namespaces, one", {.path = "/api/v1/namespaces/{ns}", .accept = table}, ages);
  s.send("with includeObject=Object", {.path = "/api/v1/namespaces/{ns}/configmaps/t?includeObject=Object", .accept = table}, ages);
  s.watch("a watch-list as Table alone", {.path = "/api/v1/namespaces/{ns}/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1",
                                          .accept = "application/json;as=Table;v=v1;g=meta.k8s.io"},
          std::chrono::seconds(3), ages);
  s.send("an Accept nobody serves", {.path = "/api/v1/namespaces/{ns}/configmaps/t", .accept = "application/xml"});
  s.kubectl("kubectl get cm", {"get", "cm", "-n", "{ns}", "-l", "app=table"});
  s.kubectl("kubectl get deploy -o wide", {"get", "deploy", "-n", "{ns}", "-o", "wide"});
  // One key: describe prints Data in Go's (random) map order.
  s.setup({.method = "POST", .path = "/api/v1/namespaces/{ns}/configmaps",
           .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"described"},"data":{"only":"1"}})"});
  s.kubectl("kubectl describe cm", {"describe", "cm", "described", "-n", "{ns}"});
  s.kubectl("kubectl get a missing one", {"get", "cm", "missing", "-n", "{ns}"});
}

}  // namespace capstan::e2e::diff
