// An overall token bucket shared by every item (golang.org/x/time/rate semantics, as client-go uses it).
#pragma once

#include <mutex>

#include "runtime/workqueue/rate_limiter.h"

namespace capstan::workqueue {

class BucketRateLimiter final : public RateLimiter {
 public:
  // The bucket starts full (`burst` tokens) and refills at `qps` tokens per second. Each when() reserves
  // one token: 0 while tokens remain, otherwise the time until its token exists, so the n-th call past the
  // burst (with no time elapsed) waits n/qps. Throws std::invalid_argument if qps <= 0 or burst < 1.
  explicit BucketRateLimiter(double qps = 10, int burst = 100, std::shared_ptr<Clock> clock = nullptr);
  Duration when(const std::string& key) override;
  void forget(const std::string& key) override {}
  int num_requeues(const std::string& key) const override { return 0; }

 private:
  double qps_;
  double burst_;
  std::shared_ptr<Clock> clock_;
  std::mutex mu_;
  double tokens_;  // may go negative: tokens already promised to callers that wait
  TimePoint last_;
};

}  // namespace capstan::workqueue
