#include "controllers/gitops/artifact.h"

#include "apis/gitops/v1/repo_path.h"
#include "controllers/gitops/env.h"

#include <openssl/evp.h>

#include <memory>
#include <set>

namespace capstan::gitops {
namespace {

namespace v1 = apis::gitops::v1;

std::string commit_of(const std::string& revision) {
  auto at = revision.rfind("sha1:");
  return at == std::string::npos ? "" : revision.substr(at + 5);
}

std::map<std::string, std::string> assemble(Env& env, const std::string& ns, const v1::GitRepository& repo, std::string commit,
                                            std::set<std::string>& visiting, int depth) {
  const std::string name = "GitRepository '" + ns + "/" + std::string(repo.name()) + "'";
  if (commit.empty()) commit = repo.status.artifact ? commit_of(repo.status.artifact->revision) : "";
  if (commit.empty()) throw IncludeUnavailable(name + " has no artifact yet");
  const std::string& url = repo.spec.url;
  if (!env.mirrors.has_commit(url, commit)) {
    auto credentials = env.credentials(ns, repo.spec.secret_ref);
    env.mirrors.sync(url, git::Ref{"", "", commit, ""}, repo.spec.timeout, credentials ? &*credentials : nullptr);
  }
  auto files = env.mirrors.files(url, commit, "", {}, repo.spec.ignore);
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
    for (auto it = files.lower_bound(to_prefix); it != files.end() && it->first.compare(0, to_prefix.size(), to_prefix) == 0;)
      it = files.erase(it);
    for (auto& [path, content] : inner)
      if (path.compare(0, from_prefix.size(), from_prefix) == 0) files[to_prefix + path.substr(from_prefix.size())] = std::move(content);
  }
  return files;
}

}  // namespace

std::map<std::string, std::string> artifact_files(Env& env, const std::string& ns, const v1::GitRepository& repo, const std::string& commit) {
  std::set<std::string> visiting{std::string(repo.name())};
  return assemble(env, ns, repo, commit, visiting, 0);
}

std::shared_ptr<const ArtifactFiles> cached_artifact_files(Env& env, const std::string& ns, const v1::GitRepository& repo) {
  const std::string digest = repo.status.artifact ? repo.status.artifact->digest : "";
  const std::string key = ns + "/" + std::string(repo.name()) + "@" + digest;
  if (!digest.empty())
    if (auto hit = env.artifacts.get(key)) return hit;
  auto files = std::make_shared<const ArtifactFiles>(artifact_files(env, ns, repo));
  // Kept under the digest of what was read: an include that moved on since the status was
  // written gives other files, which must not answer for that status.
  env.artifacts.put(ns + "/" + std::string(repo.name()) + "@" + artifact_digest(*files), files);
  return files;
}

std::string artifact_digest(const std::map<std::string, std::string>& files) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
  auto put = [&](std::string_view s) {
    const std::string len = std::to_string(s.size()) + ":";
    EVP_DigestUpdate(ctx.get(), len.data(), len.size());
    EVP_DigestUpdate(ctx.get(), s.data(), s.size());
  };
  for (const auto& [path, content] : files) {
    put(path);
    put(content);
  }
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(ctx.get(), md, &n);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "sha256:";
  for (unsigned int i = 0; i < n; ++i) {
    out += kHex[md[i] >> 4];
    out += kHex[md[i] & 15];
  }
  return out;
}

}  // namespace capstan::gitops
