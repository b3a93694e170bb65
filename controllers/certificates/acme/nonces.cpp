#include "controllers/certificates/acme/nonces.h"

namespace capstan::certificates::acme {

void NoncePool::put(std::string nonce) {
  if (nonce.empty()) return;
  std::lock_guard<std::mutex> l(mu_);
  if (capacity_ == 0) return;
  if (nonces_.size() >= capacity_) nonces_.erase(nonces_.begin());
  nonces_.push_back(std::move(nonce));
}

std::optional<std::string> NoncePool::take() {
  std::lock_guard<std::mutex> l(mu_);
  if (nonces_.empty()) return std::nullopt;
  std::string n = std::move(nonces_.back());
  nonces_.pop_back();
  return n;
}

std::size_t NoncePool::size() const {
  std::lock_guard<std::mutex> l(mu_);
  return nonces_.size();
}

void NoncePool::clear() {
  std::lock_guard<std::mutex> l(mu_);
  nonces_.clear();
}

}  // namespace capstan::certificates::acme
