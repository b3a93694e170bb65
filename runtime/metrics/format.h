// Text-format primitives: number formatting and escaping, as the Prometheus text format 0.0.4 expects.
#pragma once

#include <string>
#include <string_view>

namespace capstan::metrics {

// Shortest round-trip decimal, chosen like Go's strconv.FormatFloat(v, 'g', -1, 64) (what client_golang
// writes, so `le` label values match other exporters): "0.005", "1e-08", "1e+06", "+Inf", "-Inf", "NaN".
std::string format_value(double v);

// Label values: backslash, double quote and line feed are escaped.
void append_escaped_label_value(std::string& out, std::string_view value);
// HELP text: backslash and line feed are escaped.
void append_escaped_help(std::string& out, std::string_view help);

}  // namespace capstan::metrics
