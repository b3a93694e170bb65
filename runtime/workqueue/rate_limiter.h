// Per-item retry delays (client-go's workqueue.TypedRateLimiter) and how they combine.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/workqueue/clock.h"

namespace capstan::workqueue {

class RateLimiter {
 public:
  virtual ~RateLimiter() = default;
  // How long to wait before `key` is processed again; counts as one more requeue of `key`.
  virtual Duration when(const std::string& key) = 0;
  // `key` succeeded: stop tracking it (its backoff starts over).
  virtual void forget(const std::string& key) = 0;
  // How many times when() was called for `key` since the last forget().
  virtual int num_requeues(const std::string& key) const = 0;
};

// The largest delay of several limiters; forget() reaches all of them, num_requeues() is the largest.
class MaxOfRateLimiter final : public RateLimiter {
 public:
  // Throws std::invalid_argument if `limiters` is empty or holds a null.
  explicit MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters);
  Duration when(const std::string& key) override;
  void forget(const std::string& key) override;
  int num_requeues(const std::string& key) const override;

 private:
  std::vector<std::unique_ptr<RateLimiter>> limiters_;
};

// client-go's DefaultTypedControllerRateLimiter: max of per-item exponential backoff (5 ms doubling up to
// 1000 s) and an overall token bucket (10 qps, burst 100).
std::unique_ptr<RateLimiter> default_controller_rate_limiter(std::shared_ptr<Clock> clock = nullptr);

}  // namespace capstan::workqueue
