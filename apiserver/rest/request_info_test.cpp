#include "apiserver/rest/request_info.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::rest {
namespace {

TEST(RequestInfo, ResourcePaths) {
  auto ri = parse_request_info("GET", "/apis/certs.capstan.dev/v1/namespaces/apps/certificates/web/status", false);
  EXPECT_TRUE(ri.is_resource);
  EXPECT_EQ(ri.group, "certs.capstan.dev");
  EXPECT_EQ(ri.ns, "apps");
  EXPECT_EQ(ri.resource, "certificates");
  EXPECT_EQ(ri.name, "web");
  EXPECT_EQ(ri.subresource, "status");
  EXPECT_EQ(ri.verb, "get");
  EXPECT_EQ(parse_request_info("GET", "/api/v1/pods", true).verb, "watch");
  EXPECT_FALSE(parse_request_info("GET", "/apis/certs.capstan.dev", false).is_resource);
}

// Found by apiserver/rest/fuzz/api_request_fuzz.cpp: segments were decoded as a query string,
// so a segment holding '&' became "" (a resource request naming no resource) and '+' a space.
TEST(RequestInfo, SegmentsArePercentDecodedAsPaths) {
  EXPECT_EQ(split_path("/api/v1/namespaces/default/configmaps/a%3Ab%2Fc"),
            (std::vector<std::string>{"api", "v1", "namespaces", "default", "configmaps", "a:b/c"}));
  EXPECT_EQ(split_path("//x&y%41//a+b/%zz/%4"), (std::vector<std::string>{"x&yA", "a+b", "%zz", "%4"}));
  auto ri = parse_request_info("GET", "/api/v1/&%41/x", false);
  EXPECT_TRUE(ri.is_resource);
  EXPECT_EQ(ri.resource, "&A");
}

}  // namespace
}  // namespace capstan::apiserver::rest
