#include "runtime/meta/base64.h"

#include <gtest/gtest.h>

namespace capstan::meta {
namespace {

TEST(Base64, RoundTripsEveryLength) {
  std::string data;
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(base64_decode(base64_encode(data)).value(), data) << i;
    EXPECT_EQ(base64url_decode(base64url_encode(data)).value(), data) << i;
    data += static_cast<char>(i * 37 + 250);
  }
}

TEST(Base64, KnownVectorsAndErrors) {
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64url_encode("\xfb\xff"), "-_8");
  EXPECT_EQ(base64_decode("Zm9v\nYmE=").value(), "fooba");
  EXPECT_EQ(base64_decode("Zm8").value(), "fo");
  EXPECT_FALSE(base64_decode("Zm9v!").has_value());
  EXPECT_FALSE(base64_decode("Z").has_value());
  EXPECT_FALSE(base64_decode("Zm8=Zm8=").has_value());
}

}  // namespace
}  // namespace capstan::meta
