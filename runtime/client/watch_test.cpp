#include "runtime/client/client.h"
#include "runtime/client/test_support.h"
#include "runtime/http/client.h"
#include "runtime/metrics/registry.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace capstan::client {
namespace {
using namespace std::chrono_literals;
using json::EventType;
using testing::FakeApiServer;
using testing::json_response;
using testing::status_body;

const meta::GroupVersionResource kConfigMaps{"", "v1", "configmaps"};

std::string event(std::string_view type, std::string_view object) {
  return "{\"type\":\"" + std::string(type) + "\",\"object\":" + std::string(object) + "}\n";
}
std::string cm(std::string_view name, std::string_view rv) {
  return R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":")" + std::string(name) +
         R"(","namespace":"default","resourceVersion":")" + std::string(rv) + R"("}})";
}
const char* kExpired =
    R"json({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (3171407)","reason":"Expired","code":410})json";

http::Headers stream_headers() {
  http::Headers h;
  h.set("Content-Type", "application/json");
  return h;
}

struct Seen {
  EventType type;
  std::string object;
};

TEST(ClientWatch, QueryAndEventsSplitAcrossChunksAnywhere) {
  std::string body = event("ADDED", cm("a", "11")) + event("MODIFIED", cm("a", "12")) +
                     event("BOOKMARK", R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"13"}})") +
                     event("DELETED", cm("a", "14")) + event("ERROR", kExpired);
  FakeApiServer server([&](http::Request&, http::Reply& reply) {
    auto s = reply.stream(200, stream_headers());
    // Chunks of 7 bytes, with pauses so the client really reads them separately.
    for (std::size_t i = 0; i < body.size(); i += 7) {
      s->write(body.substr(i, 7));
      if (i % 70 == 0) std::this_thread::sleep_for(1ms);
    }
    s->close();
  });
  Config c = server.config();
  c.bearer_token = "tok";
  Client client(c);
  std::vector<Seen> seen;
  WatchOptions o;
  o.resource_version = "10";
  o.label_selector = "app=x";
  o.field_selector = "metadata.name=a";
  o.timeout_seconds = 300;
  WatchResult res = client.watch(kConfigMaps, "default", o, [&](EventType t, std::string_view obj, const json::MetaSummary&) {
    seen.push_back({t, std::string(obj)});
    return true;
  });
  auto r = server.last();
  EXPECT_EQ(r.method, "GET");
  EXPECT_EQ(r.path, "/api/v1/namespaces/default/configmaps");
  EXPECT_EQ(r.query,
            "allowWatchBookmarks=true&fieldSelector=metadata.name%3Da&labelSelector=app%3Dx&resourceVersion=10&"
            "timeoutSeconds=300&watch=true");
  EXPECT_EQ(r.headers.get_or("Accept", ""), "application/json");
  EXPECT_EQ(r.headers.get_or("Authorization", ""), "Bearer tok");

  EXPECT_EQ(res.end, WatchEnd::Closed);
  EXPECT_EQ(res.events, 5u);
  EXPECT_EQ(res.skipped, 0u);
  ASSERT_EQ(seen.size(), 5u);
  EXPECT_EQ(seen[0].type, EventType::Added);
  EXPECT_EQ(seen[0].object, cm("a", "11"));
  EXPECT_EQ(seen[1].type, EventType::Modified);
  EXPECT_EQ(seen[2].type, EventType::Bookmark);
  EXPECT_EQ(seen[3].type, EventType::Deleted);
  EXPECT_EQ(seen[4].type, EventType::Error);
  ApiError e = error_from_watch_event(seen[4].object, {"watch", "configmaps", "default", "", ""});
  EXPECT_TRUE(is_gone(e));
  EXPECT_EQ(e.code(), 410);
  EXPECT_EQ(e.reason(), "Expired");
}

TEST(ClientWatch, MinimalQueryLastLineWithoutNewlineAndMalformedLines) {
  FakeApiServer server([&](http::Request&, http::Reply& reply) {
    auto s = reply.stream(200, stream_headers());
    s->write(event("ADDED", cm("a", "1")));
    s->write("{\"type\":\"ADDED\",\"object\":{broken\n");
    std::string last = event("ADDED", cm("b", "2"));
    last.pop_back();  // no trailing newline
    s->write(last);
    s->close();
  });
  Client client(server.config());
  std::vector<std::string> names;
  WatchOptions o;
  o.allow_watch_bookmarks = false;
  WatchResult res = client.watch(kConfigMaps, "", o, [&](EventType, std::string_view obj, const json::MetaSummary& meta) {
    json::MetaSummary m;
    json::summarize(obj, m);
    EXPECT_EQ(meta.name, m.name);
    names.emplace_back(meta.name);
    return true;
  });
  EXPECT_EQ(server.last().path, "/api/v1/configmaps");
  EXPECT_EQ(server.last().query, "watch=true");
  EXPECT_EQ(res.end, WatchEnd::Closed);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(res.skipped, 1u);
}

