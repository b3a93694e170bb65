// Builds the objects a Kustomization applies from the files of a source revision, as Flux's
// kustomize-controller does with kustomize (in-process, no binary):
//
//   - `path` holds a kustomization.yaml (kustomize.config.k8s.io/v1beta1), built in kustomize
//     v5's order: `resources`/`bases` (files and directories, each directory with its own
//     kustomization.yaml or plain YAML), the generators (kustomize_generators.h), `components`,
//     then the transformers: `patchesStrategicMerge` and `patches` (JSON 6902 and strategic
//     merge), `namespace`, `namePrefix`/`nameSuffix`, labels and annotations
//     (kustomize_metadata.h), `patchesJson6902`, `replicas` and `images`
//     (kustomize_transforms.h); `crds` declares which fields of custom resources name other objects
//     (kustomize_crds.h). Other kustomize fields (replacements, vars, plugins,
//     remote bases, ...) are refused with a BuildError naming the field:
//     applying half of what the file says would be worse than not applying.
//   - `path` has none: every *.yaml / *.yml / *.json file below it (sorted, recursively) is read,
//     and the documents that are Kubernetes objects (apiVersion and kind) are kept, as Flux's
//     generated kustomization.yaml does.
// Then the Kustomization's own transforms: patches and images, namePrefix/nameSuffix; and, as
// kustomize ends a build, the generated objects' hash suffixes and the references between objects
// rewritten to their new names (kustomize_names.h); then commonMetadata and the ownership labels
// gitops.capstan.dev/name and /namespace, SOPS decryption (decryption.h) and Flux's post-build
// variable substitution. The namespace (targetNamespace, or the Kustomization's
// for namespaced objects with none) is set at apply time, where the REST mapping tells namespaced
// from cluster-scoped kinds.
#pragma once

#include "controllers/gitops/sops/sops.h"
#include "runtime/json/json.h"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace capstan::gitops {

class BuildError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct BuildOptions {
  std::string path;  // directory in the repository ("", "." and "./x/" forms accepted)
  std::string name_prefix, name_suffix;
  std::map<std::string, std::string> labels, annotations;  // commonMetadata; ownership labels go in labels
  // The Kustomization's own spec.patches ([{patch, target}], inline JSON 6902) and spec.images,
  // applied to what `path` built, before namePrefix/nameSuffix; null: none.
  json::Value patches, images;
  // spec.postBuild's variables, substituted into every built object last (substitute.h); nullopt:
  // no substitution.
  std::optional<std::map<std::string, std::string>> variables;
  // spec.decryption's age keys (decryption.h), used before substitution; null: not configured, and
  // an object with SOPS metadata fails the build.
  const sops::Keys* decryption = nullptr;
};

// `files`: repository-relative path -> content (the whole revision). Throws BuildError with the
// file and reason (bad YAML, a resource that does not exist, an unsupported kustomize field, two
// objects with the same kind, namespace and name).
std::vector<json::Value> build_manifests(const std::map<std::string, std::string>& files, const BuildOptions& options);
// The same from a SourceTree (source_tree.h), whose files are read as the build needs them.
class SourceTree;
std::vector<json::Value> build_manifests(SourceTree& tree, const BuildOptions& options);

// "./deploy/" -> "deploy", "." -> "", "a/../b" -> "b"; throws BuildError when it leaves the
// repository ("../x"). apis::gitops::v1::clean_repo_path (the one implementation, shared with
// validation and the Git mirrors) with this build's error.
std::string clean_path(std::string_view path);

}  // namespace capstan::gitops
