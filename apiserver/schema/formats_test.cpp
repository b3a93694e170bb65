#include "apiserver/schema/formats.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::schema {
namespace {

bool ok(std::string_view format, std::string_view v) { return format_valid(effective_format(format), v); }

TEST(SchemaFormats, OnlySupportedFormatsAreKept) {
  EXPECT_EQ(effective_format("date-time"), "date-time");
  EXPECT_EQ(effective_format("int32"), "");
  EXPECT_EQ(effective_format("int64"), "");
  EXPECT_EQ(effective_format("double"), "");
  EXPECT_EQ(effective_format("int-or-string"), "");
  EXPECT_EQ(effective_format("byte"), "byte");
  EXPECT_TRUE(ok("int32", "not checked"));
}

TEST(SchemaFormats, DatesAndDurations) {
  EXPECT_TRUE(ok("date", "2024-02-29"));
  EXPECT_FALSE(ok("date", "2023-02-29"));
  EXPECT_FALSE(ok("date", "2024-1-01"));
  EXPECT_TRUE(ok("date-time", "2024-05-01T10:00:00Z"));
  EXPECT_TRUE(ok("date-time", "2024-05-01t10:00:00.123+02:00"));
  EXPECT_FALSE(ok("date-time", "2024-05-01T25:00:00Z"));
  EXPECT_FALSE(ok("date-time", "2024-05-01 10:00:00Z"));
  EXPECT_TRUE(ok("duration", "1h30m"));
  EXPECT_TRUE(ok("duration", "2160h"));
  EXPECT_TRUE(ok("duration", "-1.5s"));
  EXPECT_TRUE(ok("duration", "3 days"));
  EXPECT_TRUE(ok("duration", "0"));
  EXPECT_FALSE(ok("duration", "soon"));
  EXPECT_FALSE(ok("duration", ""));
}

TEST(SchemaFormats, NetworkFormats) {
  EXPECT_TRUE(ok("ipv4", "10.0.0.1"));
  EXPECT_TRUE(ok("ipv4", "010.000.000.001"));  // leading zeros allowed (ParseIPSloppy)
  EXPECT_FALSE(ok("ipv4", "10.0.0.256"));
  EXPECT_FALSE(ok("ipv4", "::1"));
  EXPECT_TRUE(ok("ipv6", "::1"));
  EXPECT_TRUE(ok("ipv6", "2001:db8::8a2e:370:7334"));
  EXPECT_TRUE(ok("ipv6", "::ffff:10.0.0.1"));
  EXPECT_FALSE(ok("ipv6", "2001:db8:::1"));
  EXPECT_FALSE(ok("ipv6", "10.0.0.1"));
  EXPECT_TRUE(ok("cidr", "10.0.0.0/8"));
  EXPECT_TRUE(ok("cidr", "fd00::/64"));
  EXPECT_FALSE(ok("cidr", "10.0.0.0/33"));
  EXPECT_FALSE(ok("cidr", "10.0.0.0"));
  EXPECT_TRUE(ok("mac", "00:1a:2b:3c:4d:5e"));
  EXPECT_TRUE(ok("mac", "001a.2b3c.4d5e"));
  EXPECT_FALSE(ok("mac", "00:1a:2b:3c:4d"));
  EXPECT_TRUE(ok("hostname", "example.com"));
  EXPECT_TRUE(ok("hostname", "localhost"));
  EXPECT_FALSE(ok("hostname", "-bad.example.com"));
  EXPECT_FALSE(ok("hostname", "exa mple.com"));
  EXPECT_TRUE(ok("uri", "https://example.com/path?q=1"));
  EXPECT_TRUE(ok("uri", "/relative/abs/path"));
  EXPECT_FALSE(ok("uri", "example.com"));
  EXPECT_FALSE(ok("uri", "mailto:a@b"));
  EXPECT_TRUE(ok("email", "admin@example.com"));
  EXPECT_TRUE(ok("email", "Admin <admin@example.com>"));
  EXPECT_FALSE(ok("email", "admin"));
  EXPECT_FALSE(ok("email", "a@"));
}

TEST(SchemaFormats, IdentifiersAndEncodings) {
  EXPECT_TRUE(ok("uuid", "123e4567-e89b-12d3-a456-426614174000"));
  EXPECT_TRUE(ok("uuid", "123E4567E89B12D3A456426614174000"));
  EXPECT_FALSE(ok("uuid", "123e4567"));
  EXPECT_TRUE(ok("uuid4", "123e4567-e89b-42d3-a456-426614174000"));
  EXPECT_FALSE(ok("uuid4", "123e4567-e89b-12d3-a456-426614174000"));
  EXPECT_TRUE(ok("byte", "aGVsbG8="));
  EXPECT_FALSE(ok("byte", "not base64!"));
  EXPECT_FALSE(ok("byte", ""));
  EXPECT_TRUE(ok("isbn10", "0-306-40615-2"));
  EXPECT_TRUE(ok("isbn13", "978-0-306-40615-7"));
  EXPECT_FALSE(ok("isbn13", "978-0-306-40615-8"));
  EXPECT_TRUE(ok("creditcard", "4111 1111 1111 1111"));
  EXPECT_FALSE(ok("creditcard", "4111 1111 1111 1112"));
  EXPECT_TRUE(ok("ssn", "123-45-6789"));
  EXPECT_FALSE(ok("ssn", "123456789"));
  EXPECT_TRUE(ok("hexcolor", "#fff"));
  EXPECT_TRUE(ok("rgbcolor", "rgb(255, 0, 10)"));
  EXPECT_FALSE(ok("rgbcolor", "rgb(256,0,0)"));
  EXPECT_TRUE(ok("bsonobjectid", "507f1f77bcf86cd799439011"));
  EXPECT_TRUE(ok("password", ""));
}

}  // namespace
}  // namespace capstan::apiserver::schema
