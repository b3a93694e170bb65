#include "runtime/workqueue/rate_limiter.h"

#include <algorithm>
#include <stdexcept>

#include "runtime/workqueue/bucket_rate_limiter.h"
#include "runtime/workqueue/item_exponential_rate_limiter.h"

namespace capstan::workqueue {

MaxOfRateLimiter::MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters) : limiters_(std::move(limiters)) {
  if (limiters_.empty()) throw std::invalid_argument("workqueue: MaxOfRateLimiter needs at least one limiter");
  for (const auto& l : limiters_) {
    if (!l) throw std::invalid_argument("workqueue: MaxOfRateLimiter was given a null limiter");
  }
}

Duration MaxOfRateLimiter::when(const std::string& key) {
  Duration longest = Duration::zero();
  for (auto& l : limiters_) longest = std::max(longest, l->when(key));  // every limiter records the attempt
  return longest;
}

void MaxOfRateLimiter::forget(const std::string& key) {
  for (auto& l : limiters_) l->forget(key);
}

int MaxOfRateLimiter::num_requeues(const std::string& key) const {
  int most = 0;
  for (const auto& l : limiters_) most = std::max(most, l->num_requeues(key));
  return most;
}

std::unique_ptr<RateLimiter> default_controller_rate_limiter(std::shared_ptr<Clock> clock) {
  std::vector<std::unique_ptr<RateLimiter>> limiters;
  limiters.push_back(std::make_unique<ItemExponentialFailureRateLimiter>(std::chrono::milliseconds(5),
                                                                         std::chrono::seconds(1000)));
  limiters.push_back(std::make_unique<BucketRateLimiter>(10, 100, std::move(clock)));
  return std::make_unique<MaxOfRateLimiter>(std::move(limiters));
}

}  // namespace capstan::workqueue
