// A point-in-time copy of metric values: what collection produces and the exposition renders.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace capstan::metrics {

enum class MetricType { Counter, Gauge, Histogram };
const char* type_name(MetricType type) noexcept;  // "counter" | "gauge" | "histogram"

struct SampleSnapshot {
  std::vector<std::string> label_values;  // same order as FamilySnapshot::label_names
  double value = 0;                       // counter / gauge
  // Histogram only: cumulative counts per bound (same order as FamilySnapshot::buckets), then sum and count
  // (count is the +Inf bucket).
  std::vector<std::uint64_t> cumulative_counts;
  double sum = 0;
  std::uint64_t count = 0;
};

struct FamilySnapshot {
  std::string name;
  std::string help;
  MetricType type = MetricType::Gauge;
  std::vector<std::string> label_names;
  std::vector<double> buckets;          // histogram upper bounds, +Inf implicit
  std::vector<SampleSnapshot> samples;  // sorted by label values
};

}  // namespace capstan::metrics
