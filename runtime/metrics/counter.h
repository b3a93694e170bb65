// A monotonically increasing value. Updates are lock-free.
#pragma once

#include <atomic>
#include <string>

#include "runtime/metrics/snapshot.h"

namespace capstan::metrics {

class Counter {
 public:
  explicit Counter(const std::string& family) : family_(&family) {}
  Counter(const Counter&) = delete;
  Counter& operator=(const Counter&) = delete;

  // Throws std::invalid_argument (naming the metric) if v is negative or NaN: counters never go down.
  void inc(double v = 1.0) {
    if (!(v >= 0)) throw_negative(v);
    value_.fetch_add(v, std::memory_order_relaxed);
  }
  double value() const noexcept { return value_.load(std::memory_order_relaxed); }

  // For collectors that mirror a total kept elsewhere (e.g. CPU seconds from /proc); not for counting.
  void set_total(double v) noexcept { value_.store(v, std::memory_order_relaxed); }

  void sample(SampleSnapshot& out) const { out.value = value(); }

 private:
  [[noreturn]] void throw_negative(double v) const;

  const std::string* family_;
  std::atomic<double> value_{0.0};
};

}  // namespace capstan::metrics
