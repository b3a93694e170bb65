#include "runtime/workqueue/item_exponential_rate_limiter.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace capstan::workqueue {

ItemExponentialFailureRateLimiter::ItemExponentialFailureRateLimiter(Duration base, Duration max)
    : base_(base), max_(max) {
  if (base < Duration::zero()) throw std::invalid_argument("workqueue: exponential rate limiter base must be >= 0");
  if (max < base) throw std::invalid_argument("workqueue: exponential rate limiter max must be >= base");
}

Duration ItemExponentialFailureRateLimiter::when(const std::string& key) {
  int exp;
  {
    std::lock_guard lock(mu_);
    int& failures = failures_[key];
    exp = failures;
    if (failures < std::numeric_limits<int>::max()) ++failures;
  }
  // In floating point, so a large exponent saturates instead of overflowing.
  double delay_ns = std::ldexp(static_cast<double>(base_.count()), exp);
  if (!(delay_ns < static_cast<double>(max_.count()))) return max_;
  return Duration(static_cast<Duration::rep>(delay_ns));
}

void ItemExponentialFailureRateLimiter::forget(const std::string& key) {
  std::lock_guard lock(mu_);
  failures_.erase(key);
}

int ItemExponentialFailureRateLimiter::num_requeues(const std::string& key) const {
  std::lock_guard lock(mu_);
  auto it = failures_.find(key);
  return it == failures_.end() ? 0 : it->second;
}

}  // namespace capstan::workqueue
