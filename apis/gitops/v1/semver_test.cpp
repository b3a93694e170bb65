#include "apis/gitops/v1/semver.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace capstan::apis::gitops::v1 {
namespace {

bool in(std::string_view range, std::string_view version) {
  auto v = Version::parse(version);
  EXPECT_TRUE(v) << version;
  return v && SemverConstraint::parse(range).matches(*v);
}

TEST(Semver, VersionsAndPrecedence) {
  EXPECT_TRUE(Version::parse("v1.2.3"));
  EXPECT_TRUE(Version::parse("1.2"));
  EXPECT_TRUE(Version::parse("2.0.0-rc.1+build.5"));
  EXPECT_FALSE(Version::parse("release-1"));
  EXPECT_FALSE(Version::parse("1.2.x"));
  EXPECT_FALSE(Version::parse("1.2.3.4"));
  EXPECT_FALSE(Version::parse("latest"));
  auto cmp = [](std::string_view a, std::string_view b) { return Version::parse(a)->compare(*Version::parse(b)); };
  EXPECT_LT(cmp("1.2.3", "1.10.0"), 0);
  EXPECT_LT(cmp("1.0.0-alpha", "1.0.0"), 0);
  EXPECT_LT(cmp("1.0.0-alpha", "1.0.0-alpha.1"), 0);
  EXPECT_LT(cmp("1.0.0-alpha.1", "1.0.0-alpha.beta"), 0);  // numeric identifiers sort first
  EXPECT_LT(cmp("1.0.0-beta.2", "1.0.0-beta.11"), 0);
  EXPECT_EQ(cmp("v1.2.3", "1.2.3+build"), 0);
}

TEST(Semver, RangesAsMastermindsReadsThem) {
  EXPECT_TRUE(in(">=1.0.0 <2.0.0", "1.9.9"));
  EXPECT_FALSE(in(">=1.0.0 <2.0.0", "2.0.0"));
  EXPECT_TRUE(in(">= 1.2, < 1.3", "1.2.7"));  // operators apart from versions, commas
  EXPECT_TRUE(in("1.2.x", "1.2.9"));
  EXPECT_FALSE(in("1.2.x", "1.3.0"));
  EXPECT_TRUE(in("*", "4.5.6"));
  EXPECT_TRUE(in("~1.2.3", "1.2.9"));
  EXPECT_FALSE(in("~1.2.3", "1.3.0"));
  EXPECT_TRUE(in("~1", "1.9.0"));
  EXPECT_TRUE(in("^1.2.3", "1.9.0"));
  EXPECT_FALSE(in("^1.2.3", "2.0.0"));
  EXPECT_TRUE(in("^0.2.3", "0.2.9"));
  EXPECT_FALSE(in("^0.2.3", "0.3.0"));
  EXPECT_FALSE(in("^0.0.3", "0.0.4"));
  EXPECT_TRUE(in("1.2 - 1.4", "1.4.9"));
  EXPECT_FALSE(in("1.2 - 1.4.5", "1.4.6"));
  EXPECT_TRUE(in(">1.2", "1.3.0"));
  EXPECT_FALSE(in(">1.2", "1.2.9"));  // > 1.2.x
  EXPECT_TRUE(in("<=1.2", "1.2.9"));
  EXPECT_TRUE(in("<1.0.0 || >=3", "3.1.0"));
  EXPECT_FALSE(in("<1.0.0 || >=3", "2.0.0"));
  EXPECT_FALSE(in("!=1.2.3", "1.2.3"));
  // A pre-release matches only a range that names one.
  EXPECT_FALSE(in(">=1.0.0", "2.0.0-rc.1"));
  EXPECT_TRUE(in(">=2.0.0-0", "2.0.0-rc.1"));
}

TEST(Semver, BadRangesNameThePart) {
  EXPECT_THROW(SemverConstraint::parse(">=one"), std::invalid_argument);
  EXPECT_THROW(SemverConstraint::parse("1.2.3 ||"), std::invalid_argument);
  EXPECT_THROW(SemverConstraint::parse("!=1.x"), std::invalid_argument);
  try {
    SemverConstraint::parse(">= 1.2 <two");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "\"two\" in \">= 1.2 <two\" is not a version");
  }
}

}  // namespace
}  // namespace capstan::apis::gitops::v1
