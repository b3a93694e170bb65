// Counts observations into cumulative buckets, plus their sum. Observations are lock-free.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/metrics/snapshot.h"

namespace capstan::metrics {

class Histogram {
 public:
  // `bounds` are strictly increasing upper bounds (see normalize_buckets), shared by a family's children.
  Histogram(const std::string& family, std::shared_ptr<const std::vector<double>> bounds);
  Histogram(const Histogram&) = delete;
  Histogram& operator=(const Histogram&) = delete;

  void observe(double v) noexcept;
  template <typename Rep, typename Period>
  void observe(std::chrono::duration<Rep, Period> d) noexcept {
    observe(std::chrono::duration<double>(d).count());
  }

  const std::vector<double>& bounds() const noexcept { return *bounds_; }
  // Cumulative counts (one per bound), sum and count. count equals the +Inf bucket.
  void sample(SampleSnapshot& out) const;
  std::uint64_t count() const noexcept;
  double sum() const noexcept { return sum_.load(std::memory_order_relaxed); }

 private:
  std::shared_ptr<const std::vector<double>> bounds_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> counts_;  // bounds_->size() + 1 (last = above every bound)
  std::atomic<double> sum_{0.0};
};

}  // namespace capstan::metrics
