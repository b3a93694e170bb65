// kustomize's `crds` field: files of OpenAPI definitions (kube-openapi's
// {"<package>.<Kind>": {"Schema": {...}, "Dependencies": [...]}}, JSON or YAML) that teach the build
// which fields of custom resources name other objects. For each definition that looks like a
// Kubernetes type (properties kind, apiVersion and metadata), its properties are walked, following
// "$ref" into other definitions; a property with x-kubernetes-object-ref-api-version and
// x-kubernetes-object-ref-kind names an object of that kind by its member
// x-kubernetes-object-ref-name-key (default "name"), and that reference then follows the renames
// of the build (prefixes, suffixes, generator hashes) as the built-in ones do (kustomize_names.h).
// The other extensions kustomize reads there (x-kubernetes-annotation, x-kubernetes-label-selector,
// x-kubernetes-identity) are refused, naming the definition and property.
#pragma once

#include <string>
#include <vector>

namespace capstan::gitops::kustomize {

struct CrdReference {
  std::string referrer_kind;  // the custom resource's kind (any group)
  std::string path;           // "spec/configRef/name"
  std::string referent_kind;  // what it names ("ConfigMap"), of any group
};

// Reads one crds file into `out`. Throws BuildError naming `file`.
void load_crd_references(const std::string& file, const std::string& text, std::vector<CrdReference>& out);

}  // namespace capstan::gitops::kustomize
