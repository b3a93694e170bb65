// `capstan crds`: prints every CRD as a YAML stream; `capstan manifests DIR` writes the
// generated parts of the kustomize tree (config/crd, RBAC, webhooks).
#pragma once

#include <string>
#include <vector>

namespace capstan::manager {

int crds_command(const std::vector<std::string>& args);
int manifests_command(const std::vector<std::string>& args);
// The YAML stream `capstan crds` prints.
std::string crds_yaml();

}  // namespace capstan::manager
