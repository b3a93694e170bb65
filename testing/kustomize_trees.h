// Kustomization trees generated from a seed, for the kustomize differential test (against
// `kubectl kustomize`) and the kustomize build benchmark: a base with workloads, Services,
// ServiceAccounts, RBAC, Ingresses, claims, autoscalers and a custom resource, generated
// ConfigMaps and Secrets (literals, files, env files), and zero to two overlays stacking
// namespaces, prefixes and suffixes, labels, annotations, images, replicas, JSON 6902 and
// strategic-merge patches, merge/replace generators and components; the references between the
// objects are what renames must follow.
#pragma once

#include <map>
#include <string>

namespace capstan::e2e {

// Repository-relative path -> content; the root's kustomization.yaml is the tree's entry.
std::map<std::string, std::string> kustomize_tree(unsigned seed);

}  // namespace capstan::e2e
