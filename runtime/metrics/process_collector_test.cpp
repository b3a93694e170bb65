#include "runtime/metrics/process_collector.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>

#include "runtime/metrics/registry.h"

namespace capstan::metrics {
namespace {

double value_of(const std::vector<FamilySnapshot>& all, const std::string& name) {
  for (const auto& f : all) {
    if (f.name == name && !f.samples.empty()) return f.samples[0].value;
  }
  ADD_FAILURE() << "missing " << name;
  return std::nan("");
}

TEST(MetricsProcessCollector, ParsesProcStat) {
  // comm with spaces and a ')' inside.
  const char* stat =
      "1234 (my (odd) proc) S 1 1234 1234 0 -1 4194560 500 0 0 0 250 50 0 0 20 0 4 0 987654 104857600 2560 "
      "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
  auto st = parse_proc_stat(stat);
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->utime_ticks, 250u);
  EXPECT_EQ(st->stime_ticks, 50u);
  EXPECT_EQ(st->start_ticks, 987654u);
  EXPECT_EQ(st->vsize_bytes, 104857600u);
  EXPECT_EQ(st->rss_pages, 2560u);
  EXPECT_FALSE(parse_proc_stat("garbage").has_value());
  EXPECT_FALSE(parse_proc_stat("1 (x) S 1 2").has_value());
}

TEST(MetricsProcessCollector, ParsesLimits) {
  const char* limits =
      "Limit                     Soft Limit           Hard Limit           Units     \n"
      "Max processes             63325                63325                processes \n"
      "Max open files            1024                 1048576              files     \n";
  EXPECT_EQ(parse_max_open_files(limits), 1024.0);
  EXPECT_TRUE(std::isinf(*parse_max_open_files("Max open files            unlimited  unlimited  files\n")));
  EXPECT_FALSE(parse_max_open_files("nothing here").has_value());
}

TEST(MetricsProcessCollector, ExportsLiveValues) {
  Registry r;
  register_process_collector(r);
  register_process_collector(r);  // idempotent
  auto before = r.collect();
  double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  double start = value_of(before, "process_start_time_seconds");
  EXPECT_LE(start, now + 1);
  EXPECT_GT(start, now - 86400 * 365);
  EXPECT_GT(value_of(before, "process_resident_memory_bytes"), 0);
  EXPECT_GE(value_of(before, "process_virtual_memory_bytes"), value_of(before, "process_resident_memory_bytes"));
  EXPECT_GE(value_of(before, "process_cpu_seconds_total"), 0);
  double open_before = value_of(before, "process_open_fds");
  EXPECT_GE(open_before, 3);
  EXPECT_GE(value_of(before, "process_max_fds"), open_before);

  int fds[4];
  for (int& fd : fds) fd = ::open("/dev/null", O_RDONLY);
  double open_after = value_of(r.collect(), "process_open_fds");
  for (int fd : fds) ::close(fd);
  EXPECT_EQ(open_after, open_before + 4);
}

}  // namespace
}  // namespace capstan::metrics
