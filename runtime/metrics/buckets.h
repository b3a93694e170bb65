// Histogram bucket layouts (upper bounds, without the implicit +Inf bucket).
#pragma once

#include <string_view>
#include <vector>

namespace capstan::metrics {

// start, start*factor, start*factor^2, ... (count bounds). Throws std::invalid_argument unless
// count >= 1, start > 0 and factor > 1.
std::vector<double> exponential_buckets(double start, double factor, int count);
// start, start+width, ... (count bounds). Throws std::invalid_argument unless count >= 1 and width > 0.
std::vector<double> linear_buckets(double start, double width, int count);
// client_golang's DefBuckets: .005 .01 .025 .05 .1 .25 .5 1 2.5 5 10 (seconds).
std::vector<double> default_buckets();

// Checks that bounds are strictly increasing and not NaN; drops a trailing +Inf (it is implicit).
// Throws std::invalid_argument naming `metric` otherwise. An empty list becomes default_buckets().
std::vector<double> normalize_buckets(std::vector<double> bounds, std::string_view metric);

}  // namespace capstan::metrics
