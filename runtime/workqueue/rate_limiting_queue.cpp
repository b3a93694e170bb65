#include "runtime/workqueue/rate_limiting_queue.h"

namespace capstan::workqueue {

RateLimitingQueue::RateLimitingQueue(QueueConfig config, std::unique_ptr<RateLimiter> limiter)
    : DelayingQueue(std::move(config)),
      limiter_(limiter ? std::move(limiter) : default_controller_rate_limiter(clock_ptr())) {}

void RateLimitingQueue::add_rate_limited(const std::string& key) { add_after(key, limiter_->when(key)); }

void RateLimitingQueue::forget(const std::string& key) { limiter_->forget(key); }

int RateLimitingQueue::num_requeues(const std::string& key) const { return limiter_->num_requeues(key); }

}  // namespace capstan::workqueue
