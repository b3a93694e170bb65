// Names during a kustomize build, as kustomize keeps them:
//   - every object remembers the namespaces and names it had (kustomize's previous ids), in an
//     internal annotation that the build drops at the end;
//   - references from one object to another by name (a Deployment's ConfigMap volume, a
//     RoleBinding's subject, an Ingress' Service...; kustomize's nameReference table for the
//     built-in kinds) follow the renames of the build: prefixes, suffixes, namespaces and the
//     generators' hash suffixes. A reference is rewritten only when it names an object of the
//     build (by any name it had, in a compatible namespace); other references are left alone.
//   - the built-in kinds that have no namespace, which the `namespace` field leaves alone.
#pragma once

#include "controllers/gitops/kustomize_crds.h"
#include "runtime/json/json.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capstan::gitops::kustomize {

// Internal annotations of a build (never applied).
inline constexpr std::string_view kPreviousIdsAnnotation = "internal.gitops.capstan.dev/previous-ids";
inline constexpr std::string_view kNeedsHashAnnotation = "internal.gitops.capstan.dev/needs-hash";
inline constexpr std::string_view kPrefixesAnnotation = "internal.gitops.capstan.dev/prefixes";
inline constexpr std::string_view kSuffixesAnnotation = "internal.gitops.capstan.dev/suffixes";

// Built-in kinds without a namespace (Namespace, ClusterRole, CustomResourceDefinition, ...).
bool cluster_scoped(std::string_view kind);

// Records each object's current namespace and name among the ones it had (no duplicates).
void remember_ids(std::vector<json::Value>& objects);

// Records a namePrefix/nameSuffix given to the object: when a reference could mean several
// objects, kustomize picks the one renamed as the referrer was.
void remember_affixes(json::Value& obj, std::string_view prefix, std::string_view suffix);

// Whether `obj` is or was named `name`; with a namespace, also in that namespace ("" and
// "default" are one namespace, as kustomize treats them).
bool had_name(const json::Value& obj, std::string_view name);
bool had_id(const json::Value& obj, std::string_view ns, std::string_view name);

// The API group of the object's apiVersion ("" for the core group).
std::string_view group_of(const json::Value& obj);

// The namespace and name the object had first (in the file it came from).
std::pair<std::string, std::string> original_id(const json::Value& obj);

// Rewrites the references between `objects` to the names they have now, choosing among the
// objects a reference could mean as kustomize does: by any name they had (with the namespace
// beside the reference, for RoleBinding subjects and webhook services), then those in the
// referrer's namespace, then those renamed with the same prefixes and suffixes. Throws BuildError
// when it could still mean objects that now have different names.
// `crds`: references of custom resources the kustomizations' crds fields declared
// (kustomize_crds.h), besides the built-in table.
void fix_name_references(std::vector<json::Value>& objects, const std::vector<CrdReference>& crds = {});

// Removes the build's internal annotations (and the annotations map when that empties it).
void drop_internal_annotations(json::Value& obj);

}  // namespace capstan::gitops::kustomize
