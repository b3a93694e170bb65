#include "controllers/gitops/artifact_cache.h"

namespace capstan::gitops {

std::shared_ptr<const ArtifactListing> ArtifactCache::get(const std::string& key) {
  std::lock_guard lock(mu_);
  for (auto it = lru_.begin(); it != lru_.end(); ++it)
    if (it->key == key) {
      lru_.splice(lru_.begin(), lru_, it);
      return lru_.front().listing;
    }
  return nullptr;
}

void ArtifactCache::put(const std::string& key, std::shared_ptr<const ArtifactListing> listing) {
  std::size_t size = 0;
  for (const auto& [path, entry] : *listing) size += path.size() + entry.url.size() + entry.oid.size() + 64;
  std::lock_guard lock(mu_);
  for (auto it = lru_.begin(); it != lru_.end(); ++it)
    if (it->key == key) {
      bytes_ -= it->bytes;
      lru_.erase(it);
      break;
    }
  if (size > max_bytes_) return;
  lru_.push_front(Entry{key, std::move(listing), size});
  bytes_ += size;
  while (!lru_.empty() && (lru_.size() > max_entries_ || bytes_ > max_bytes_)) {
    bytes_ -= lru_.back().bytes;
    lru_.pop_back();
  }
}

std::size_t ArtifactCache::bytes() const {
  std::lock_guard lock(mu_);
  return bytes_;
}

}  // namespace capstan::gitops
