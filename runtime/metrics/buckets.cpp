#include "runtime/metrics/buckets.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "runtime/metrics/format.h"

namespace capstan::metrics {

std::vector<double> exponential_buckets(double start, double factor, int count) {
  if (count < 1) throw std::invalid_argument("metrics: exponential_buckets needs count >= 1, got " + std::to_string(count));
  if (!(start > 0)) throw std::invalid_argument("metrics: exponential_buckets needs start > 0, got " + format_value(start));
  if (!(factor > 1)) throw std::invalid_argument("metrics: exponential_buckets needs factor > 1, got " + format_value(factor));
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(count));
  double v = start;
  for (int i = 0; i < count; ++i) {
    out.push_back(v);
    v *= factor;
  }
  return out;
}

std::vector<double> linear_buckets(double start, double width, int count) {
  if (count < 1) throw std::invalid_argument("metrics: linear_buckets needs count >= 1, got " + std::to_string(count));
  if (!(width > 0)) throw std::invalid_argument("metrics: linear_buckets needs width > 0, got " + format_value(width));
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) out.push_back(start + width * i);
  return out;
}

std::vector<double> default_buckets() { return {.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}; }

std::vector<double> normalize_buckets(std::vector<double> bounds, std::string_view metric) {
  if (bounds.empty()) return default_buckets();
  if (std::isinf(bounds.back()) && bounds.back() > 0) bounds.pop_back();
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    if (std::isnan(bounds[i])) {
      throw std::invalid_argument("metrics: histogram \"" + std::string(metric) + "\" has a NaN bucket bound");
    }
    if (i > 0 && !(bounds[i] > bounds[i - 1])) {
      throw std::invalid_argument("metrics: histogram \"" + std::string(metric) +
                                  "\" bucket bounds must be strictly increasing, got " + format_value(bounds[i - 1]) +
                                  " then " + format_value(bounds[i]));
    }
  }
  return bounds;
}

}  // namespace capstan::metrics
