#include "apis/gitops/v1/crds.h"

#include "apis/common/crd.h"
#include "apis/gitops/v1/group.h"

namespace capstan::apis::gitops::v1 {
namespace {

constexpr CrdGroupVersion kGroupVersion{kGroup, kVersion};

}  // namespace

json::Value git_repository_crd() {
  return make_crd(kGroupVersion, {kGitRepositoryKind, "gitrepositories", "gitrepository", {"gitrepo"}}, true,
                  git_repository_schema(),
                  {{"URL", "string", ".spec.url"}, age_column(), ready_column(), ready_message_column(0)});
}

json::Value kustomization_crd() {
  return make_crd(kGroupVersion, {kKustomizationKind, "kustomizations", "kustomization", {"ks"}}, true,
                  kustomization_schema(), {age_column(), ready_column(), ready_message_column(0)});
}

std::vector<json::Value> crds() { return {git_repository_crd(), kustomization_crd()}; }

}  // namespace capstan::apis::gitops::v1
