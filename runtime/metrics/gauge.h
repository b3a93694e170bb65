// A value that goes up and down. Updates are lock-free.
#pragma once

#include <atomic>
#include <string>

#include "runtime/metrics/snapshot.h"

namespace capstan::metrics {

class Gauge {
 public:
  explicit Gauge(const std::string& /*family*/) {}
  Gauge(const Gauge&) = delete;
  Gauge& operator=(const Gauge&) = delete;

  void set(double v) noexcept { value_.store(v, std::memory_order_relaxed); }
  void inc(double v = 1.0) noexcept { value_.fetch_add(v, std::memory_order_relaxed); }
  void dec(double v = 1.0) noexcept { value_.fetch_sub(v, std::memory_order_relaxed); }
  // Unix time in seconds (wall clock), with sub-second precision.
  void set_to_current_time() noexcept;
  double value() const noexcept { return value_.load(std::memory_order_relaxed); }

  void sample(SampleSnapshot& out) const { out.value = value(); }

 private:
  std::atomic<double> value_{0.0};
};

}  // namespace capstan::metrics
