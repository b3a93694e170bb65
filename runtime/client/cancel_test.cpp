// Cancelling API calls: through a thread's CancelScope (how a controller cancels the calls of
// its reconciles) and through an explicit http::Cancellation (the informer's lists).
#include "runtime/client/cancel.h"
#include "runtime/client/client.h"
#include "runtime/client/test_support.h"
#include "runtime/http/client.h"

#include "testing/eventually.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

namespace capstan::client {
namespace {
using namespace std::chrono_literals;
using testing::FakeApiServer;
using testing::json_response;
using testing::status_body;

const meta::GroupVersionResource kConfigMaps{"", "v1", "configmaps"};
constexpr const char* kConfigMap = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"demo","namespace":"default"}})";
constexpr const char* kEmptyList = R"({"apiVersion":"v1","kind":"ConfigMapList","metadata":{"resourceVersion":"7"},"items":[]})";

// Holds requests to `path` (answering nothing) until released or 20 s passed; answers others.
class HangingServer {
 public:
  explicit HangingServer(std::string hang_path)
      : server_([this, hang_path](http::Request& req, http::Reply& reply) {
          if (req.path() == hang_path) {
            ++hanging_;
            auto until = std::chrono::steady_clock::now() + 20s;
            while (!released_.load() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(5ms);
            --hanging_;
          }
          reply.send(json_response(200, req.path().find("/configmaps/") != std::string_view::npos ? kConfigMap : kEmptyList));
        }) {}
  ~HangingServer() { released_ = true; }
  Config config() const { return server_.config(); }
  std::size_t count() const { return server_.count(); }
  int hanging() const { return hanging_.load(); }

 private:
  std::atomic<bool> released_{false};
  std::atomic<int> hanging_{0};
  FakeApiServer server_;
};

using e2e::eventually;

TEST(ClientCancel, AScopeTokenCancelsARequestInFlight) {
  HangingServer server("/api/v1/namespaces/default/configmaps/slow");
  Client client(server.config());
  std::stop_source stop;
  auto call = std::async(std::launch::async, [&] {
    CancelScope scope(stop.get_token());
    client.get(kConfigMaps, "default", "slow");
  });
  ASSERT_TRUE(eventually([&] { return server.hanging() == 1; }));
  auto t0 = std::chrono::steady_clock::now();
  stop.request_stop();
  ASSERT_EQ(call.wait_for(5s), std::future_status::ready) << "the call outlived its cancellation";
  EXPECT_THROW(call.get(), http::Cancelled);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  // The pool is not poisoned by the aborted connection.
  EXPECT_EQ(json::get_string(client.get(kConfigMaps, "default", "fast"), {"metadata", "name"}), "demo");
}

TEST(ClientCancel, AStoppedTokenFailsCallsBeforeAnythingIsSent) {
  HangingServer server("/never");
  Client client(server.config());
  std::stop_source stop;
  stop.request_stop();
  {
    CancelScope scope(stop.get_token());
    EXPECT_THROW(client.get(kConfigMaps, "default", "demo"), http::Cancelled);
  }
  EXPECT_EQ(server.count(), 0u);
  // Outside the scope the thread's calls are not cancelled.
  EXPECT_NO_THROW(client.get(kConfigMaps, "default", "demo"));
  EXPECT_FALSE(CancelScope::current().stop_possible());
}

TEST(ClientCancel, ScopesNestAndRestore) {
  std::stop_source outer, inner;
  {
    CancelScope a(outer.get_token());
    {
      CancelScope b(inner.get_token());
      inner.request_stop();
      EXPECT_TRUE(CancelScope::current().stop_requested());
    }
    EXPECT_TRUE(CancelScope::current().stop_possible());
    EXPECT_FALSE(CancelScope::current().stop_requested());
  }
  EXPECT_FALSE(CancelScope::current().stop_possible());
}

TEST(ClientCancel, ARetryAfterWaitIsCancelled) {
  std::atomic<int> calls{0};
  FakeApiServer server([&](http::Request&, http::Reply& reply) {
    ++calls;
    http::Response r = json_response(429, status_body(429, "TooManyRequests", "slow down"));
    r.headers.set("Retry-After", "30");
    reply.send(std::move(r));
  });
  Client client(server.config());
  std::stop_source stop;
  auto call = std::async(std::launch::async, [&] {
    CancelScope scope(stop.get_token());
    client.get(kConfigMaps, "default", "demo");
  });
  ASSERT_TRUE(eventually([&] { return calls.load() == 1; }));
  std::this_thread::sleep_for(50ms);  // into the 30 s wait
  stop.request_stop();
  ASSERT_EQ(call.wait_for(5s), std::future_status::ready) << "still waiting for Retry-After after the cancellation";
  try {
    call.get();
    FAIL() << "no exception";
  } catch (const http::Cancelled& e) {
    EXPECT_NE(std::string(e.what()).find("waiting 30s to retry after HTTP 429"), std::string::npos) << e.what();
  }
  EXPECT_EQ(calls.load(), 1);
}

TEST(ClientCancel, AClientSideRateLimitWaitIsCancelled) {
  std::atomic<int> calls{0};
  FakeApiServer server([&](http::Request&, http::Reply& reply) {
    ++calls;
    reply.send(json_response(200, kConfigMap));
  });
  Config cfg = server.config();
  cfg.qps = 0.02;  // one request per 50 s after the first
  cfg.burst = 1;
  Client client(cfg);
  client.get(kConfigMaps, "default", "demo");
  std::stop_source stop;
  auto call = std::async(std::launch::async, [&] {
    CancelScope scope(stop.get_token());
    client.get(kConfigMaps, "default", "demo");
  });
  std::this_thread::sleep_for(50ms);  // into the 50 s wait for a token
  stop.request_stop();
  ASSERT_EQ(call.wait_for(5s), std::future_status::ready) << "still waiting for a token after the cancellation";
  try {
    call.get();
    FAIL() << "no exception";
  } catch (const http::Cancelled& e) {
    EXPECT_NE(std::string(e.what()).find("client-side rate limiting"), std::string::npos) << e.what();
  }
  EXPECT_EQ(calls.load(), 1) << "the cancelled call was never sent";
}

TEST(ClientCancel, AnExplicitCancellationAbortsAList) {
  HangingServer server("/api/v1/namespaces/default/configmaps");
  Client client(server.config());
  http::Cancellation cancel;
  auto call = std::async(std::launch::async, [&] { return client.list_raw(kConfigMaps, "default", {}, &cancel); });
  ASSERT_TRUE(eventually([&] { return server.hanging() == 1; }));
  cancel.cancel();
  ASSERT_EQ(call.wait_for(5s), std::future_status::ready);
  EXPECT_THROW(call.get(), http::Cancelled);
}

TEST(ClientCancel, AWatchInsideAScopeEndsWithTheToken) {
  FakeApiServer server([](http::Request&, http::Reply& reply) {
    http::Headers h;
    h.set("Content-Type", "application/json");
    auto stream = reply.stream(200, h);
    stream->write(R"({"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"1"}}})" "\n");
    // The stream stays open (the handler returns; the server keeps the response going).
  });
  Client client(server.config());
  std::stop_source stop;
  std::atomic<int> events{0};
  auto call = std::async(std::launch::async, [&] {
    CancelScope scope(stop.get_token());
    return client.watch(kConfigMaps, "default", {}, [&](json::EventType, std::string_view, const json::MetaSummary&) {
      ++events;
      return true;
    });
  });
  ASSERT_TRUE(eventually([&] { return events.load() == 1; }));
  stop.request_stop();
  ASSERT_EQ(call.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(call.get().end, WatchEnd::Cancelled);
}

}  // namespace
}  // namespace capstan::client
