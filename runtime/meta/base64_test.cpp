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

// The quartet fast path must agree with character-at-a-time decoding wherever whitespace,
// padding or a bad character falls: wrapped lines (PEM's 64, MIME's 76), a break inside a
// quartet, padding followed by whitespace, and bad characters in either path.
TEST(Base64, WhitespaceAndErrorsAnywhere) {
  std::string data;
  for (int i = 0; i < 200; ++i) data += static_cast<char>(i * 131 + 7);
  const std::string text = base64_encode(data);
  for (std::size_t width : {1u, 3u, 4u, 5u, 64u, 76u}) {
    std::string wrapped;
    for (std::size_t i = 0; i < text.size(); i += width) wrapped += text.substr(i, width) + "\r\n";
    EXPECT_EQ(base64_decode(wrapped).value(), data) << width;
    EXPECT_EQ(base64_decode(" \t" + wrapped + " ").value(), data) << width;
  }
  EXPECT_EQ(base64_decode("Zm8=\n").value(), "fo");
  EXPECT_EQ(base64_decode("Zm9vYm E=").value(), "fooba");
  for (std::size_t at : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{9}, std::size_t{40}, text.size() - 1}) {
    std::string bad = text;
    bad[at] = '*';
    EXPECT_FALSE(base64_decode(bad).has_value()) << at;
    bad[at] = '-';  // of the URL alphabet only
    EXPECT_FALSE(base64_decode(bad).has_value()) << at;
  }
  EXPECT_FALSE(base64url_decode("Zm9v+mFy").has_value());
  EXPECT_FALSE(base64_decode("Zm9vY").has_value());
}

}  // namespace
}  // namespace capstan::meta
