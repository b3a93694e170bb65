// Per-item exponential backoff: base * 2^failures, capped at max.
#pragma once

#include <mutex>
#include <unordered_map>

#include "runtime/workqueue/rate_limiter.h"

namespace capstan::workqueue {

class ItemExponentialFailureRateLimiter final : public RateLimiter {
 public:
  // Throws std::invalid_argument if base is negative or max < base.
  explicit ItemExponentialFailureRateLimiter(Duration base = std::chrono::milliseconds(5),
                                             Duration max = std::chrono::seconds(1000));
  Duration when(const std::string& key) override;  // 0th failure: base; then 2*base, 4*base, ... <= max
  void forget(const std::string& key) override;
  int num_requeues(const std::string& key) const override;

 private:
  Duration base_;
  Duration max_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, int> failures_;
};

}  // namespace capstan::workqueue
