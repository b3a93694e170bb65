#include "runtime/metrics/process_collector.h"

#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/metrics/registry.h"

namespace capstan::metrics {
namespace {

std::optional<std::string> read_file(const char* path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::optional<std::uint64_t> to_u64(std::string_view s) {
  std::uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::vector<std::string_view> split_ws(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\n') ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::optional<double> boot_time_seconds() {
  auto text = read_file("/proc/stat");
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("btime ", 0) == 0) {
      if (auto v = to_u64(std::string_view(line).substr(6))) return static_cast<double>(*v);
    }
  }
  return std::nullopt;
}

std::optional<double> count_open_fds() {
  std::error_code ec;
  std::filesystem::directory_iterator it("/proc/self/fd", ec);
  if (ec) return std::nullopt;
  double n = 0;
  for (auto end = std::filesystem::directory_iterator(); it != end; it.increment(ec)) {
    if (ec) return std::nullopt;
    ++n;
  }
  return n;
}

}  // namespace

std::optional<ProcStat> parse_proc_stat(std::string_view text) {
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so fields start after the last ')'.
  auto close = text.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  auto f = split_ws(text.substr(close + 1));
  // f[0] is field 3 (state); utime=14, stime=15, starttime=22, vsize=23, rss=24.
  if (f.size() < 22) return std::nullopt;
  auto utime = to_u64(f[11]), stime = to_u64(f[12]), start = to_u64(f[19]), vsize = to_u64(f[20]);
  auto rss = to_u64(f[21]);
  if (!utime || !stime || !start || !vsize || !rss) return std::nullopt;
  return ProcStat{*utime, *stime, *start, *vsize, *rss};
}

std::optional<double> parse_max_open_files(std::string_view limits_text) {
  constexpr std::string_view key = "Max open files";
  auto pos = limits_text.find(key);
  if (pos == std::string_view::npos) return std::nullopt;
  auto eol = limits_text.find('\n', pos);
  auto fields = split_ws(limits_text.substr(pos + key.size(), eol == std::string_view::npos ? eol : eol - pos - key.size()));
  if (fields.empty()) return std::nullopt;
  if (fields[0] == "unlimited") return std::numeric_limits<double>::infinity();
  if (auto v = to_u64(fields[0])) return static_cast<double>(*v);
  return std::nullopt;
}

ProcessStats read_process_stats() {
  ProcessStats out;
  static const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  static const double page = static_cast<double>(sysconf(_SC_PAGESIZE));
  if (auto text = read_file("/proc/self/stat")) {
    if (auto st = parse_proc_stat(*text)) {
      out.cpu_seconds = static_cast<double>(st->utime_ticks + st->stime_ticks) / ticks;
      out.resident_memory_bytes = static_cast<double>(st->rss_pages) * page;
      out.virtual_memory_bytes = static_cast<double>(st->vsize_bytes);
      if (auto boot = boot_time_seconds()) out.start_time_seconds = *boot + static_cast<double>(st->start_ticks) / ticks;
    }
  }
  out.open_fds = count_open_fds();
  if (auto limits = read_file("/proc/self/limits")) out.max_fds = parse_max_open_files(*limits);
  return out;
}

void register_process_collector(Registry& registry) {
  if (registry.contains("process_start_time_seconds")) return;
  auto& cpu = registry.counter("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.").with({});
  auto& rss = registry.gauge("process_resident_memory_bytes", "Resident memory size in bytes.").with({});
  auto& vms = registry.gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.").with({});
  auto& open = registry.gauge("process_open_fds", "Number of open file descriptors.").with({});
  auto& max = registry.gauge("process_max_fds", "Maximum number of open file descriptors.").with({});
  auto& start = registry.gauge("process_start_time_seconds",
                               "Start time of the process since unix epoch in seconds.").with({});
  auto refresh = [&cpu, &rss, &vms, &open, &max] {
    ProcessStats s = read_process_stats();
    if (s.cpu_seconds) cpu.set_total(*s.cpu_seconds);
    if (s.resident_memory_bytes) rss.set(*s.resident_memory_bytes);
    if (s.virtual_memory_bytes) vms.set(*s.virtual_memory_bytes);
    if (s.open_fds) open.set(*s.open_fds);
    if (s.max_fds) max.set(*s.max_fds);
  };
  if (auto t = read_process_stats().start_time_seconds) start.set(*t);  // constant for the process
  registry.add_collect_callback(refresh);
}

}  // namespace capstan::metrics