TEST(ClientWatch, StreamingListQueryAndUnsupportedIs422) {
  FakeApiServer server([&](http::Request&, http::Reply& reply) {
    reply.send(json_response(422, R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"ListOptions.meta.k8s.io \"\" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled","reason":"Invalid","details":{"group":"meta.k8s.io","kind":"ListOptions","causes":[{"reason":"FieldValueForbidden","message":"Forbidden: sendInitialEvents is forbidden","field":"sendInitialEvents"}]},"code":422})"));
  });
  Client client(server.config());
  WatchOptions o;
  o.send_initial_events = true;
  o.allow_watch_bookmarks = false;  // forced on for streaming lists
  o.resource_version = "";
  int calls = 0;
  try {
    client.watch(kConfigMaps, "default", o, [&](EventType, std::string_view, const json::MetaSummary&) { return ++calls, true; });
    FAIL() << "expected ApiError";
  } catch (const ApiError& e) {
    EXPECT_TRUE(is_invalid(e));
    EXPECT_EQ(e.details().kind, "ListOptions");
    EXPECT_TRUE(has_cause(e, "FieldValueForbidden"));
    EXPECT_EQ(e.request().verb, "watch");
  }
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(server.last().query,
            "allowWatchBookmarks=true&resourceVersion=&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&"
            "watch=true");
}

TEST(ClientWatch, HttpGoneIsThrownWithTheStatus) {
  FakeApiServer server([&](http::Request&, http::Reply& reply) {
    reply.send(json_response(410, kExpired));
  });
  metrics::Registry registry;
  ClientOptions co;
  co.registry = &registry;
  Client client(server.config(), co);
  try {
    client.watch(kConfigMaps, "default", {.resource_version = "1"}, [](EventType, std::string_view, const json::MetaSummary&) { return true; });
    FAIL();
  } catch (const ApiError& e) {
    EXPECT_TRUE(is_gone(e));
    EXPECT_EQ(e.message(), "too old resource version: 1 (3171407)");
  }
  std::string host = server.url().substr(7);
  EXPECT_EQ(testing::counter_value(registry, "rest_client_requests_total", {"410", "GET", host}), 1);
}

TEST(ClientWatch, TooManyRequestsBeforeTheStreamIsRetried) {
  std::atomic<int> calls{0};
  FakeApiServer server([&](http::Request&, http::Reply& reply) {
    if (++calls == 1) {
      http::Response r(429, status_body(429, "TooManyRequests", "later"));
      r.headers.set("Retry-After", "0");
      reply.send(std::move(r));
      return;
    }
    auto s = reply.stream(200, stream_headers());
    s->write(event("ADDED", cm("a", "1")));
    s->close();
  });
  Client client(server.config());
  int events = 0;
  auto res = client.watch(kConfigMaps, "", {}, [&](EventType, std::string_view, const json::MetaSummary&) { return ++events, true; });
  EXPECT_EQ(calls.load(), 2);
  EXPECT_EQ(events, 1);
  EXPECT_EQ(res.end, WatchEnd::Closed);
}

TEST(ClientWatch, CallbackCanStopTheWatch) {
  FakeApiServer server([&](http::Request&, http::Reply& reply) {
    auto s = reply.stream(200, stream_headers());
    s->write(event("ADDED", cm("a", "1")) + event("ADDED", cm("b", "2")) + event("ADDED", cm("c", "3")));
    // left open: the client must not wait for more
  });
  Client client(server.config());
  int events = 0;
  auto start = std::chrono::steady_clock::now();
  auto res = client.watch(kConfigMaps, "", {}, [&](EventType, std::string_view, const json::MetaSummary&) { return ++events < 2; });
  EXPECT_EQ(res.end, WatchEnd::Stopped);
  EXPECT_EQ(events, 2);
  EXPECT_EQ(res.events, 2u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
}

TEST(ClientWatch, CancellationFromAnotherThread) {
  FakeApiServer server([&](http::Request&, http::Reply& reply) {
    auto s = reply.stream(200, stream_headers());
    s->write(event("ADDED", cm("a", "1")));
    // left open until the client goes away
  });
  Client client(server.config());
  http::Cancellation cancel;
  std::atomic<int> events{0};
  std::thread canceller([&] {
    for (int i = 0; i < 200 && events.load() == 0; ++i) std::this_thread::sleep_for(5ms);
    cancel.cancel();
  });
  auto start = std::chrono::steady_clock::now();
  auto res = client.watch(kConfigMaps, "", {}, [&](EventType, std::string_view, const json::MetaSummary&) { return ++events, true; }, &cancel);
  canceller.join();
  EXPECT_EQ(res.end, WatchEnd::Cancelled);
  EXPECT_EQ(events.load(), 1);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1500ms);

  // Already cancelled: no request at all.
  std::size_t before = server.count();
  auto again = client.watch(kConfigMaps, "", {}, [&](EventType, std::string_view, const json::MetaSummary&) { return true; }, &cancel);
  EXPECT_EQ(again.end, WatchEnd::Cancelled);
  EXPECT_EQ(server.count(), before);
}

TEST(ClientWatch, IdleTimeoutIsATransportError) {
  FakeApiServer server([&](http::Request&, http::Reply& reply) {
    auto s = reply.stream(200, stream_headers());
    s->write(event("ADDED", cm("a", "1")));
  });
  Client client(server.config());
  WatchOptions o;
  o.idle_timeout = 200ms;
  int events = 0;
  EXPECT_THROW(client.watch(kConfigMaps, "", o, [&](EventType, std::string_view, const json::MetaSummary&) { return ++events, true; }),
               http::TransportError);
  EXPECT_EQ(events, 1);
}

}  // namespace
}  // namespace capstan::client
