// The CustomResourceDefinitions of gitops.capstan.dev/v1 (gitrepositories, kustomizations),
// generated from the OpenAPI schemas in schema.cpp: names, short names and printer columns as
// Flux's (gitrepo: URL, Age, Ready, Status; ks: Age, Ready, Status).
#pragma once

#include "runtime/json/json.h"

#include <vector>

namespace capstan::apis::gitops::v1 {

json::Value git_repository_schema();
json::Value kustomization_schema();

json::Value git_repository_crd();
json::Value kustomization_crd();
// gitrepositories, kustomizations.
std::vector<json::Value> crds();

}  // namespace capstan::apis::gitops::v1
