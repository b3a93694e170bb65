// Out-of-line parts of Counter, Gauge and Histogram.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "runtime/metrics/counter.h"
#include "runtime/metrics/format.h"
#include "runtime/metrics/gauge.h"
#include "runtime/metrics/histogram.h"

namespace capstan::metrics {

const char* type_name(MetricType type) noexcept {
  switch (type) {
    case MetricType::Counter: return "counter";
    case MetricType::Gauge: return "gauge";
    case MetricType::Histogram: return "histogram";
  }
  return "untyped";
}

void Counter::throw_negative(double v) const {
  throw std::invalid_argument("metrics: counter \"" + *family_ + "\" cannot decrease (inc by " + format_value(v) + ")");
}

void Gauge::set_to_current_time() noexcept {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  set(std::chrono::duration<double>(now).count());
}

Histogram::Histogram(const std::string& /*family*/, std::shared_ptr<const std::vector<double>> bounds)
    : bounds_(std::move(bounds)), counts_(new std::atomic<std::uint64_t>[bounds_->size() + 1]) {
  for (std::size_t i = 0; i <= bounds_->size(); ++i) counts_[i].store(0, std::memory_order_relaxed);
}

void Histogram::observe(double v) noexcept {
  // First bound >= v (bucket upper bounds are inclusive: le="0.5" counts 0.5). NaN lands above every bound.
  const auto& b = *bounds_;
  std::size_t i = std::isnan(v) ? b.size()
                                : static_cast<std::size_t>(std::lower_bound(b.begin(), b.end(), v) - b.begin());
  counts_[i].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(v, std::memory_order_relaxed);
}

std::uint64_t Histogram::count() const noexcept {
  std::uint64_t total = 0;
  for (std::size_t i = 0; i <= bounds_->size(); ++i) total += counts_[i].load(std::memory_order_relaxed);
  return total;
}

void Histogram::sample(SampleSnapshot& out) const {
  out.cumulative_counts.resize(bounds_->size());
  std::uint64_t running = 0;
  for (std::size_t i = 0; i < bounds_->size(); ++i) {
    running += counts_[i].load(std::memory_order_relaxed);
    out.cumulative_counts[i] = running;
  }
  running += counts_[bounds_->size()].load(std::memory_order_relaxed);
  out.count = running;
  out.sum = sum();
}

}  // namespace capstan::metrics
