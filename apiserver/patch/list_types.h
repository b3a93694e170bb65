// How lists (and maps) inside an object merge, for strategic merge patch and server-side apply.
//
// Paths are field names from the object root; a list element is the step "[]":
//   {"spec", "template", "spec", "containers", "[]", "ports"}
// Keys of a map with arbitrary keys (labels, data, additionalProperties) are written as themselves.
//
// Two sources answer: a built-in table for the kinds this server hosts (the patchStrategy /
// patchMergeKey / listType / listMapKey / structType tags of k8s.io/api), and a CRD's structural
// openAPIV3Schema (x-kubernetes-list-type, x-kubernetes-list-map-keys, x-kubernetes-map-type).
#pragma once

#include "runtime/json/json.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::patch {

using FieldPath = std::vector<std::string>;

// The step that stands for "an element of this list" in a FieldPath.
inline constexpr std::string_view kListElement = "[]";

enum class ListKind {
  Atomic,  // replaced whole; one owner (the default for unknown lists)
  Set,     // x-kubernetes-list-type: set — scalar elements, each owned separately
  Map,     // x-kubernetes-list-type: map — object elements identified by `keys`
};

enum class SmpStrategy {
  Replace,  // no patchStrategy tag: the patch's list replaces the live one
  Merge,    // patchStrategy: merge — by patchMergeKey for objects, as a set for scalars
};

struct ListType {
  ListKind kind = ListKind::Atomic;
  // Server-side apply: x-kubernetes-list-map-keys (listMapKey), in declaration order.
  std::vector<std::string> keys;
  // Default values of key fields an element may omit (e.g. ports' protocol "TCP"), by key name.
  json::Object key_defaults;

  // Strategic merge patch.
  SmpStrategy smp = SmpStrategy::Replace;
  std::string smp_merge_key;  // patchMergeKey; empty for lists of scalars
  bool retain_keys = false;   // patchStrategy includes retainKeys

  static ListType atomic() { return {}; }
  static ListType set(bool smp_merge);
  static ListType map(std::vector<std::string> keys, std::string smp_merge_key = {}, bool retain_keys = false);
};

enum class MapKind {
  Struct,  // named fields (a Go struct / schema properties)
  Map,     // arbitrary keys (map[string]T / additionalProperties / unknown fields): keys are owned individually
  Atomic,  // +structType=atomic / +mapType=atomic / x-kubernetes-map-type: atomic — replaced whole
};

// Answers list and map semantics for paths in one kind of object.
class ListTypes {
 public:
  virtual ~ListTypes() = default;
  virtual ListType at(const FieldPath& path) const = 0;
  // The map at `path` (an object value); the root is always a Struct.
  virtual MapKind map_at(const FieldPath& path) const { return MapKind::Struct; }
};

// No knowledge: every list is atomic and replaced by patches, every object a struct.
const ListTypes& default_list_types();

// The built-in table for `apiVersion`/`kind` (Pod, PodTemplate, Deployment, StatefulSet, ReplicaSet,
// DaemonSet, Job, CronJob, Service, Endpoints, Namespace, Node, RBAC, admission webhook
// configurations, CRDs, PodDisruptionBudget, ...). Unknown kinds get the ObjectMeta rules only.
std::shared_ptr<const ListTypes> builtin_list_types(std::string_view api_version, std::string_view kind);

// Whether `builtin_list_types` knows this kind (strategic merge patch is only for built-in kinds).
bool is_builtin_kind(std::string_view api_version, std::string_view kind);

// A CRD version's structural schema: `open_api_v3_schema` is spec.versions[].schema.openAPIV3Schema.
// metadata paths use the ObjectMeta rules (finalizers, ownerReferences, labels, annotations).
std::shared_ptr<const ListTypes> schema_list_types(json::Value open_api_v3_schema);

// A FieldPath for messages: ".spec.containers[].ports".
std::string describe(const FieldPath& path);

}  // namespace capstan::apiserver::patch
