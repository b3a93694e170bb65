#include "apiserver/rest/discovery.h"

#include <algorithm>
#include <map>
#include <set>

namespace capstan::apiserver::rest {
namespace {

// Groups in the order kube-apiserver lists them; others (CRD groups) follow, sorted.
int group_rank(std::string_view g) {
  static const char* const order[] = {"",
                                      "apiregistration.k8s.io",
                                      "apps",
                                      "events.k8s.io",
                                      "authentication.k8s.io",
                                      "authorization.k8s.io",
                                      "autoscaling",
                                      "batch",
                                      "certificates.k8s.io",
                                      "networking.k8s.io",
                                      "policy",
                                      "rbac.authorization.k8s.io",
                                      "storage.k8s.io",
                                      "admissionregistration.k8s.io",
                                      "apiextensions.k8s.io",
                                      "scheduling.k8s.io",
                                      "coordination.k8s.io",
                                      "node.k8s.io",
                                      "discovery.k8s.io",
                                      "flowcontrol.apiserver.k8s.io",
                                      "resource.k8s.io",
                                      "storagemigration.k8s.io"};
  for (int i = 0; i < static_cast<int>(std::size(order)); ++i)
    if (g == order[i]) return i;
  return 1000;
}

struct GroupView {
  std::string name;
  std::vector<std::string> versions;  // preferred first
  std::vector<registry::ResourcePtr> resources;
};

std::vector<GroupView> groups(const registry::Registry& reg) {
  std::map<std::string, GroupView> by_name;
  for (const auto& r : reg.all()) {
    auto& g = by_name[r->group];
    g.name = r->group;
    g.resources.push_back(r);
    for (const auto& v : r->versions)
      if (v.served && std::find(g.versions.begin(), g.versions.end(), v.name) == g.versions.end()) g.versions.push_back(v.name);
  }
  std::vector<GroupView> out;
  for (auto& [n, g] : by_name) {
    std::sort(g.versions.begin(), g.versions.end(),
              [](const std::string& a, const std::string& b) { return registry::version_less_preferred(b, a); });
    std::sort(g.resources.begin(), g.resources.end(),
              [](const registry::ResourcePtr& a, const registry::ResourcePtr& b) { return a->resource < b->resource; });
    if (!g.versions.empty()) out.push_back(std::move(g));
  }
  std::sort(out.begin(), out.end(), [](const GroupView& a, const GroupView& b) {
    int ra = group_rank(a.name), rb = group_rank(b.name);
    return ra != rb ? ra < rb : a.name < b.name;
  });
  return out;
}

json::Array strings(const std::vector<std::string>& v) {
  json::Array a;
  for (const auto& s : v) a.emplace_back(s);
  return a;
}

json::Value group_version(std::string_view group, std::string_view version) {
  std::string gv = group.empty() ? std::string(version) : std::string(group) + "/" + std::string(version);
  return json::Object{{"groupVersion", gv}, {"version", version}};
}

json::Value group_json(const GroupView& g) {
  json::Array versions;
  for (const auto& v : g.versions) versions.push_back(group_version(g.name, v));
  return json::Object{{"name", g.name}, {"versions", versions}, {"preferredVersion", group_version(g.name, g.versions.front())}};
}

// A subresource as discovery lists it. `group`/`version` name its response kind when that is
// another group's (Scale, TokenRequest); "" for the resource's own kind.
struct Subresource {
  std::string name;
  std::string group, version, kind;
  std::vector<std::string> verbs;
};

// The subresources served for `r` at `v`, in kube-apiserver's order: a custom resource's
// status then scale; a built-in's sorted by name (its REST storage map's order).
std::vector<Subresource> subresources(const registry::ResourceInfo& r, const registry::VersionInfo& v) {
  const std::vector<std::string> rw = {"get", "patch", "update"};
  std::vector<Subresource> out;
  if (v.status_subresource) out.push_back({"status", "", "", r.kind, rw});
  if (v.scale) out.push_back({"scale", "autoscaling", "v1", "Scale", rw});
  if (r.extra_subresources_token) out.push_back({"token", "authentication.k8s.io", "v1", "TokenRequest", {"create"}});
  if (r.finalize_subresource) out.push_back({"finalize", "", "", r.kind, {"update"}});
  if (r.binding_subresource) out.push_back({"binding", "", "", "Binding", {"create"}});
  if (!r.crd)
    std::sort(out.begin(), out.end(), [](const Subresource& a, const Subresource& b) { return a.name < b.name; });
  return out;
}

// Aggregated discovery's responseKind. Built-in resources leave group and version empty for
// their own kind (kube fills them from the resource's APIResource, where they are unset);
// custom resources name them.
json::Value response_kind(const registry::ResourceInfo& r, std::string_view version, const std::string& group,
                          const std::string& kind_version, const std::string& kind) {
  if (!group.empty() || !kind_version.empty()) return json::Object{{"group", group}, {"version", kind_version}, {"kind", kind}};
  if (r.crd) return json::Object{{"group", r.group}, {"version", version}, {"kind", kind}};
  return json::Object{{"group", ""}, {"version", ""}, {"kind", kind}};
}

// The members legacy and aggregated discovery share for a resource.
void names_and_verbs(json::Object& o, const registry::ResourceInfo& r) {
  o["verbs"] = strings(r.verbs);
  if (!r.short_names.empty()) o["shortNames"] = strings(r.short_names);
  if (!r.categories.empty()) o["categories"] = strings(r.categories);
}

}  // namespace

json::Value server_version() {
  return json::Object{{"major", "1"},
                      {"minor", "37"},
                      {"emulationMajor", "1"},
                      {"emulationMinor", "37"},
                      {"minCompatibilityMajor", "1"},
                      {"minCompatibilityMinor", "36"},
                      {"gitVersion", "v1.37.0-capstan"},
                      {"gitCommit", "capstan"},
                      {"gitTreeState", "clean"},
                      {"buildDate", "2026-12-01T00:00:00Z"},
                      {"goVersion", "go1.26.0"},
                      {"compiler", "gc"},
                      {"platform", "linux/amd64"}};
}

json::Value api_versions(const std::string& server_address) {
  return json::Object{{"kind", "APIVersions"},
                      {"versions", json::Array{"v1"}},
                      {"serverAddressByClientCIDRs",
                       json::Array{json::Object{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", server_address}}}}};
}

json::Value api_group_list(const registry::Registry& reg) {
  json::Array arr;
  for (const auto& g : groups(reg))
    if (!g.name.empty()) arr.push_back(group_json(g));
  return json::Object{{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", arr}};
}

std::optional<json::Value> api_group(const registry::Registry& reg, std::string_view group) {
  for (const auto& g : groups(reg)) {
    if (g.name != group || g.name.empty()) continue;
    json::Value v = group_json(g);
    v.as_object()["kind"] = "APIGroup";
    v.as_object()["apiVersion"] = "v1";
    return v;
  }
  return std::nullopt;
}

std::optional<json::Value> api_resource_list(const registry::Registry& reg, std::string_view group, std::string_view version) {
  json::Array resources;
  bool found = false;
  for (const auto& g : groups(reg)) {
    if (g.name != group) continue;
    for (const auto& r : g.resources) {
      const auto* v = r->version(version);
      if (!v || !v->served) continue;
      found = true;
      json::Object o;
      o["name"] = r->resource;
      o["singularName"] = r->singular;
      o["namespaced"] = r->namespaced;
      o["kind"] = r->kind;
      names_and_verbs(o, *r);
      if (!r->review) o["storageVersionHash"] = r->storage_version_hash();  // reviews are never stored
      resources.push_back(std::move(o));
      for (const auto& sub : subresources(*r, *v)) {
        json::Object so{{"name", r->resource + "/" + sub.name}, {"singularName", ""}, {"namespaced", r->namespaced}};
        if (!sub.group.empty()) so["group"] = sub.group;
        if (!sub.version.empty()) so["version"] = sub.version;
        so["kind"] = sub.kind;
        so["verbs"] = strings(sub.verbs);
        resources.push_back(std::move(so));
      }
    }
  }
  if (!found) return std::nullopt;
  std::string gv = group.empty() ? std::string(version) : std::string(group) + "/" + std::string(version);
  return json::Value(json::Object{{"kind", "APIResourceList"}, {"apiVersion", "v1"}, {"groupVersion", gv}, {"resources", resources}});
}

json::Value aggregated_discovery(const registry::Registry& reg, bool core, std::string_view version) {
  json::Array items;
  for (const auto& g : groups(reg)) {
    if (core != g.name.empty()) continue;
    json::Array versions;
    for (const auto& ver : g.versions) {
      json::Array resources;
      for (const auto& r : g.resources) {
        const auto* v = r->version(ver);
        if (!v || !v->served) continue;
        json::Object o;
        o["resource"] = r->resource;
        o["responseKind"] = response_kind(*r, ver, "", "", r->kind);
        o["scope"] = r->namespaced ? "Namespaced" : "Cluster";
        o["singularResource"] = r->singular;
        names_and_verbs(o, *r);
        json::Array subs;
        for (const auto& sub : subresources(*r, *v))
          subs.push_back(json::Object{{"subresource", sub.name},
                                      {"responseKind", response_kind(*r, ver, sub.group, sub.version, sub.kind)},
                                      {"verbs", strings(sub.verbs)}});
        if (!subs.empty()) o["subresources"] = std::move(subs);
        resources.push_back(std::move(o));
      }
      versions.push_back(json::Object{{"version", ver}, {"resources", resources}, {"freshness", "Current"}});
    }
    // The core group's name is "", which metadata omits.
    json::Object md;
    if (!g.name.empty()) md["name"] = g.name;
    items.push_back(json::Object{{"metadata", std::move(md)}, {"versions", versions}});
  }
  return json::Object{{"kind", "APIGroupDiscoveryList"}, {"apiVersion", "apidiscovery.k8s.io/" + std::string(version)},
                      {"metadata", json::Object{}}, {"items", items}};
}

}  // namespace capstan::apiserver::rest
