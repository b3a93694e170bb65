// What the server knows about each resource type: names, scope, versions, subresources,
// behaviour flags, and for CRDs the per-version schema and printer columns.
#pragma once

#include "apiserver/patch/list_types.h"
#include "apiserver/schema/model.h"
#include "apiserver/table/converter.h"
#include "runtime/json/json.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

namespace capstan::apiserver::registry {

struct ScaleSubresource {
  std::string spec_replicas_path = ".spec.replicas";
  std::string status_replicas_path = ".status.replicas";
  std::string label_selector_path = ".status.selector";
};

// One served version of a resource.
struct VersionInfo {
  std::string name;                 // "v1"
  bool served = true;
  bool storage = false;
  bool deprecated = false;
  std::string deprecation_warning;
  json::Value schema;               // CRDs: openAPIV3Schema (null for built-ins)
  schema::SchemaPtr structural;     // CRDs: the parsed structural schema
  std::shared_ptr<const patch::ListTypes> list_types;  // list/map merge semantics (SSA, SMP)
  std::shared_ptr<const table::Converter> table;       // kubectl get columns (null: the default)
  json::Value printer_columns;      // CRDs: additionalPrinterColumns (array or null)
  bool status_subresource = false;
  std::optional<ScaleSubresource> scale;
};

struct ResourceInfo {
  std::string group;         // "" for core
  std::string resource;      // plural: "configmaps"
  std::string singular;      // "configmap"
  std::string kind;          // "ConfigMap"
  std::string list_kind;     // "ConfigMapList"
  bool namespaced = true;
  std::vector<std::string> short_names;
  std::vector<std::string> categories;
  std::vector<VersionInfo> versions;  // in priority order (preferred first)
  std::vector<std::string> verbs = {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"};

  // Behaviour (kube-apiserver's per-type strategies, as flags).
  bool has_generation = false;            // metadata.generation maintained
  bool return_deleted_object = false;     // DELETE answers with the object instead of a Status
  bool allow_unconditional_update = true; // PUT without metadata.resourceVersion allowed
  bool crd = false;                       // a custom resource
  std::string crd_name;                   // "certificates.certs.capstan.dev"
  std::string conversion_strategy = "None";
  json::Value conversion_webhook;         // spec.conversion.webhook of the CRD
  bool preserve_unknown_fields = false;
  bool extra_subresources_token = false;  // serviceaccounts/token
  bool finalize_subresource = false;      // namespaces/finalize
  bool binding_subresource = false;       // pods/binding (the scheduler's write)
  // kube-apiserver's storage version as "group/version/Kind" when it is not this resource's
  // own (events.k8s.io Events are stored as core v1 Events, CRDs still as v1beta1); "" for its
  // own storage version.
  std::string stored_as;
  bool review = false;                    // create-only, computed by the server (access reviews)

  // "configmaps", "deployments.apps": the storage key and kubectl's group-resource name.
  std::string group_resource() const { return group.empty() ? resource : resource + "." + group; }
  const VersionInfo* version(std::string_view v) const;
  const VersionInfo& storage_version() const;
  const VersionInfo& preferred_version() const;
  std::string api_version(std::string_view v) const { return group.empty() ? std::string(v) : group + "/" + std::string(v); }
  // "Deployment.apps", "ConfigMap": the qualified kind used in Invalid messages.
  std::string qualified_kind() const { return group.empty() ? kind : kind + "." + group; }
  bool has_status(std::string_view version) const;
  // Discovery's storageVersionHash: base64 of the first 8 bytes of SHA-256 over the storage
  // version's "group/version/Kind", as kube-apiserver computes it.
  std::string storage_version_hash() const;
};

using ResourcePtr = std::shared_ptr<const ResourceInfo>;

// Thread-safe catalogue of built-in and custom resources.
class Registry {
 public:
  Registry();

  // Finds by group, version and plural resource name (the URL form). Only served versions.
  ResourcePtr find(std::string_view group, std::string_view version, std::string_view resource) const;
  ResourcePtr find_group_resource(std::string_view group_resource) const;  // "deployments.apps"
  ResourcePtr find_kind(std::string_view group, std::string_view kind) const;
  std::vector<ResourcePtr> all() const;

  // Adds or replaces a resource (CRDs); removes by group-resource.
  void put(ResourceInfo info);
  void remove(std::string_view group_resource);
  // Bumped on every change: discovery and OpenAPI caches key on it.
  std::uint64_t generation() const;

 private:
  mutable std::shared_mutex mu_;
  std::map<std::string, ResourcePtr, std::less<>> by_gr_;
  std::uint64_t generation_ = 1;
};

// Version priority as Kubernetes sorts versions (v1 > v1beta2 > v1beta1 > v1alpha1 > foo).
bool version_less_preferred(std::string_view a, std::string_view b);

}  // namespace capstan::apiserver::registry
