#include "runtime/metrics/exposition.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "runtime/metrics/format.h"
#include "runtime/metrics/registry.h"

namespace capstan::metrics {
namespace {

TEST(Exposition, NumberFormattingMatchesGo) {
  EXPECT_EQ(format_value(0), "0");
  EXPECT_EQ(format_value(1), "1");
  EXPECT_EQ(format_value(-3), "-3");
  EXPECT_EQ(format_value(0.005), "0.005");
  EXPECT_EQ(format_value(0.0001), "0.0001");
  EXPECT_EQ(format_value(0.00001), "1e-05");
  EXPECT_EQ(format_value(1e-8), "1e-08");
  EXPECT_EQ(format_value(123456), "123456");
  EXPECT_EQ(format_value(1e6), "1e+06");
  EXPECT_EQ(format_value(1234567), "1.234567e+06");
  EXPECT_EQ(format_value(2.5), "2.5");
  EXPECT_EQ(format_value(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(format_value(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(format_value(-std::numeric_limits<double>::infinity()), "-Inf");
  EXPECT_EQ(format_value(std::nan("")), "NaN");
}

TEST(Exposition, Escaping) {
  std::string out;
  append_escaped_label_value(out, "a\\b\"c\nd");
  EXPECT_EQ(out, R"(a\\b\"c\nd)");
  out.clear();
  append_escaped_help(out, "line1\nback\\slash \"quotes stay\"");
  EXPECT_EQ(out, R"(line1\nback\\slash "quotes stay")");
}

TEST(Exposition, RendersEveryType) {
  Registry r;
  auto& c = r.counter("capstan_things_total", "Things done.\nSecond line with \\.", {"zone", "kind"});
  c.with({"z1", "a"}).inc(3);
  c.with({"z0", "quote\"back\\slash\nnl"}).inc();
  r.gauge("capstan_up", "Up.").with({}).set(1);
  auto& h = r.histogram("capstan_op_seconds", "Op latency.", {"op"}, {0.1, 1});
  h.with({"get"}).observe(0.05);
  h.with({"get"}).observe(0.5);
  h.with({"get"}).observe(5);
  r.gauge("capstan_no_help", "").with({}).set(-std::numeric_limits<double>::infinity());
  r.gauge("capstan_empty_family", "Never used.", {"x"});  // no children -> not rendered

  const std::string expected =
      "# TYPE capstan_no_help gauge\n"
      "capstan_no_help -Inf\n"
      "# HELP capstan_op_seconds Op latency.\n"
      "# TYPE capstan_op_seconds histogram\n"
      "capstan_op_seconds_bucket{op=\"get\",le=\"0.1\"} 1\n"
      "capstan_op_seconds_bucket{op=\"get\",le=\"1\"} 2\n"
      "capstan_op_seconds_bucket{op=\"get\",le=\"+Inf\"} 3\n"
      "capstan_op_seconds_sum{op=\"get\"} 5.55\n"
      "capstan_op_seconds_count{op=\"get\"} 3\n"
      "# HELP capstan_things_total Things done.\\nSecond line with \\\\.\n"
      "# TYPE capstan_things_total counter\n"
      "capstan_things_total{kind=\"a\",zone=\"z1\"} 3\n"
      "capstan_things_total{kind=\"quote\\\"back\\\\slash\\nnl\",zone=\"z0\"} 1\n"
      "# HELP capstan_up Up.\n"
      "# TYPE capstan_up gauge\n"
      "capstan_up 1\n";
  EXPECT_EQ(render(r), expected);
  EXPECT_EQ(kContentType, "text/plain; version=0.0.4; charset=utf-8");
}

TEST(Exposition, HistogramWithoutLabels) {
  Registry r;
  auto& h = r.histogram("plain_seconds", "P.", {}, {1}).with({});
  h.observe(1);  // the bound is inclusive
  EXPECT_EQ(render(r),
            "# HELP plain_seconds P.\n"
            "# TYPE plain_seconds histogram\n"
            "plain_seconds_bucket{le=\"1\"} 1\n"
            "plain_seconds_bucket{le=\"+Inf\"} 1\n"
            "plain_seconds_sum 1\n"
            "plain_seconds_count 1\n");
}

}  // namespace
}  // namespace capstan::metrics
