// A small LRU of parsed PEM inputs. OpenSSL 3 decodes every key (and every certificate's
// SubjectPublicKeyInfo) through its provider decoder framework, which costs far more than the
// signature it later checks; controllers parse the same CA key, Secrets and requests on every
// reconcile. Parsed objects are immutable and shared, so the same PEM text gives the same
// object back. Failures are not cached.
//
// Bounded in bytes as well as in entries: the inputs come from Secrets and requests anyone with
// write access can fill (1 MiB each), so the cache holds at most kMaxCachedBytes of input text
// and never caches one input over kMaxCachedInputBytes (a real certificate chain is a few KiB).
//
//   static pki::ParseCache<PrivateKey> keys(kParseCacheEntries);
//   PrivateKey k = keys.get_or_parse(pem, [&] { return slow_parse(pem); });
#pragma once

#include <cstddef>
#include <list>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace capstan::pki {

inline constexpr std::size_t kMaxCachedBytes = 4 * 1024 * 1024;
inline constexpr std::size_t kMaxCachedInputBytes = 64 * 1024;
// Entries per kind of parsed object: more than the certificates a controller has in flight at
// once (a thousand applied together each go through a request, a key and a certificate parsed
// several times; an LRU smaller than the working set misses every time).
inline constexpr std::size_t kParseCacheEntries = 4096;

template <typename T>
class ParseCache {
 public:
  explicit ParseCache(std::size_t capacity) : capacity_(capacity) {}

  template <typename Parse>
  T get_or_parse(std::string_view input, Parse&& parse) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (auto it = index_.find(std::string(input)); it != index_.end()) {
        order_.splice(order_.begin(), order_, it->second);
        return it->second->second;
      }
    }
    T parsed = parse();  // outside the lock: parsing is the slow part
    if (input.size() > kMaxCachedInputBytes) return parsed;
    std::lock_guard<std::mutex> lock(mu_);
    if (index_.find(std::string(input)) == index_.end()) insert(input, parsed);
    return parsed;
  }

  // Remembers what `input` parses to, when the caller made both (the PEM it just wrote for an
  // object it holds): the parse that follows, at the next reconcile, is a hit.
  void put(std::string_view input, const T& parsed) {
    if (input.size() > kMaxCachedInputBytes) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = index_.find(std::string(input)); it != index_.end()) {
      order_.splice(order_.begin(), order_, it->second);
      return;
    }
    insert(input, parsed);
  }

  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return order_.size();
  }

 private:
  using Entry = std::pair<std::string, T>;

  // Under mu_, for an input not held yet.
  void insert(std::string_view input, const T& parsed) {
    order_.emplace_front(std::string(input), parsed);
    index_.emplace(order_.front().first, order_.begin());
    bytes_ += input.size();
    while (order_.size() > capacity_ || bytes_ > kMaxCachedBytes) {
      bytes_ -= order_.back().first.size();
      index_.erase(order_.back().first);
      order_.pop_back();
    }
  }

  const std::size_t capacity_;
  mutable std::mutex mu_;
  std::list<Entry> order_;  // most recently used first
  std::size_t bytes_ = 0;   // input text held
  std::unordered_map<std::string, typename std::list<Entry>::iterator> index_;
};

}  // namespace capstan::pki
