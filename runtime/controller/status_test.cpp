#include "runtime/controller/status.h"

#include "runtime/client/client.h"
#include "runtime/client/test_support.h"
#include "runtime/controller/memory_budget.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>

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

// A field the new status no longer has (an omitted empty list, a cleared value) is removed on
// the server: the merge patch says null for it, where leaving it out would keep it.
TEST(WriteStatus, AFieldTheStatusDroppedIsRemovedNotKept) {
  std::string body;
  client::testing::FakeApiServer server([&](http::Request& req, http::Reply& reply) {
    body = req.body;
    reply.send(client::testing::json_response(200, json::serialize(thing("2", "x"))));
  });
  client::Client c(server.config());
  json::Value cached = json::parse(R"({"metadata":{"name":"a","namespace":"ns","resourceVersion":"1"},)"
                                   R"("status":{"ready":"True","bindings":[{"name":"p"}],"nested":{"keep":1,"drop":2}}})");
  json::Value next = cached;
  auto& st = status_of(next);
  st.erase("bindings");
  st["nested"].as_object().erase("drop");
  ASSERT_TRUE(write_status(c, kThings, cached, next));
  EXPECT_EQ(json::parse(body), json::parse(R"({"status":{"ready":"True","bindings":null,"nested":{"keep":1,"drop":null}}})")) << body;
}

// An object deleted while it was reconciled has no status left to write: not an error.
TEST(WriteStatus, AnObjectDeletedMeanwhileIsNotAnError) {
  client::testing::FakeApiServer server([&](http::Request&, http::Reply& reply) {
    reply.send(client::testing::json_response(
        404, R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404,"message":"things \"a\" not found"})"));
  });
  client::Client c(server.config());
  json::Value cached = thing("1", "True");
  json::Value next = cached;
  status_of(next)["ready"] = "False";
  EXPECT_FALSE(write_status(c, kThings, cached, next));
  EXPECT_EQ(server.count(), 1u);
}

// A reconcile past its memory budget does not write the status its own error handling set (a
// build failure made of the bad_alloc): the controller writes the fault's condition after it.
TEST(WriteStatus, NothingIsWrittenInAReconcilePastItsMemoryBudget) {
  if (!MemoryBudget::enforced()) GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
  client::testing::FakeApiServer server([&](http::Request&, http::Reply& reply) {
    reply.send(client::testing::json_response(200, json::serialize(thing("2", "False"))));
  });
  client::Client c(server.config());
  json::Value cached = thing("1", "True");
  {
    MemoryBudget::Scope scope(4 << 20);
    std::unique_ptr<char[]> big;
    try {
      big = std::make_unique<char[]>(8 << 20);
    } catch (const std::exception&) {  // the reconciler's own catch
    }
    ASSERT_FALSE(big);
    ASSERT_TRUE(MemoryBudget::tripped());
    json::Value failed = cached;
    status_of(failed)["ready"] = "False";
    EXPECT_FALSE(write_status(c, kThings, cached, failed));
  }
  EXPECT_EQ(server.count(), 0u);
  EXPECT_FALSE(MemoryBudget::tripped()) << "the record ends with its scope";
  json::Value failed = cached;
  status_of(failed)["ready"] = "False";
  EXPECT_TRUE(write_status(c, kThings, cached, failed)) << "outside the reconcile (the fault's own write) it writes";
  EXPECT_EQ(server.count(), 1u);
}

// A typed status's conditions: lastTransitionTime moves only when the status does.
TEST(TypedConditions, SetKeepsTheTransitionTimeWhileTheStatusStaysAndRemoveDrops) {
  std::vector<meta::Condition> conditions;
  const auto t0 = *meta::parse_rfc3339("2026-01-01T00:00:00Z");
  const auto t1 = *meta::parse_rfc3339("2026-01-01T01:00:00Z");
  EXPECT_TRUE(set_condition(conditions, "Ready", "False", "Creating", "0 of 3", 1, t0));
  EXPECT_FALSE(set_condition(conditions, "Ready", "False", "Creating", "0 of 3", 1, t1)) << "nothing changed";
  EXPECT_TRUE(set_condition(conditions, "Ready", "False", "Creating", "1 of 3", 1, t1));
  ASSERT_EQ(conditions.size(), 1u);
  EXPECT_EQ(conditions[0].last_transition_time, "2026-01-01T00:00:00Z") << "same status: the transition time stays";
  EXPECT_TRUE(set_condition(conditions, "Ready", "True", "Ready", "", 2, t1));
  EXPECT_EQ(conditions[0].last_transition_time, "2026-01-01T01:00:00Z");
  EXPECT_EQ(conditions[0].observed_generation, 2);
  EXPECT_TRUE(set_condition(conditions, "Paused", "True", "", "", 2, t1));
  EXPECT_TRUE(remove_condition(conditions, "Ready"));
  EXPECT_FALSE(remove_condition(conditions, "Ready"));
  ASSERT_EQ(conditions.size(), 1u);
  EXPECT_EQ(conditions[0].type, "Paused");
}

}  // namespace
}  // namespace capstan::controller
