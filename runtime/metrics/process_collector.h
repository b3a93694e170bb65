// The standard process_* metrics (as client_golang's process collector exports them), read from /proc.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace capstan::metrics {

class Registry;

// Registers process_cpu_seconds_total, process_resident_memory_bytes, process_virtual_memory_bytes,
// process_open_fds, process_max_fds and process_start_time_seconds, refreshed on every collect().
// Calling it again for the same registry does nothing.
void register_process_collector(Registry& registry);

// One reading of /proc/self (exposed for tests and for health endpoints). Fields are empty when the
// corresponding /proc file could not be read or parsed.
struct ProcessStats {
  std::optional<double> cpu_seconds;
  std::optional<double> resident_memory_bytes;
  std::optional<double> virtual_memory_bytes;
  std::optional<double> open_fds;
  std::optional<double> max_fds;  // soft limit; +Inf when unlimited
  std::optional<double> start_time_seconds;  // Unix time
};
ProcessStats read_process_stats();

// Parses the contents of /proc/<pid>/stat (the part that matters: utime, stime, starttime, vsize, rss).
struct ProcStat {
  std::uint64_t utime_ticks = 0;
  std::uint64_t stime_ticks = 0;
  std::uint64_t start_ticks = 0;  // since boot
  std::uint64_t vsize_bytes = 0;
  std::uint64_t rss_pages = 0;
};
std::optional<ProcStat> parse_proc_stat(std::string_view text);
// "Max open files" soft limit from /proc/<pid>/limits; +Inf for "unlimited".
std::optional<double> parse_max_open_files(std::string_view limits_text);

}  // namespace capstan::metrics
