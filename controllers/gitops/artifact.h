// What a GitRepository's artifact holds, as the Kustomizations read it: the files of its commit
// (the ignore rules applied: git/source_ignore.h) with, for each spec.include, the included
// GitRepository's artifact (itself with its includes) copied from its fromPath to toPath,
// replacing what was there, as Flux's source-controller assembles an artifact. Nothing is written
// to disk: the files come straight from the Git mirrors, which are synced first when a commit is
// missing (after a restart with an empty storage path).
#pragma once

#include "apis/gitops/v1/types.h"
#include "controllers/gitops/artifact_cache.h"

#include <map>
#include <memory>
#include <stdexcept>
#include <string>

namespace capstan::gitops {

struct Env;

// An include whose GitRepository is missing or has no artifact yet (Flux's IncludeUnavailable).
class IncludeUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Includes nest at most this deep (an include of an include ...); deeper, or a cycle, is an error.
inline constexpr int kMaxIncludeDepth = 8;

// The files of `repo` (of namespace `ns`) at its artifact's revision (or at `commit` when given,
// for a revision not yet in its status), includes at their artifacts' revisions. Throws
// IncludeUnavailable, or std::exception naming the repository and what failed.
std::map<std::string, std::string> artifact_files(Env& env, const std::string& ns, const apis::gitops::v1::GitRepository& repo,
                                                  const std::string& commit = "");

// artifact_files() of `repo`'s artifact through the Env's cache of recent artifacts, keyed by the
// repository and its status' digest: the Kustomizations of one repository share one read of it.
std::shared_ptr<const ArtifactFiles> cached_artifact_files(Env& env, const std::string& ns, const apis::gitops::v1::GitRepository& repo);

// "sha256:<hex>" over the files in path order (each path and content length-prefixed): the same
// files give the same digest, any change in a path or a byte another.
std::string artifact_digest(const std::map<std::string, std::string>& files);

}  // namespace capstan::gitops
