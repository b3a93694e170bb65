// C++ views of gitops.capstan.dev/v1 GitRepository and Kustomization, read from their JSON.
//
// Implemented from Flux (the rest of Flux's spec is not in the CRD schema, so `kubectl apply`,
// which asks for strict field validation, refuses a manifest using it instead of half-applying it):
//   GitRepository  url, interval, timeout (60s), ref{branch|tag|commit|name} (default branch
//                  master), suspend
//   Kustomization  sourceRef{kind: GitRepository, name, namespace}, interval, retryInterval
//                  (= interval), path (repository root), prune, targetNamespace, suspend,
//                  timeout (= interval), dependsOn[{name, namespace}], commonMetadata{labels,
//                  annotations}, namePrefix, nameSuffix, serviceAccountName (applied and pruned
//                  as that ServiceAccount of the Kustomization's namespace, by impersonation)
// The CRD schema checks types, required members and duration syntax; parse_* throw
// std::invalid_argument naming the field for what it cannot check (durations that overflow).
#pragma once

#include "runtime/json/json.h"

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace capstan::apis::gitops::v1 {

using Duration = std::chrono::milliseconds;

inline constexpr Duration kDefaultGitTimeout{60'000};
inline constexpr std::string_view kDefaultBranch = "master";

struct GitRef {
  std::string branch, tag, commit, name;  // precedence: commit > name > tag > branch
};

struct GitRepositorySpec {
  std::string url;
  Duration interval{};
  Duration timeout = kDefaultGitTimeout;
  GitRef ref;  // all empty = branch master
  bool suspend = false;
};

struct ObjectRef {
  std::string name;
  std::string ns;  // empty = the referring object's namespace
};

struct KustomizationSpec {
  std::string source_kind = "GitRepository";
  ObjectRef source;
  Duration interval{};
  Duration retry_interval{};  // = interval when unset
  Duration timeout{};         // = interval when unset
  std::string path;           // "" = the repository root
  bool prune = false;
  std::string target_namespace;
  bool suspend = false;
  std::vector<ObjectRef> depends_on;
  std::map<std::string, std::string> common_labels, common_annotations;
  std::string name_prefix, name_suffix;
  std::string service_account_name;  // "" = the controller's default (--gitops-default-service-account)
};

GitRepositorySpec parse_git_repository_spec(const json::Value& object);
KustomizationSpec parse_kustomization_spec(const json::Value& object);

// The ref's display form for revisions: "main", "v1.0", "refs/pull/1/head", or "" for a commit.
std::string ref_label(const GitRef& ref);

}  // namespace capstan::apis::gitops::v1
