// Durations and timestamps as CEL reads and prints them: duration('1h30m') takes Go's
// time.ParseDuration syntax, string(duration) prints protobuf JSON seconds ("5400s");
// timestamps are RFC 3339 in and out, limited to years 0001..9999 as google.protobuf.Timestamp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::cel {

// Nanoseconds, or nullopt with `error` set to the reason.
std::optional<std::int64_t> parse_duration(std::string_view s, std::string* error);
std::string format_duration(std::int64_t nanos);
std::optional<std::int64_t> parse_timestamp(std::string_view s, std::string* error);
std::string format_timestamp(std::int64_t nanos);
// Whether a timestamp lies within protobuf's 0001-01-01..9999-12-31 range.
bool timestamp_in_range(std::int64_t nanos);

}  // namespace capstan::cel
