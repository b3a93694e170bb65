// The queue controllers use: a DelayingQueue plus a RateLimiter deciding each retry's delay.
//
//   RateLimitingQueue q({.name = "certificate"});
//   while (auto key = q.get()) {
//     if (reconcile(*key)) q.forget(*key); else q.add_rate_limited(*key);
//     q.done(*key);
//   }
#pragma once

#include <memory>
#include <string>

#include "runtime/workqueue/delaying_queue.h"
#include "runtime/workqueue/rate_limiter.h"

namespace capstan::workqueue {

class RateLimitingQueue final : public DelayingQueue {
 public:
  // `limiter` nullptr means default_controller_rate_limiter() on the queue's clock.
  explicit RateLimitingQueue(QueueConfig config = {}, std::unique_ptr<RateLimiter> limiter = nullptr);

  // add_after(key, limiter.when(key)): the key's next backoff step.
  void add_rate_limited(const std::string& key);
  // The key succeeded: its backoff starts over. It does not remove the key from the queue.
  void forget(const std::string& key);
  int num_requeues(const std::string& key) const;

 private:
  std::unique_ptr<RateLimiter> limiter_;
};

}  // namespace capstan::workqueue
