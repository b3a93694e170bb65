// Paths inside a Git repository, as users write them in a Kustomization's spec.path or in a
// kustomization.yaml's resources: cleaned as Go's path.Clean does, relative to the root. Shared
// by the gitops controller (reading the repository) and validation (refusing a spec.path that
// climbs out of it).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace capstan::apis::gitops::v1 {

// "", ".", "./a/", "/a//b/.." -> the path relative to the root ("" is the root itself);
// nullopt when a ".." climbs above the root.
std::optional<std::string> clean_repo_path(std::string_view path);

}  // namespace capstan::apis::gitops::v1
