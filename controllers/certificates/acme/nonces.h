// Anti-replay nonces (RFC 8555 §7.2): every response's Replay-Nonce is kept for the next
// signed request; when none is left the client asks newNonce. Thread-safe.
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace capstan::certificates::acme {

class NoncePool {
 public:
  explicit NoncePool(std::size_t capacity = 32) : capacity_(capacity) {}

  // Keeps a nonce (ignores empty ones); when full, the oldest is dropped.
  void put(std::string nonce);
  // The most recent nonce (least likely to have expired), if any.
  std::optional<std::string> take();
  std::size_t size() const;
  void clear();

 private:
  mutable std::mutex mu_;
  std::size_t capacity_;
  std::vector<std::string> nonces_;  // oldest first
};

}  // namespace capstan::certificates::acme
