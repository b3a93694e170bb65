#include "apiserver/aggregator/discovery.h"

#include "apiserver/aggregator/apiservice.h"

#include <algorithm>
#include <map>

namespace capstan::apiserver::aggregator {
namespace {

json::Value group_version(const ApiService& a) {
  return json::Object{{"groupVersion", a.group + "/" + a.version}, {"version", a.version}};
}

std::map<std::string, std::vector<ApiService>> by_group(const storage::Store& store) {
  std::map<std::string, std::vector<ApiService>> out;
  for (auto& a : aggregated_api_services(store))
    if (!a.group.empty() && !a.version.empty()) out[a.group].push_back(std::move(a));
  for (auto& [g, v] : out)
    std::stable_sort(v.begin(), v.end(), [](const ApiService& x, const ApiService& y) { return x.version_priority > y.version_priority; });
  return out;
}

json::Value group_json(const std::string& name, const std::vector<ApiService>& versions) {
  json::Array vs;
  for (const auto& a : versions) vs.push_back(group_version(a));
  return json::Object{{"name", name}, {"versions", std::move(vs)}, {"preferredVersion", group_version(versions.front())}};
}

json::Array string_array(const json::Value* v) {
  json::Array out;
  if (v && v->is_array())
    for (const auto& s : v->get_array())
      if (s.is_string()) out.push_back(s);
  return out;
}

// APIResourceList (v1 APIResources) -> APIVersionDiscovery's resources (apidiscovery v2).
json::Array discovery_resources(const ApiService& a, const json::Value& list) {
  json::Array out;
  const auto* resources = json::get_array(list, {"resources"});
  if (!resources) return out;
  auto kind_of = [&](const json::Value& r) {
    std::string group(json::get_string(r, {"group"}, a.group)), version(json::get_string(r, {"version"}, a.version));
    return json::Object{{"group", group}, {"version", version}, {"kind", json::get_string(r, {"kind"})}};
  };
  for (const auto& r : *resources) {
    std::string_view name = json::get_string(r, {"name"});
    if (name.empty() || name.find('/') != std::string_view::npos) continue;
    json::Object o{{"resource", name},
                   {"responseKind", kind_of(r)},
                   {"scope", json::find(r, {"namespaced"}) && json::find(r, {"namespaced"})->is_bool() &&
                                     json::find(r, {"namespaced"})->get_bool()
                                 ? "Namespaced"
                                 : "Cluster"},
                   {"singularResource", json::get_string(r, {"singularName"})},
                   {"verbs", string_array(json::find(r, {"verbs"}))}};
    if (auto s = string_array(json::find(r, {"shortNames"})); !s.empty()) o["shortNames"] = std::move(s);
    if (auto c = string_array(json::find(r, {"categories"})); !c.empty()) o["categories"] = std::move(c);
    json::Array subs;
    for (const auto& sub : *resources) {
      std::string_view sub_name = json::get_string(sub, {"name"});
      if (sub_name.size() <= name.size() + 1 || sub_name.substr(0, name.size()) != name || sub_name[name.size()] != '/') continue;
      subs.push_back(json::Object{{"subresource", sub_name.substr(name.size() + 1)},
                                  {"responseKind", kind_of(sub)},
                                  {"verbs", string_array(json::find(sub, {"verbs"}))}});
    }
    if (!subs.empty()) o["subresources"] = std::move(subs);
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace

void add_aggregated_discovery(const storage::Store& store, const ResourceListFn& resource_list, json::Value& discovery_list) {
  if (!discovery_list.is_object()) return;
  auto& doc = discovery_list.as_object();
  if (!doc.contains("items") || !doc["items"].is_array()) doc["items"] = json::Array{};
  auto& items = doc["items"].as_array();
  for (const auto& [name, versions] : by_group(store)) {
    json::Array entries;
    for (const auto& a : versions) {
      auto list = resource_list(a.name);
      if (!list) continue;
      entries.push_back(json::Object{{"version", a.version},
                                     {"resources", discovery_resources(a, *list)},
                                     {"freshness", is_available(store, a.name) ? "Current" : "Stale"}});
    }
    if (entries.empty()) continue;
    json::Value* existing = nullptr;
    for (auto& item : items)
      if (json::get_string(item, {"metadata", "name"}) == name) existing = &item;
    if (!existing) {
      items.push_back(json::Object{{"metadata", json::Object{{"name", name}}}, {"versions", std::move(entries)}});
      continue;
    }
    auto& vs = existing->as_object()["versions"];
    if (!vs.is_array()) vs = json::Array{};
    for (auto& e : entries) {
      bool listed = false;
      for (const auto& v : vs.as_array())
        if (json::get_string(v, {"version"}) == json::get_string(e, {"version"})) listed = true;
      if (!listed) vs.as_array().push_back(std::move(e));
    }
  }
}

void add_aggregated_groups(const storage::Store& store, json::Value& group_list) {
  if (!group_list.is_object()) return;
  auto& list = group_list.as_object();
  if (!list.contains("groups") || !list["groups"].is_array()) list["groups"] = json::Array{};
  auto& groups = list["groups"].as_array();
  for (const auto& [name, versions] : by_group(store)) {
    json::Value* existing = nullptr;
    for (auto& g : groups)
      if (json::get_string(g, {"name"}) == name) existing = &g;
    if (!existing) {
      groups.push_back(group_json(name, versions));
      continue;
    }
    if (!existing->is_object()) continue;
    auto& vs = existing->as_object()["versions"];
    if (!vs.is_array()) vs = json::Array{};
    for (const auto& a : versions) {
      bool listed = false;
      for (const auto& v : vs.as_array())
        if (json::get_string(v, {"version"}) == a.version) listed = true;
      if (!listed) vs.as_array().push_back(group_version(a));
    }
  }
}

std::optional<json::Value> aggregated_group(const storage::Store& store, std::string_view group) {
  auto groups = by_group(store);
  auto it = groups.find(std::string(group));
  if (it == groups.end()) return std::nullopt;
  json::Value g = group_json(it->first, it->second);
  g.as_object()["kind"] = "APIGroup";
  g.as_object()["apiVersion"] = "v1";
  return g;
}

}  // namespace capstan::apiserver::aggregator
