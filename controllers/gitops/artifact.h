// What a GitRepository's artifact holds, as the Kustomizations read it: the files of its commit
// (the ignore rules applied: git/source_ignore.h) with, for each spec.include, the included
// GitRepository's artifact (itself with its includes) copied from its fromPath to toPath,
// replacing what was there, as Flux's source-controller assembles an artifact. Nothing is written
// to disk and nothing is read up front: an artifact is a listing (each path's mirror and blob),
// and a Kustomization's build reads the files it uses from the Git mirrors (ArtifactTree),
// counting them against its limits.
#pragma once

#include "apis/gitops/v1/types.h"
#include "controllers/gitops/artifact_cache.h"
#include "controllers/gitops/git/mirrors.h"
#include "controllers/gitops/source_tree.h"

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

// The listing of `repo` (of namespace `ns`) at its artifact's revision (or at `commit` when given,
// for a revision not yet in its status), includes at their artifacts' revisions; mirrors missing a
// commit (after a restart with an empty storage path) are synced first. Throws
// IncludeUnavailable, or std::exception naming the repository and what failed.
ArtifactListing artifact_listing(Env& env, const std::string& ns, const apis::gitops::v1::GitRepository& repo,
                                 const std::string& commit = "");

// artifact_listing() of `repo`'s artifact through the Env's cache of recent artifacts, keyed by the
// repository and the listing id in its status' path: the Kustomizations of one repository share
// one listing.
std::shared_ptr<const ArtifactListing> cached_artifact_listing(Env& env, const std::string& ns, const apis::gitops::v1::GitRepository& repo);

// Hex SHA-256 over the paths and their blob ids, in path order: the same files give the same id,
// any change in a path or a byte another; made without reading a file.
std::string listing_id(const ArtifactListing& listing);

// status.artifact.path of the artifact whose listing_id() is `id`: "gitrepository/<ns>/<name>/<id>.tar.gz".
std::string artifact_path(const std::string& ns, const std::string& name, const std::string& id);

// An artifact's files for one build: content read from the mirrors on first use, at most
// `limits` (files, bytes per file, bytes in all) over what the build reads; over one, the build
// fails naming the file.
class ArtifactTree : public SourceTree {
 public:
  ArtifactTree(const git::Mirrors& mirrors, std::shared_ptr<const ArtifactListing> listing, git::Limits limits);
  // Reads the files under `dir` now, one pass per mirror (the build's path: it reads them all).
  void prefetch(const std::string& dir);
  const std::string& read(const std::string& path) override;
  std::size_t files_read() const { return content_.size(); }
  std::size_t bytes_read() const { return bytes_; }

 private:
  void admit(const std::string& path, std::size_t size);

  const git::Mirrors& mirrors_;
  std::shared_ptr<const ArtifactListing> listing_;
  git::Limits limits_;
  std::map<std::string, std::string> content_;
  std::size_t bytes_ = 0;
};

}  // namespace capstan::gitops
