#include "runtime/controller/status.h"

#include "runtime/client/client.h"
#include "runtime/client/test_support.h"

#include <gtest/gtest.h>

#include <atomic>

namespace capstan::controller {
namespace {

const meta::GroupVersionResource kThings{"example.com", "v1", "things"};

json::Value thing(const std::string& rv, const std::string& ready) {
  return json::parse(R"({"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"a","namespace":"ns","resourceVersion":")" + rv +
                     R"("},"status":{"ready":")" + ready + R"("}})");
}

// A failure writes its status, then a retry at once reads the object from a cache that has not
// seen that write: its "unchanged" status is written anyway, so the object does not keep the
// failure's status. Once the cache shows the write, an unchanged status is not written again.
TEST(WriteStatus, ACacheBehindOurOwnWriteIsNotTrustedAsUnchanged) {
  std::atomic<int> rv{1};
  client::testing::FakeApiServer server([&](http::Request&, http::Reply& reply) {
    reply.send(client::testing::json_response(200, json::serialize(thing(std::to_string(++rv), "x"))));
  });
  client::Client c(server.config());
  json::Value cached = thing("1", "True");

  json::Value failed = cached;
  status_of(failed)["ready"] = "False";
  EXPECT_TRUE(write_status(c, kThings, cached, failed));  // -> resourceVersion 2
  json::Value retried = cached;                           // the cache still says True at 1
  EXPECT_TRUE(write_status(c, kThings, cached, retried)) << "the cache is behind our write: True must be written";
  EXPECT_EQ(server.count(), 2u);
  json::Value caught_up = thing("3", "True");  // the cache shows our last write
  json::Value again = caught_up;
  EXPECT_FALSE(write_status(c, kThings, caught_up, again));
  EXPECT_EQ(server.count(), 2u);
}

}  // namespace
}  // namespace capstan::controller
