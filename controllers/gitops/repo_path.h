// Paths inside a Git repository (apis/gitops/v1/repo_path.h, shared with validation).
#pragma once

#include "apis/gitops/v1/repo_path.h"

namespace capstan::gitops {

using apis::gitops::v1::clean_repo_path;

}  // namespace capstan::gitops
