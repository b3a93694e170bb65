// Prometheus metric and label name rules.
#pragma once

#include <string_view>

namespace capstan::metrics {

// [a-zA-Z_:][a-zA-Z0-9_:]*
bool is_valid_metric_name(std::string_view name) noexcept;
// [a-zA-Z_][a-zA-Z0-9_]* and not starting with "__" (reserved for Prometheus itself).
bool is_valid_label_name(std::string_view name) noexcept;

// Throw std::invalid_argument naming the offending name (and `context`, e.g. the metric it belongs to).
void validate_metric_name(std::string_view name);
void validate_label_name(std::string_view label, std::string_view metric);

}  // namespace capstan::metrics
