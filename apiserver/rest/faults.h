// Fault injection for reliability tests: failing a fraction of requests with 429 or 500,
// added latency, and (through WatchHub/Store) dropped watches and a shrunken watch window.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <random>

namespace capstan::apiserver::rest {

struct Faults {
  std::atomic<double> rate_429{0};
  std::atomic<double> rate_500{0};
  std::atomic<long long> latency_ms{0};
  std::atomic<int> retry_after_seconds{1};

  // Which failure (if any) this request gets: 429, 500 or 0.
  int roll() {
    double a = rate_429.load(), b = rate_500.load();
    if (a <= 0 && b <= 0) return 0;
    double x;
    {
      std::lock_guard<std::mutex> l(mu_);
      x = std::uniform_real_distribution<double>(0, 1)(rng_);
    }
    if (x < a) return 429;
    if (x < a + b) return 500;
    return 0;
  }

 private:
  std::mutex mu_;
  std::mt19937_64 rng_{std::random_device{}()};
};

}  // namespace capstan::apiserver::rest
