// In-process API server core for the system loops' tests: a memory Store, the built-in
// Registry and a rest::Service, with small helpers for writing objects and bounded waits.
#pragma once

#include "apiserver/registry/resource.h"
#include "apiserver/rest/service.h"
#include "apiserver/storage/store.h"
#include "testing/eventually.h"
#include "runtime/json/json.h"
#include "runtime/meta/object.h"

#include <chrono>
#include <functional>
#include <string>
#include <thread>

namespace capstan::apiserver::system::testing {

// The bounded wait of every test (testing/eventually.h).
using e2e::eventually;

struct Env {
  storage::Store store{storage::StoreOptions{}};
  registry::Registry registry;
  rest::Service service{store, registry};

  rest::Target target(const std::string& group_resource, const std::string& ns, const std::string& name = "") {
    auto r = registry.find_group_resource(group_resource);
    if (!r) throw std::invalid_argument("no resource " + group_resource);
    return rest::Target{r, r->storage_version().name, r->namespaced ? ns : "", name, ""};
  }
  json::Value create(const std::string& group_resource, const std::string& ns, json::Value obj) {
    rest::WriteOptions o;
    o.field_manager = "test";
    return service.create(target(group_resource, ns), std::move(obj), o).object;
  }
  json::Value create_namespace(const std::string& name) {
    return create("namespaces", "", json::Object{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", json::Object{{"name", name}}}});
  }
  // A ConfigMap or Secret (kind) named `name` in `ns` with the given ownerReferences.
  json::Value create_owned(const std::string& kind, const std::string& ns, const std::string& name,
                           json::Array owner_refs = {}, json::Array finalizers = {}) {
    json::Object md{{"name", name}};
    if (!owner_refs.empty()) md["ownerReferences"] = std::move(owner_refs);
    if (!finalizers.empty()) md["finalizers"] = std::move(finalizers);
    std::string gr = kind == "ConfigMap" ? "configmaps" : "secrets";
    return create(gr, ns, json::Object{{"apiVersion", "v1"}, {"kind", kind}, {"metadata", std::move(md)}});
  }
  rest::Service::DeleteResult remove(const std::string& group_resource, const std::string& ns, const std::string& name,
                            const std::string& propagation = "") {
    rest::DeleteOptions o;
    o.propagation = propagation;
    return service.remove(target(group_resource, ns, name), o);
  }
  // Removes every finalizer of the object (an update through the Service).
  void clear_finalizers(const std::string& group_resource, const std::string& ns, const std::string& name) {
    auto cur = store.get(group_resource, ns, name);
    if (!cur) return;
    json::Value v = *cur.value;
    json::erase(v, {"metadata", "finalizers"});
    rest::WriteOptions o;
    o.field_manager = "test";
    service.update(target(group_resource, ns, name), std::move(v), o);
  }
  bool exists(const std::string& group_resource, const std::string& ns, const std::string& name) const {
    return static_cast<bool>(store.get(group_resource, ns, name));
  }
  json::Value get(const std::string& group_resource, const std::string& ns, const std::string& name) const {
    auto o = store.get(group_resource, ns, name);
    return o ? *o.value : json::Value();
  }
};

// An ownerReference to `owner` (any object returned by Env::create).
inline json::Value owner_ref(const json::Value& owner, bool block_owner_deletion = false) {
  json::Object r{{"apiVersion", json::get_string(owner, {"apiVersion"})},
                 {"kind", json::get_string(owner, {"kind"})},
                 {"name", meta::name_of(owner)},
                 {"uid", meta::uid_of(owner)}};
  if (block_owner_deletion) r["blockOwnerDeletion"] = true;
  return r;
}

}  // namespace capstan::apiserver::system::testing
