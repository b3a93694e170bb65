#include "apiserver/typed/special.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::typed {
namespace {

TEST(TypedSpecial, TimeParseErrorsAsGoWordsThem) {
  EXPECT_EQ(time_parse_error(kRFC3339, "2024-05-01T10:00:00Z"), std::nullopt);
  EXPECT_EQ(time_parse_error(kRFC3339, "2024-05-01T10:00:00.123+02:00"), std::nullopt);
  EXPECT_EQ(time_parse_error(kRFC3339, "yesterday"),
            "parsing time \"yesterday\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"yesterday\" as \"2006\"");
  EXPECT_EQ(time_parse_error(kRFC3339, "2024/05/01"),
            "parsing time \"2024/05/01\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"/05/01\" as \"-\"");
  EXPECT_EQ(time_parse_error(kRFC3339, "2024-13-01T00:00:00Z"), "parsing time \"2024-13-01T00:00:00Z\": month out of range");
  EXPECT_EQ(time_parse_error(kRFC3339, "2024-02-30T00:00:00Z"), "parsing time \"2024-02-30T00:00:00Z\": day out of range");
  EXPECT_EQ(time_parse_error(kRFC3339, "2024-05-01T10:00:00"),
            "parsing time \"2024-05-01T10:00:00\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\" as \"Z07:00\"");
  EXPECT_EQ(time_parse_error(kRFC3339, "2024-05-01T10:00:00Zx"), "parsing time \"2024-05-01T10:00:00Zx\": extra text: \"x\"");
  EXPECT_EQ(time_parse_error(kRFC3339Micro, "2024-05-01T10:00:00.000001Z"), std::nullopt);
  EXPECT_EQ(time_parse_error(kRFC3339Micro, "2024-05-01T10:00:00Z"),
            "parsing time \"2024-05-01T10:00:00Z\" as \"2006-01-02T15:04:05.000000Z07:00\": cannot parse \"Z\" as \".000000\"");
}

TEST(TypedSpecial, Quantities) {
  for (auto ok : {"1", "500m", "1Gi", "1.5", "-2", "+3k", "1e3", "1E-2", "0.5Ei", ".5", "1."})
    EXPECT_EQ(quantity_parse_error(ok), std::nullopt) << ok;
  EXPECT_EQ(quantity_parse_error("1Mm"), "unable to parse quantity's suffix");
  EXPECT_EQ(quantity_parse_error("1 Gi"),
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  EXPECT_EQ(quantity_parse_error(""),
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
}

TEST(TypedSpecial, DurationsAndBase64) {
  EXPECT_EQ(duration_parse_error("1h30m"), std::nullopt);
  EXPECT_EQ(duration_parse_error("90"), "time: missing unit in duration \"90\"");
  EXPECT_EQ(duration_parse_error("soon"), "time: invalid duration \"soon\"");
  EXPECT_EQ(base64_error("aGVsbG8="), std::nullopt);
  EXPECT_EQ(base64_error("aGVs\nbG8="), std::nullopt);
  EXPECT_EQ(base64_error("aGV*"), "illegal base64 data at input byte 3");
  EXPECT_EQ(base64_error("a=bc"), "illegal base64 data at input byte 1");
}

}  // namespace
}  // namespace capstan::apiserver::typed
