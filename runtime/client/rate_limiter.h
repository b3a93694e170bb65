// Client-side request pacing: a token bucket of `burst` tokens refilled at `qps` per second,
// as client-go's flowcontrol.NewTokenBucketRateLimiter (golang.org/x/time/rate underneath).
#pragma once

#include <chrono>
#include <mutex>

namespace capstan::client {

class TokenBucket {
 public:
  // qps <= 0 = unlimited. burst < 1 is treated as 1.
  TokenBucket(double qps, int burst);

  // Takes a token, sleeping until one is available (callers are served in arrival order:
  // each reserves its slot before sleeping). Returns how long it waited.
  std::chrono::nanoseconds wait();
  // The same in two steps, for a caller that may give up: reserve() takes the token and says
  // how long to wait before using it; cancel_reservation() gives it back (golang.org/x/time/
  // rate's Reservation.Cancel, simplified: the token returns to the bucket).
  std::chrono::nanoseconds reserve();
  void cancel_reservation();
  // Takes a token only if one is available now.
  bool try_take();
  bool unlimited() const { return qps_ <= 0; }

 private:
  // Under mu_: tokens added since last_.
  void refill(std::chrono::steady_clock::time_point now);

  const double qps_;
  const double burst_;
  std::mutex mu_;
  double tokens_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace capstan::client
