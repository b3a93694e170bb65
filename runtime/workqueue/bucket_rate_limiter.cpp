#include "runtime/workqueue/bucket_rate_limiter.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace capstan::workqueue {

BucketRateLimiter::BucketRateLimiter(double qps, int burst, std::shared_ptr<Clock> clock)
    : qps_(qps), burst_(burst), clock_(clock ? std::move(clock) : real_clock()), tokens_(burst), last_(clock_->now()) {
  if (!(qps > 0) || std::isinf(qps)) throw std::invalid_argument("workqueue: bucket rate limiter qps must be > 0 and finite");
  if (burst < 1) throw std::invalid_argument("workqueue: bucket rate limiter burst must be >= 1");
}

Duration BucketRateLimiter::when(const std::string& /*key*/) {
  std::lock_guard lock(mu_);
  TimePoint now = clock_->now();
  if (now > last_) {
    double elapsed = std::chrono::duration<double>(now - last_).count();
    tokens_ = std::min(burst_, tokens_ + elapsed * qps_);
    last_ = now;
  }
  tokens_ -= 1;
  if (tokens_ >= 0) return Duration::zero();
  return Duration(std::llround(-tokens_ / qps_ * 1e9));
}

}  // namespace capstan::workqueue
