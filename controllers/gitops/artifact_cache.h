// The files of recent artifacts (artifact.h), shared by the Kustomizations that read the same
// GitRepository at the same digest instead of each reading the Git mirror again. Bounded: at most
// `max_entries` artifacts and `max_bytes` of file content, the least recently used dropped first.
// Thread-safe.
#pragma once

#include <cstddef>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace capstan::gitops {

using ArtifactFiles = std::map<std::string, std::string>;

class ArtifactCache {
 public:
  explicit ArtifactCache(std::size_t max_entries = 8, std::size_t max_bytes = std::size_t{128} << 20)
      : max_entries_(max_entries), max_bytes_(max_bytes) {}

  std::shared_ptr<const ArtifactFiles> get(const std::string& key);
  // An artifact larger than max_bytes on its own is not kept.
  void put(const std::string& key, std::shared_ptr<const ArtifactFiles> files);
  std::size_t bytes() const;

 private:
  struct Entry {
    std::string key;
    std::shared_ptr<const ArtifactFiles> files;
    std::size_t bytes;
  };
  const std::size_t max_entries_, max_bytes_;
  mutable std::mutex mu_;
  std::list<Entry> lru_;  // most recently used first
  std::size_t bytes_ = 0;
};

}  // namespace capstan::gitops
