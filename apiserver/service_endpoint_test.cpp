// Which Service port and Endpoints addresses a Service is dialled at.
#include "apiserver/service_endpoint.h"

#include <gtest/gtest.h>

namespace capstan::apiserver {
namespace {

json::Value J(std::string_view text) { return json::parse(text, "test object"); }

TEST(ServiceEndpoint, TheServicePortIsFoundByNumber) {
  json::Value svc = J(R"({"spec":{"ports":[{"name":"http","port":80},{"name":"https","port":443}]}})");
  const json::Value* p = service_port(svc, 443);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(json::get_string(*p, {"name"}), "https");
  EXPECT_EQ(service_port(svc, 8443), nullptr);
  EXPECT_EQ(service_port(J(R"({"spec":{}})"), 443), nullptr);
}

TEST(ServiceEndpoint, EachSubsetOffersItsFirstAddressOnThePortsOfThatName) {
  json::Value eps = J(R"({"subsets":[
    {"addresses":[{"ip":"10.0.0.1"},{"ip":"10.0.0.2"}],"ports":[{"name":"metrics","port":9090}]},
    {"addresses":[],"ports":[{"name":"https","port":1}]},
    {"addresses":[{"hostname":"no-ip"}],"ports":[{"name":"https","port":2}]},
    {"addresses":[{"ip":"10.0.0.3"}],"ports":[{"name":"https"},{"name":"https","port":8443}]},
    {"addresses":[{"ip":"fd00::4"}],"ports":[{"name":"https","port":9443}]}]})");
  auto got = endpoint_addresses(eps, "https");
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].ip, "10.0.0.3");
  EXPECT_EQ(got[0].port, 0);  // as written: the caller decides whether it is usable
  EXPECT_EQ(got[1].ip, "10.0.0.3");
  EXPECT_EQ(got[1].port, 8443);
  EXPECT_EQ(got[2].ip, "fd00::4");
  EXPECT_TRUE(endpoint_addresses(eps, "").empty());
  EXPECT_TRUE(endpoint_addresses(J(R"({"metadata":{}})"), "https").empty());
}

}  // namespace
}  // namespace capstan::apiserver
