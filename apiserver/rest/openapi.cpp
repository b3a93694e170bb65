#include "apiserver/rest/openapi.h"

#include "apiserver/schema/openapi.h"
#include "apiserver/swagger/v2.h"
#include "apiserver/typed/openapi.h"

#include <cstdio>
#include <functional>

namespace capstan::apiserver::rest {
namespace {

json::Value query_param(std::string_view name, std::string_view description) {
  return json::Object{{"name", name}, {"in", "query"}, {"description", description},
                      {"schema", json::Object{{"type", "string"}, {"uniqueItems", true}}}};
}

json::Value gvk_ext(const registry::ResourceInfo& r, std::string_view version) {
  return json::Object{{"group", r.group}, {"kind", r.kind}, {"version", version}};
}

json::Value operation(std::string_view verb, const registry::ResourceInfo& r, std::string_view version,
                      std::string_view action, bool with_field_params) {
  json::Object op;
  op["description"] = std::string(verb) + " " + r.kind;
  op["operationId"] = std::string(verb) + r.kind;
  json::Array params;
  if (with_field_params) {
    params.push_back(query_param("dryRun", "When present, indicates that modifications should not be persisted."));
    params.push_back(query_param("fieldManager", "fieldManager is a name associated with the actor or entity that is making these changes."));
    params.push_back(query_param("fieldValidation",
                                 "fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) "
                                 "containing unknown or duplicate fields. Valid values are: - Ignore - Warn - Strict"));
  }
  if (verb == "patch") params.push_back(query_param("force", "Force is going to \"force\" Apply requests."));
  op["parameters"] = std::move(params);
  op["responses"] = json::Object{{"200", json::Object{{"description", "OK"}}}};
  op["x-kubernetes-action"] = action;
  op["x-kubernetes-group-version-kind"] = gvk_ext(r, version);
  return op;
}

std::string hex_hash(const std::string& s) {
  std::size_t h = std::hash<std::string>()(s);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016zX", h);
  return buf;
}

}  // namespace

void OpenApi::rebuild_locked() {
  docs_.clear();
  hashes_.clear();
  json::Object all_schemas;
  std::map<std::string, std::vector<std::pair<registry::ResourcePtr, std::string>>> by_gv;
  for (const auto& r : reg_.all()) {
    for (const auto& v : r->versions) {
      if (!v.served) continue;
      std::string gv = r->group.empty() ? "api/" + v.name : "apis/" + r->group + "/" + v.name;
      by_gv[gv].emplace_back(r, v.name);
    }
  }
  for (auto& [gv, list] : by_gv) {
    json::Object paths;
    std::vector<schema::OpenAPIKind> kinds;
    std::string group, version;
    for (auto& [r, ver] : list) {
      group = r->group;
      version = ver;
      std::string base = "/" + gv + (r->namespaced ? "/namespaces/{namespace}/" : "/") + r->resource;
      json::Object collection;
      collection["get"] = operation("list", *r, ver, "list", false);
      collection["post"] = operation("create", *r, ver, "post", true);
      collection["delete"] = operation("deletecollection", *r, ver, "deletecollection", false);
      paths[base] = std::move(collection);
      json::Object item;
      item["get"] = operation("read", *r, ver, "get", false);
      item["put"] = operation("replace", *r, ver, "put", true);
      item["patch"] = operation("patch", *r, ver, "patch", true);
      item["delete"] = operation("delete", *r, ver, "delete", false);
      paths[base + "/{name}"] = std::move(item);
      const auto* vi = r->version(ver);
      if (vi && vi->status_subresource) {
        json::Object st;
        st["get"] = operation("read", *r, ver, "get", false);
        st["put"] = operation("replace", *r, ver, "put", true);
        st["patch"] = operation("patch", *r, ver, "patch", true);
        paths[base + "/{name}/status"] = std::move(st);
      }
      if (vi && vi->structural) kinds.push_back({r->kind, vi->structural, r->resource});
    }
    json::Value doc = schema::openapi_document(group, version, kinds);
    doc.as_object()["paths"] = std::move(paths);
    auto& schemas = doc.as_object()["components"].as_object()["schemas"].as_object();
    for (auto& [r, ver] : list) {
      if (!r->crd) typed::add_kind_schemas(schemas, r->group, ver, r->kind);
      else if (r->version(ver)->structural) typed::add_meta_schemas(schemas);
    }
    for (const auto& kv : schemas) all_schemas[kv.key()] = kv.value();
    std::string text = json::serialize(doc);
    hashes_[gv] = hex_hash(text);
    docs_[gv] = std::move(text);
  }
  json::Value v2 = swagger::document(all_schemas);
  v2_json_ = json::serialize(v2);
  v2_protobuf_ = swagger::to_protobuf(v2);
  built_for_ = reg_.generation();
}

std::string OpenApi::v2(bool protobuf) {
  std::lock_guard<std::mutex> l(mu_);
  if (built_for_ != reg_.generation()) rebuild_locked();
  return protobuf ? v2_protobuf_ : v2_json_;
}

json::Value OpenApi::index() {
  std::lock_guard<std::mutex> l(mu_);
  if (built_for_ != reg_.generation()) rebuild_locked();
  json::Object paths;
  for (const auto& [gv, h] : hashes_) paths[gv] = json::Object{{"serverRelativeURL", "/openapi/v3/" + gv + "?hash=" + h}};
  return json::Object{{"paths", std::move(paths)}};
}

std::optional<std::string> OpenApi::document(std::string_view gv_path) {
  std::lock_guard<std::mutex> l(mu_);
  if (built_for_ != reg_.generation()) rebuild_locked();
  auto it = docs_.find(gv_path);
  if (it == docs_.end()) return std::nullopt;
  return it->second;
}

}  // namespace capstan::apiserver::rest
