#include "runtime/meta/time.h"

#include <gtest/gtest.h>

namespace capstan::meta {
namespace {
using namespace std::chrono;

TEST(Time, Rfc3339RoundTrip) {
  auto t = parse_rfc3339("2026-12-02T14:55:53Z");
  ASSERT_TRUE(t);
  EXPECT_EQ(format_rfc3339(*t), "2026-12-02T14:55:53Z");
  auto off = parse_rfc3339("2026-12-02T16:55:53.250+02:00");
  ASSERT_TRUE(off);
  EXPECT_EQ(format_rfc3339(*off), "2026-12-02T14:55:53Z");
  EXPECT_EQ(format_rfc3339_micro(*off), "2026-12-02T14:55:53.250000Z");
  EXPECT_FALSE(parse_rfc3339("yesterday"));
}

TEST(Time, GoDurations) {
  EXPECT_EQ(parse_go_duration("2160h").value(), hours(2160));
  EXPECT_EQ(parse_go_duration("1h30m").value(), minutes(90));
  EXPECT_EQ(parse_go_duration("1.5s").value(), milliseconds(1500));
  EXPECT_EQ(parse_go_duration("0").value(), nanoseconds(0));
  EXPECT_FALSE(parse_go_duration("10 days"));
  EXPECT_FALSE(parse_go_duration("h"));
  EXPECT_EQ(format_go_duration(hours(2160)), "2160h0m0s");
  EXPECT_EQ(format_go_duration(seconds(90)), "1m30s");
  EXPECT_EQ(format_go_duration(milliseconds(500)), "500ms");
  EXPECT_EQ(format_go_duration(milliseconds(1500)), "1.5s");
}

TEST(Time, HumanDuration) {
  EXPECT_EQ(human_duration(seconds(5)), "5s");
  EXPECT_EQ(human_duration(seconds(192)), "3m12s");
  EXPECT_EQ(human_duration(minutes(45)), "45m");
  EXPECT_EQ(human_duration(hours(4)), "4h");
  EXPECT_EQ(human_duration(hours(51)), "2d3h");
  EXPECT_EQ(human_duration(hours(24 * 45)), "45d");
}

}  // namespace
}  // namespace capstan::meta
