// Admission validation of gitops.capstan.dev/v1 objects, shared by the gitops webhook (refusal
// at `kubectl apply`) and the gitops controllers. What Flux's CRDs and controllers refuse where
// Capstan implements the feature, as field.Error causes naming the field path; every error of an
// object is reported at once:
//   spec.url: Unsupported value: "file:///srv/repo": supported values: "http", "https", "git"
//   spec.path: Invalid value: "../other": must not climb out of the repository root
//   spec.dependsOn[0]: Invalid value: "apps/b": dependency cycle: apps/a -> apps/b -> apps/a
//
// Members of an unexpected type read as absent (the CRD schema has checked types and the
// duration pattern).
#pragma once

#include "apis/gitops/v1/types.h"
#include "runtime/validation/field.h"

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace capstan::apis::gitops::v1 {

// The URL schemes a GitRepository may use when nothing else is configured. file:// reads the
// manager's own file system, so it is allowed only when the manager is started with it.
inline const std::vector<std::string>& default_url_schemes() {
  static const std::vector<std::string> s = {"http", "https", "git", "ssh"};
  return s;
}
// Every scheme the Git client implements.
inline const std::vector<std::string>& known_url_schemes() {
  static const std::vector<std::string> s = {"http", "https", "git", "ssh", "file"};
  return s;
}

// Bounds of the durations (interval: how often; timeout: how long one operation may take).
inline constexpr Duration kMinInterval{1'000};                // 1s
inline constexpr Duration kMaxInterval{720LL * 3'600'000};    // 30 days
inline constexpr Duration kMinTimeout{1'000};                 // 1s
inline constexpr Duration kMaxTimeout{3'600'000};             // 1h
// The most Kustomizations a dependsOn cycle search visits (one namespace's worth and more).
inline constexpr std::size_t kMaxDependencyWalk = 10'000;

struct ValidationOptions {
  std::vector<std::string> url_schemes = default_url_schemes();
};

// GitRepository: url (scheme allowed, a host for network schemes, a path for file://), interval
// and timeout bounds, ref names (git-check-ref-format; ref.name under refs/).
std::vector<validation::Cause> validate_git_repository(const json::Value& obj, const ValidationOptions& options = {});
// Warnings for an admitted GitRepository (credentials written into the URL).
std::vector<std::string> git_repository_warnings(const json::Value& obj);

// The dependsOn of Kustomization `ns`/`name` as stored (nullopt when there is none).
using DependsOnLookup = std::function<std::optional<std::vector<DependencyReference>>(const std::string& ns, const std::string& name)>;

// Kustomization: interval, retryInterval and timeout bounds, a path that stays in the repository,
// dependsOn entries (not itself, no repeats) and — when `lookup` is given — no dependsOn cycle
// through the stored Kustomizations (the object's own new dependsOn replacing its stored one).
std::vector<validation::Cause> validate_kustomization(const json::Value& obj, const DependsOnLookup* lookup = nullptr);

}  // namespace capstan::apis::gitops::v1
