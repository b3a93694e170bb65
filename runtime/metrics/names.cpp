#include "runtime/metrics/names.h"

#include <stdexcept>
#include <string>

namespace capstan::metrics {
namespace {

bool is_alpha_or_underscore(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool is_valid_metric_name(std::string_view name) noexcept {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool ok = is_alpha_or_underscore(c) || c == ':' || (i > 0 && is_digit(c));
    if (!ok) return false;
  }
  return true;
}

bool is_valid_label_name(std::string_view name) noexcept {
  if (name.empty() || name.substr(0, 2) == "__") return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (!(is_alpha_or_underscore(c) || (i > 0 && is_digit(c)))) return false;
  }
  return true;
}

void validate_metric_name(std::string_view name) {
  if (!is_valid_metric_name(name)) {
    throw std::invalid_argument("metrics: invalid metric name \"" + std::string(name) +
                                "\" (must match [a-zA-Z_:][a-zA-Z0-9_:]*)");
  }
}

void validate_label_name(std::string_view label, std::string_view metric) {
  if (!is_valid_label_name(label)) {
    throw std::invalid_argument("metrics: invalid label name \"" + std::string(label) + "\" for metric \"" +
                                std::string(metric) +
                                "\" (must match [a-zA-Z_][a-zA-Z0-9_]* and not start with \"__\")");
  }
}

}  // namespace capstan::metrics
