#include "runtime/client/rate_limiter.h"

#include <algorithm>
#include <cstdint>
#include <thread>

namespace capstan::client {

TokenBucket::TokenBucket(double qps, int burst)
    : qps_(qps), burst_(std::max(1, burst)), tokens_(std::max(1, burst)), last_(std::chrono::steady_clock::now()) {}

void TokenBucket::refill(std::chrono::steady_clock::time_point now) {
  if (now <= last_) return;
  double elapsed = std::chrono::duration<double>(now - last_).count();
  tokens_ = std::min(burst_, tokens_ + elapsed * qps_);
  last_ = now;
}

std::chrono::nanoseconds TokenBucket::reserve() {
  if (unlimited()) return std::chrono::nanoseconds(0);
  std::lock_guard<std::mutex> lock(mu_);
  refill(std::chrono::steady_clock::now());
  tokens_ -= 1;  // reserve, possibly going into debt that later callers queue behind
  if (tokens_ >= 0) return std::chrono::nanoseconds(0);
  return std::chrono::nanoseconds(static_cast<std::int64_t>(-tokens_ / qps_ * 1e9));
}

void TokenBucket::cancel_reservation() {
  if (unlimited()) return;
  std::lock_guard<std::mutex> lock(mu_);
  refill(std::chrono::steady_clock::now());
  tokens_ = std::min(burst_, tokens_ + 1);
}

std::chrono::nanoseconds TokenBucket::wait() {
  auto delay = reserve();
  if (delay.count() > 0) std::this_thread::sleep_for(delay);
  return delay;
}

bool TokenBucket::try_take() {
  if (unlimited()) return true;
  std::lock_guard<std::mutex> lock(mu_);
  refill(std::chrono::steady_clock::now());
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

}  // namespace capstan::client
