#include "controllers/certificates/acme/http_headers.h"

#include <gtest/gtest.h>

namespace capstan::certificates::acme {
namespace {

TEST(AcmeHeadersTest, RetryAfterSeconds) {
  EXPECT_EQ(parse_retry_after("120"), std::chrono::seconds(120));
  EXPECT_EQ(parse_retry_after(" 0 "), std::chrono::seconds(0));
  EXPECT_EQ(parse_retry_after(""), std::nullopt);
  EXPECT_EQ(parse_retry_after("soon"), std::nullopt);
  EXPECT_EQ(parse_retry_after("-5"), std::nullopt);
}

TEST(AcmeHeadersTest, RetryAfterHttpDate) {
  // Wed, 21 Oct 2015 07:28:00 GMT = 1445412480.
  auto now = std::chrono::system_clock::from_time_t(1445412480 - 90);
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now), std::chrono::seconds(90));
  auto later = std::chrono::system_clock::from_time_t(1445412480 + 10);
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", later), std::chrono::seconds(0));
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 PST", now), std::nullopt);
  // Part of a second left still means one second.
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now + std::chrono::milliseconds(89'500)),
            std::chrono::seconds(1));
}

// Found by acme/fuzz/acme_fuzz.cpp: a date past 2262 overflowed system_clock (undefined
// behaviour); it is capped like a huge delay-seconds.
TEST(AcmeHeadersTest, RetryAfterFarFutureDateIsCapped) {
  auto now = std::chrono::system_clock::from_time_t(1445412480);
  EXPECT_EQ(parse_retry_after("Wed, 22 Oct 6671 07:28:00 GMT", now), std::chrono::seconds(999'999'999));
  EXPECT_EQ(parse_retry_after("Thu, 01 Jan 2026 00:00:00 GMT", now), std::chrono::seconds(1767225600 - 1445412480));
}

TEST(AcmeHeadersTest, RetryAfterFromHeaders) {
  http::Headers h{{"retry-after", "3"}};
  EXPECT_EQ(retry_after(h), std::chrono::seconds(3));
  EXPECT_EQ(retry_after(http::Headers{}), std::nullopt);
}

TEST(AcmeHeadersTest, LinkTargetsByRel) {
  http::Headers h;
  h.add("Link", R"(<https://acme.test/dir>;rel="index")");
  h.add("Link", R"(<https://acme.test/cert/1/1>;rel="alternate", <https://acme.test/cert/1/2>; rel="alternate")");
  h.add("link", R"(</cert/1/3>; title="a, b"; rel="up alternate")");
  EXPECT_EQ(link_targets(h, "index"), std::vector<std::string>{"https://acme.test/dir"});
  std::vector<std::string> want{"https://acme.test/cert/1/1", "https://acme.test/cert/1/2", "https://acme.test:8443/cert/1/3"};
  EXPECT_EQ(link_targets(h, "alternate", "https://acme.test:8443/cert/1"), want);
  EXPECT_EQ(link_targets(h, "up", "https://acme.test:8443/x").size(), 1u);
  EXPECT_TRUE(link_targets(h, "next").empty());
}

}  // namespace
}  // namespace capstan::certificates::acme
