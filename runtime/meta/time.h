// Kubernetes time and duration formats: RFC 3339 timestamps (metav1.Time) and Go's
// time.Duration strings ("2160h", "1h30m", "90s") used by cert-manager-style specs.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::meta {

using Clock = std::chrono::system_clock;
using TimePoint = Clock::time_point;

// "2026-12-02T14:55:53Z" (second precision, as metav1.Time serialises).
std::string format_rfc3339(TimePoint t);
// "2026-12-02T14:55:53.123456Z" (metav1.MicroTime, used by Leases and events.k8s.io).
std::string format_rfc3339_micro(TimePoint t);
// Accepts Z or +hh:mm offsets and optional fractional seconds.
std::optional<TimePoint> parse_rfc3339(std::string_view s);

// Parses Go durations: a sequence of decimal numbers with units ns, us, µs, ms, s, m, h.
std::optional<std::chrono::nanoseconds> parse_go_duration(std::string_view s);
// Formats like Go's Duration.String(): "2160h0m0s", "1m30s", "500ms".
std::string format_go_duration(std::chrono::nanoseconds d);

// A short human age like kubectl prints ("5s", "3m12s", "4h", "2d3h", "45d").
std::string human_duration(std::chrono::seconds d);

}  // namespace capstan::meta
