// The listings of recent artifacts (artifact.h: each path's mirror and blob), shared by the
// Kustomizations that read the same GitRepository at the same digest instead of each walking the
// Git trees again. Bounded: at most `max_entries` artifacts and `max_bytes` (paths, URLs and ids),
// the least recently used dropped first. Thread-safe.
#pragma once

#include <cstddef>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace capstan::gitops {

// Where one file of an artifact is: the mirror (its URL) and the blob.
struct ArtifactEntry {
  std::string url, oid;
  std::size_t size = 0;
};
using ArtifactListing = std::map<std::string, ArtifactEntry>;

class ArtifactCache {
 public:
  explicit ArtifactCache(std::size_t max_entries = 8, std::size_t max_bytes = std::size_t{64} << 20)
      : max_entries_(max_entries), max_bytes_(max_bytes) {}

  std::shared_ptr<const ArtifactListing> get(const std::string& key);
  // An artifact larger than max_bytes on its own is not kept.
  void put(const std::string& key, std::shared_ptr<const ArtifactListing> listing);
  std::size_t bytes() const;

 private:
  struct Entry {
    std::string key;
    std::shared_ptr<const ArtifactListing> listing;
    std::size_t bytes;
  };
  const std::size_t max_entries_, max_bytes_;
  mutable std::mutex mu_;
  std::list<Entry> lru_;  // most recently used first
  std::size_t bytes_ = 0;
};

}  // namespace capstan::gitops
