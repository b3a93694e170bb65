// Local Git mirrors for the GitOps controllers, on libgit2: one bare repository per remote URL.
// The GitRepository controller resolves a ref against the remote (ls-remote) and fetches only
// when the commit is not local yet; the Kustomization controller then reads the files of one
// directory of that commit straight from the object database (no checkout, no working tree).
//
// URLs: git://, http(s)://, ssh://, file:// and plain local paths. Credentials (Credentials)
// for http(s) basic and bearer authentication and SSH keys; SSH host keys are checked against the
// credentials' known_hosts (known_hosts.h), an unknown one refused.
// Thread-safe: calls for the same URL are serialized, different URLs run in parallel.
// Process-wide effects of the first sync(), files() or has_commit(): libgit2 is loaded
// (libgit2.h) and initialised (never shut down) and its plain socket stream is replaced by one
// that honours sync()'s deadline, since libgit2 1.5 has no socket timeouts of its own (TLS
// runs on top of that stream, so https is bounded too).
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::gitops::git {

// GitRepository.spec.ref (Flux source-controller semantics). Precedence: commit > name > semver
// > tag > branch; all empty = branch "master" (Flux's default). A commit may come with a branch,
// which is then fetched to find it and named in the revision. semver is a range
// (apis/gitops/v1/semver.h): the highest tag of the remote whose name is a version in it.
struct Ref {
  std::string branch, tag, commit, name;  // name = a full ref, e.g. "refs/pull/420/head"
  std::string semver;
};

// A GitRepository's spec.secretRef, with Flux's keys: username and password (http(s) basic
// authentication), bearerToken (http(s)), identity (an SSH private key, PEM or OpenSSH; password
// is then its passphrase), known_hosts (required for ssh://) and ca.crt (PEM certificates an
// https server's certificate may chain to, besides the system's). Never logged nor put in errors.
struct Credentials {
  std::string username, password, bearer_token, identity, known_hosts, ca_pem;
};

struct Resolved {
  std::string commit;    // 40 hex
  std::string revision;  // "<branch>@sha1:<c>", "<tag>@sha1:<c>", "<name>@sha1:<c>" or "sha1:<c>"
  std::string message;   // the commit message's first line
  bool fetched = false;  // false = the commit was already local (Flux's no-op clone)
};

// Every failure: the message names the operation, the URL (credentials stripped), the ref or
// path, and libgit2's own text. code() is libgit2's error code (GIT_EAUTH, ...), 0 for our own.
class GitError : public std::runtime_error {
 public:
  explicit GitError(const std::string& message, int code = 0) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// Bounds on one fetch into a mirror (pack bytes received, objects in the pack); a bigger
// transfer is cancelled with an error naming the limit.
inline constexpr std::size_t kMaxFetchBytes = std::size_t{512} << 20;
inline constexpr unsigned kMaxFetchObjects = 2'000'000;

// Bounds on what files() returns; exceeding one is an error naming the limit.
struct Limits {
  std::size_t max_file_bytes = 4 << 20;
  std::size_t max_total_bytes = 64 << 20;
  std::size_t max_files = 10000;
};

// A regular file of a revision, as listing() names it: its blob id (40 hex) and size.
struct BlobRef {
  std::string oid;
  std::size_t size = 0;
  bool operator==(const BlobRef&) const = default;
};
using Listing = std::map<std::string, BlobRef>;
// Bounds on a listing (paths of one revision) and on one .sourceignore file.
inline constexpr std::size_t kMaxListing = 200'000;
inline constexpr std::size_t kMaxIgnoreFileBytes = 1 << 20;

// `url` with any "user:password@" removed: the only form of a URL to log or put in errors.
std::string redact_url(std::string_view url);

class Mirrors {
 public:
  // url's mirror is root/<sha256(url) hex[:16]>.git; root is made by the first sync().
  explicit Mirrors(std::filesystem::path root);
  ~Mirrors();
  Mirrors(const Mirrors&) = delete;
  Mirrors& operator=(const Mirrors&) = delete;

  // Asks the remote which commit `ref` points at; returns without fetching when that commit is
  // already local, otherwise fetches just that ref into the mirror's refs of the same name.
  // A commit ref is looked up locally first and, when missing, fetched with all branches and
  // tags (or just spec.ref.branch when set). `timeout` bounds the whole call (<= 0: unbounded).
  Resolved sync(const std::string& url, const Ref& ref, std::chrono::milliseconds timeout, const Credentials* credentials = nullptr);

  // The regular files (no symlinks, no submodules) under directory `path` of `commit`, keyed by
  // their '/'-separated path relative to it, but for those the ignore rules exclude
  // (source_ignore.h: the defaults, .sourceignore files, then `ignore`, GitRepository.spec.ignore).
  // "", "." and "./" are the root; a leading "./" and a trailing "/" are accepted. Throws when the
  // commit is not local, when `path` is missing or not a directory, and when a limit is exceeded.
  std::map<std::string, std::string> files(const std::string& url, const std::string& commit,
                                           const std::string& path, const Limits& limits = {},
                                           const std::optional<std::string>& ignore = std::nullopt) const;

  // What files() would return, without reading a file's content: paths with their blob ids and
  // sizes, after the same ignore rules. At most kMaxListing paths.
  Listing listing(const std::string& url, const std::string& commit, const std::string& path,
                  const std::optional<std::string>& ignore = std::nullopt) const;
  // The contents of blobs of url's mirror, in the order of `oids` (one open of the mirror).
  std::vector<std::string> read_blobs(const std::string& url, const std::vector<std::string>& oids) const;

  // Whether `commit` (40 hex) is a commit in url's mirror.
  bool has_commit(const std::string& url, const std::string& commit) const;

  // Deletes url's mirror (e.g. when the last GitRepository using it goes away); the next sync
  // starts from scratch. No-op when there is none.
  void remove(const std::string& url);

  // Deletes every mirror under root() whose URL is not in `keep` (repositories deleted, or whose
  // URL changed, also while the manager was down); returns how many. A mirror busy in another
  // call is left for the next collection.
  std::size_t collect(const std::vector<std::string>& keep);
  // Bytes of the files under root(): the mirror volume's use.
  std::uintmax_t disk_usage() const;

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path mirror_path(const std::string& url) const;

 private:
  std::shared_ptr<std::timed_mutex> lock_for(const std::string& url) const;

  std::filesystem::path root_;
  mutable std::mutex locks_mu_;
  mutable std::map<std::string, std::shared_ptr<std::timed_mutex>> locks_;  // per URL; never erased
};

}  // namespace capstan::gitops::git
