// Numbers and durations as Prometheus 2.42 reads them: a number token goes through Go's
// strconv.ParseInt(s, 0, 64) then strconv.ParseFloat(s, 64); a duration through
// prometheus/common's model.ParseDuration ("1h30m", units y w d h m s ms in that order).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::promql {

// The value of a number token, or nullopt with `error` set to Go's words
// (`strconv.ParseFloat: parsing "1e": invalid syntax`).
std::optional<double> parse_number(std::string_view text, std::string* error);

// model.ParseDuration in milliseconds: "0" is allowed; errors are `not a valid duration string:
// "1m1h"`, `duration out of range`, `empty duration string`.
std::optional<std::int64_t> parse_duration(std::string_view text, std::string* error);
// model.Duration.String(): "1h30m", "5m", "0s", "1y2w".
std::string format_duration(std::int64_t ms);

// fmt's %f (six decimals; +Inf, -Inf, NaN as Go prints them).
std::string go_format_f(double v);
// strconv.FormatFloat(v, 'f', -1, 64)-like shortest form used to print number literals.
std::string format_number(double v);

}  // namespace capstan::promql
