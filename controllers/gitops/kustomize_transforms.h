// The kustomize transformers of kustomization.yaml beyond names, namespaces and metadata:
//   patches   JSON 6902 patches (inline `patch` or a `path` in the repository), applied to the
//             objects their `target` selects (group, version, kind, name, namespace: regular
//             expressions matched whole, as kustomize does; labelSelector, annotationSelector).
//             Strategic-merge patches are refused: without the types' schemas they cannot be
//             merged as kustomize merges them.
//   images    {name, newName, newTag, digest}: every container image (containers,
//             initContainers, ephemeralContainers, at any depth: pod templates of any kind)
//             whose name is `name` gets the new name, tag or digest.
//   replicas  {name, count}: spec.replicas of the Deployment, ReplicaSet, ReplicationController or
//             StatefulSet that is or was named `name`.
// Each throws BuildError naming the file and the entry.
#pragma once

#include "runtime/json/json.h"

#include <functional>
#include <string>
#include <vector>

namespace capstan::gitops {

// `read`: the repository file at a path relative to the kustomization's directory (throws
// BuildError when it does not exist or leaves the repository).
void apply_patches(std::vector<json::Value>& objects, const json::Value& patches, const std::string& file,
                   const std::function<std::string(const std::string&)>& read);
void apply_strategic_merge_patches(std::vector<json::Value>& objects, const json::Value& patches, const std::string& file,
                                   const std::function<std::string(const std::string&)>& read);
void apply_replicas(std::vector<json::Value>& objects, const json::Value& replicas, const std::string& file);
void apply_images(std::vector<json::Value>& objects, const json::Value& images, const std::string& file);

}  // namespace capstan::gitops
