#include "runtime/client/discovery.h"

#include "runtime/client/client.h"
#include "runtime/json/json.h"

namespace capstan::client {
namespace {

std::vector<std::string> strings(const json::Value& v, std::string_view key) {
  std::vector<std::string> out;
  if (const json::Array* a = json::get_array(v, {key}))
    for (const auto& s : *a)
      if (s.is_string()) out.emplace_back(s.as_string());
  return out;
}

json::Value get_json(Client& c, const std::string& path) {
  http::Response r = c.raw("GET", path);
  return json::parse(r.body, "discovery " + path);
}

}  // namespace

std::vector<ApiGroup> Discovery::groups() {
  std::vector<ApiGroup> out;
  json::Value core = get_json(client_, "/api");
  ApiGroup g;
  g.versions = strings(core, "versions");
  if (!g.versions.empty()) {
    g.preferred_version = g.versions.front();
    out.push_back(std::move(g));
  }
  json::Value apis = get_json(client_, "/apis");
  if (const json::Array* groups = json::get_array(apis, {"groups"})) {
    for (const auto& item : *groups) {
      ApiGroup ag;
      ag.name = std::string(json::get_string(item, {"name"}));
      if (const json::Array* versions = json::get_array(item, {"versions"}))
        for (const auto& v : *versions) ag.versions.emplace_back(json::get_string(v, {"version"}));
      ag.preferred_version = std::string(json::get_string(item, {"preferredVersion", "version"}));
      if (ag.preferred_version.empty() && !ag.versions.empty()) ag.preferred_version = ag.versions.front();
      if (!ag.name.empty()) out.push_back(std::move(ag));
    }
  }
  return out;
}

std::optional<std::vector<ApiResource>> Discovery::resources(const meta::GroupVersion& gv) {
  std::string path = gv.group.empty() ? "/api/" + gv.version : "/apis/" + gv.group + "/" + gv.version;
  json::Value list;
  try {
    list = get_json(client_, path);
  } catch (const ApiError& e) {
    if (is_not_found(e)) return std::nullopt;
    throw;
  }
  std::vector<ApiResource> out;
  const json::Array* resources = json::get_array(list, {"resources"});
  if (!resources) return out;
  for (const auto& item : *resources) {
    ApiResource r;
    r.name = std::string(json::get_string(item, {"name"}));
    if (r.name.empty()) continue;
    r.singular_name = std::string(json::get_string(item, {"singularName"}));
    r.kind = std::string(json::get_string(item, {"kind"}));
    r.namespaced = json::get_bool(item, {"namespaced"});
    // An entry may name another group/version (e.g. a scale subresource served as autoscaling/v1).
    // (empty = the list's, as the fields are omitempty).
    r.group = std::string(json::get_string(item, {"group"}));
    if (r.group.empty()) r.group = gv.group;
    r.version = std::string(json::get_string(item, {"version"}));
    if (r.version.empty()) r.version = gv.version;
    r.verbs = strings(item, "verbs");
    r.short_names = strings(item, "shortNames");
    r.categories = strings(item, "categories");
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace capstan::client
