// Feeds our rendering to the real `promtool check metrics` (Debian package prometheus).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "runtime/metrics/exposition.h"
#include "runtime/metrics/process_collector.h"
#include "runtime/metrics/registry.h"

namespace capstan::metrics {
namespace {

struct RunResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

std::string find_promtool() {
  if (::access("/usr/bin/promtool", X_OK) == 0) return "/usr/bin/promtool";
  return {};
}

// Writes `text` to a temp file and runs promtool with it on stdin.
RunResult promtool_check(const std::string& promtool, const std::string& text, const std::string& tag) {
  auto path = std::filesystem::temp_directory_path() /
              ("capstan-metrics-" + tag + "-" + std::to_string(::getpid()) + ".prom");
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  std::string cmd = promtool + " check metrics < " + path.string() + " 2>&1";
  RunResult r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::filesystem::remove(path);
  return r;
}

std::string rendering_with_every_type() {
  Registry r;
  auto& c = r.counter("capstan_reconcile_total", "Reconciles by result.\nMulti-line \\ help.", {"controller", "result"});
  c.with({"certificate", "success"}).inc(41);
  c.with({"weird\"name\\with\nnewline", "error"}).inc();
  auto& g = r.gauge("capstan_queue_items", "Items waiting.", {"queue"});
  g.with({"a"}).set(3);
  g.with({"b"}).set(-std::numeric_limits<double>::infinity());
  g.with({"c"}).set(std::numeric_limits<double>::quiet_NaN());
  r.gauge("capstan_build_info", "Build information.", {"version"}).with({"0.1.0"}).set(1);
  auto& h = r.histogram("capstan_op_duration_seconds", "Operation latency.", {"op"}, exponential_buckets(1e-8, 10, 12));
  for (double v : {1e-9, 2e-6, 0.003, 0.5, 12.0, 5000.0}) h.with({"get"}).observe(v);
  h.with({"list"}).observe(0.25);
  r.histogram("capstan_plain_seconds", "No labels.").with({}).observe(0.2);
  register_process_collector(r);
  return render(r);
}

TEST(ExpositionPromtool, AcceptsOurRendering) {
  std::string promtool = find_promtool();
  ASSERT_FALSE(promtool.empty())
      << "promtool not found at /usr/bin/promtool: install the Debian package 'prometheus' (scripts/deps.sh does)";
  std::string text = rendering_with_every_type();
  ASSERT_NE(text.find("le=\"+Inf\""), std::string::npos);
  ASSERT_NE(text.find("process_open_fds"), std::string::npos);
  RunResult r = promtool_check(promtool, text, "good");
  EXPECT_EQ(r.exit_code, 0) << "promtool output:\n" << r.output << "\ninput:\n" << text;
  EXPECT_EQ(r.output, "") << "promtool complained:\n" << r.output << "\ninput:\n" << text;
}

TEST(ExpositionPromtool, RejectsMalformedText) {
  std::string promtool = find_promtool();
  ASSERT_FALSE(promtool.empty())
      << "promtool not found at /usr/bin/promtool: install the Debian package 'prometheus' (scripts/deps.sh does)";
  // Unescaped quote inside a label value, and a counter lacking _total / help: promtool must object.
  RunResult bad = promtool_check(promtool, "# TYPE broken counter\nbroken{a=\"x\"y\"} 1\n", "bad");
  EXPECT_NE(bad.exit_code, 0) << bad.output;
  EXPECT_NE(bad.output, "");
  RunResult lint = promtool_check(promtool, "# TYPE requests counter\nrequests 1\n", "lint");
  EXPECT_NE(lint.exit_code, 0) << lint.output;
  EXPECT_NE(lint.output.find("_total"), std::string::npos) << lint.output;
}

}  // namespace
}  // namespace capstan::metrics
