#include "controllers/gitops/artifact.h"

#include "apis/gitops/v1/repo_path.h"
#include "controllers/gitops/env.h"
#include "controllers/gitops/manifests.h"
#include "runtime/pki/digest.h"

#include <set>

namespace capstan::gitops {
namespace {

namespace v1 = apis::gitops::v1;

std::string commit_of(const std::string& revision) {
  auto at = revision.rfind("sha1:");
  return at == std::string::npos ? "" : revision.substr(at + 5);
}

ArtifactListing assemble(Env& env, const std::string& ns, const v1::GitRepository& repo, std::string commit,
                         std::set<std::string>& visiting, int depth) {
  const std::string name = "GitRepository '" + ns + "/" + std::string(repo.name()) + "'";
  if (commit.empty()) commit = repo.status.artifact ? commit_of(repo.status.artifact->revision) : "";
  if (commit.empty()) throw IncludeUnavailable(name + " has no artifact yet");
  const std::string& url = repo.spec.url;
  if (!env.mirrors.has_commit(url, commit)) {
    auto credentials = env.credentials(ns, repo.spec.secret_ref);
    env.mirrors.sync(url, git::Ref{"", "", commit, ""}, repo.spec.timeout, credentials ? &*credentials : nullptr);
  }
  ArtifactListing out;
  for (auto& [path, blob] : env.mirrors.listing(url, commit, "", repo.spec.ignore)) out.emplace(path, ArtifactEntry{url, blob.oid, blob.size});
  for (const auto& inc : repo.spec.include) {
    const std::string inc_name = "include '" + ns + "/" + inc.repository.name + "' of " + name;
    if (depth + 1 > kMaxIncludeDepth) throw std::runtime_error(inc_name + ": includes nest more than " + std::to_string(kMaxIncludeDepth) + " deep");
    if (!visiting.insert(inc.repository.name).second) throw std::runtime_error(inc_name + ": includes form a cycle");
    auto cached = env.repositories.get(ns, inc.repository.name);
    if (!cached) throw IncludeUnavailable(inc_name + ": not found");
    v1::GitRepository included;
    try {
      included = v1::GitRepository::from_json(cached->value());
    } catch (const std::exception& e) {
      throw IncludeUnavailable(inc_name + ": " + e.what());
    }
    if (!included.status.artifact) throw IncludeUnavailable(inc_name + ": it has no artifact yet");
    auto inner = assemble(env, ns, included, "", visiting, depth + 1);
    visiting.erase(inc.repository.name);
    const std::string from = v1::clean_repo_path(inc.from_path).value_or("");
    const std::string to = v1::clean_repo_path(inc.effective_to_path()).value_or(inc.repository.name);
    const std::string from_prefix = from.empty() ? "" : from + "/";
    const std::string to_prefix = to + "/";
    // What this repository has at toPath is replaced.
    for (auto it = out.lower_bound(to_prefix); it != out.end() && it->first.compare(0, to_prefix.size(), to_prefix) == 0;) it = out.erase(it);
    for (auto& [path, entry] : inner)
      if (path.compare(0, from_prefix.size(), from_prefix) == 0) out[to_prefix + path.substr(from_prefix.size())] = std::move(entry);
    if (out.size() > git::kMaxListing) throw std::runtime_error(name + ": more than " + std::to_string(git::kMaxListing) + " files with its includes");
  }
  return out;
}

}  // namespace

ArtifactListing artifact_listing(Env& env, const std::string& ns, const v1::GitRepository& repo, const std::string& commit) {
  std::set<std::string> visiting{std::string(repo.name())};
  return assemble(env, ns, repo, commit, visiting, 0);
}

std::shared_ptr<const ArtifactListing> cached_artifact_listing(Env& env, const std::string& ns, const v1::GitRepository& repo) {
  const std::string key = ns + "/" + std::string(repo.name()) + "@";
  if (repo.status.artifact) {
    // The listing id is the file name of the artifact's path.
    const std::string& path = repo.status.artifact->path;
    const auto slash = path.rfind('/');
    const auto dot = path.find('.', slash == std::string::npos ? 0 : slash);
    if (slash != std::string::npos && dot != std::string::npos)
      if (auto hit = env.artifacts.get(key + path.substr(slash + 1, dot - slash - 1))) return hit;
  }
  auto listing = std::make_shared<const ArtifactListing>(artifact_listing(env, ns, repo));
  // Kept under the id of what was listed: an include that moved on since the status was
  // written lists other files, which must not answer for that status.
  env.artifacts.put(key + listing_id(*listing), listing);
  return listing;
}

std::string listing_id(const ArtifactListing& listing) {
  pki::Sha256 sha;
  for (const auto& [path, entry] : listing) sha.update(std::to_string(path.size()) + ":" + path + entry.oid + "\n");
  return sha.hex();
}

std::string artifact_path(const std::string& ns, const std::string& name, const std::string& id) {
  return "gitrepository/" + ns + "/" + name + "/" + id + ".tar.gz";
}

ArtifactTree::ArtifactTree(const git::Mirrors& mirrors, std::shared_ptr<const ArtifactListing> listing, git::Limits limits)
    : mirrors_(mirrors), listing_(std::move(listing)), limits_(limits) {
  paths_.reserve(listing_->size());
  for (const auto& kv : *listing_) paths_.push_back(kv.first);
}

void ArtifactTree::admit(const std::string& path, std::size_t size) {
  if (content_.size() >= limits_.max_files)
    throw BuildError(path + ": the build reads more than " + std::to_string(limits_.max_files) + " files, over the max_files limit");
  if (size > limits_.max_file_bytes)
    throw BuildError(path + ": " + std::to_string(size) + " bytes, over the max_file_bytes limit of " + std::to_string(limits_.max_file_bytes));
  if (bytes_ + size > limits_.max_total_bytes)
    throw BuildError(path + ": the build reads more than " + std::to_string(limits_.max_total_bytes) +
                     " bytes, over the max_total_bytes limit");
  bytes_ += size;
}

void ArtifactTree::prefetch(const std::string& dir) {
  std::map<std::string, std::pair<std::vector<std::string>, std::vector<std::string>>> by_url;  // url -> (paths, oids)
  auto [first, last] = under(dir.empty() ? "" : dir + "/");
  for (auto it = first; it != last; ++it) {
    if (content_.contains(*it)) continue;
    const ArtifactEntry& e = listing_->at(*it);
    admit(*it, e.size);
    auto& [paths, oids] = by_url[e.url];
    paths.push_back(*it);
    oids.push_back(e.oid);
  }
  for (auto& [url, batch] : by_url) {
    std::vector<std::string> contents;
    try {
      contents = mirrors_.read_blobs(url, batch.second);
    } catch (const std::exception& e) {
      throw BuildError("reading " + (dir.empty() ? std::string(".") : dir) + ": " + e.what());
    }
    for (std::size_t i = 0; i < contents.size(); ++i) content_.emplace(batch.first[i], std::move(contents[i]));
  }
}

const std::string& ArtifactTree::read(const std::string& path) {
  if (auto it = content_.find(path); it != content_.end()) return it->second;
  auto entry = listing_->find(path);
  if (entry == listing_->end()) throw BuildError(path + ": not found");
  admit(path, entry->second.size);
  std::vector<std::string> contents;
  try {
    contents = mirrors_.read_blobs(entry->second.url, {entry->second.oid});
  } catch (const std::exception& e) {
    throw BuildError(path + ": " + e.what());
  }
  return content_.emplace(path, std::move(contents.front())).first->second;
}

}  // namespace capstan::gitops
