#include "runtime/events/correlator.h"
#include "runtime/events/event.h"
#include "runtime/events/lru.h"

#include <gtest/gtest.h>

namespace capstan::events {
namespace {

using namespace std::chrono_literals;

struct FakeClock {
  meta::TimePoint now = meta::parse_rfc3339("2026-03-01T10:00:00Z").value();
  std::function<meta::TimePoint()> fn() {
    return [this] { return now; };
  }
};

Event make(std::string name, std::string reason, std::string message, meta::TimePoint t) {
  Event e;
  e.involved = {"ConfigMap", "default", name, "uid-" + name, "v1", "7", ""};
  e.ns = "default";
  e.name = event_name(name, t);
  e.type = "Normal";
  e.reason = std::move(reason);
  e.message = std::move(message);
  e.source = {"capstan-test", "node-1"};
  e.first_timestamp = e.last_timestamp = t;
  e.reporting_component = "capstan-test";
  e.reporting_instance = "node-1";
  return e;
}

// What the server answers for a write of `e`.
Event stored(Event e, std::string rv) {
  e.resource_version = std::move(rv);
  return e;
}

TEST(EventLruCacheTest, EvictsTheLeastRecentlyUsed) {
  LruCache<int> c(2);
  c.add("a", 1);
  c.add("b", 2);
  ASSERT_NE(c.get("a"), nullptr);  // a is now the most recent
  c.add("c", 3);
  EXPECT_EQ(c.get("b"), nullptr);
  EXPECT_EQ(*c.get("a"), 1);
  EXPECT_EQ(*c.get("c"), 3);
  c.add("a", 10);
  EXPECT_EQ(*c.get("a"), 10);
  EXPECT_EQ(c.size(), 2u);
}

TEST(EventTest, NamesReferencesAndNamespaces) {
  auto t = meta::TimePoint(std::chrono::nanoseconds(0x1234abcdLL));
  EXPECT_EQ(event_name("web", t), "web.1234abcd");

  json::Value cm = json::Object{{"apiVersion", "v1"},
                                {"kind", "ConfigMap"},
                                {"metadata", json::Object{{"name", "cfg"}, {"namespace", "apps"}, {"uid", "u1"},
                                                          {"resourceVersion", "42"}}}};
  auto ref = ObjectReference::from_object(cm);
  ASSERT_TRUE(ref);
  EXPECT_EQ(ref->kind, "ConfigMap");
  EXPECT_EQ(ref->ns, "apps");
  EXPECT_EQ(ref->name, "cfg");
  EXPECT_EQ(ref->uid, "u1");
  EXPECT_EQ(ref->api_version, "v1");
  EXPECT_EQ(ref->resource_version, "42");
  EXPECT_EQ(event_namespace(*ref), "apps");

  json::Value node = json::Object{{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", json::Object{{"name", "n1"}}}};
  auto nref = ObjectReference::from_object(node);
  ASSERT_TRUE(nref);
  EXPECT_EQ(event_namespace(*nref), "default");
  EXPECT_FALSE(nref->to_json().contains("namespace"));

  // A reference passed as is.
  json::Value r = json::Object{{"apiVersion", "v1"}, {"kind", "Pod"}, {"name", "p"}, {"namespace", "x"},
                               {"fieldPath", "spec.containers{app}"}};
  auto pref = ObjectReference::from_object(r);
  ASSERT_TRUE(pref);
  EXPECT_EQ(pref->field_path, "spec.containers{app}");

  EXPECT_FALSE(ObjectReference::from_object(json::Object{{"metadata", json::Object{{"name", "x"}}}}));
  EXPECT_FALSE(ObjectReference::from_object(json::Value("nope")));
}

TEST(EventTest, JsonRoundTrip) {
  auto t = meta::parse_rfc3339("2026-03-01T10:00:00Z").value();
  Event e = make("cfg", "Synced", "hello", t);
  e.count = 3;
  e.annotations["a"] = "b";
  json::Value v = e.to_json();
  EXPECT_EQ(json::get_string(v, {"apiVersion"}), "v1");
  EXPECT_EQ(json::get_string(v, {"kind"}), "Event");
  EXPECT_EQ(json::get_string(v, {"firstTimestamp"}), "2026-03-01T10:00:00Z");
  EXPECT_EQ(json::get_string(v, {"reportingComponent"}), "capstan-test");
  EXPECT_EQ(json::get_string(v, {"source", "host"}), "node-1");
  Event back = Event::from_json(v);
  EXPECT_EQ(back.name, e.name);
  EXPECT_EQ(back.count, 3);
  EXPECT_EQ(back.involved.uid, "uid-cfg");
  EXPECT_EQ(back.annotations.at("a"), "b");
  EXPECT_EQ(event_key(back), event_key(e));
}

TEST(EventTest, TruncatesOnUtf8Boundaries) {
  EXPECT_EQ(truncate_utf8("hello", 0), "hello");
  EXPECT_EQ(truncate_utf8("hello", 3), "hel");
  EXPECT_EQ(truncate_utf8("h\xc3\xa9llo", 2), "h");  // é is two bytes: not split
  EXPECT_EQ(truncate_utf8("h\xc3\xa9llo", 3), "h\xc3\xa9");
}

TEST(EventCorrelatorTest, FirstEventPassesAndARepeatBecomesAPatch) {
  FakeClock clock;
  Correlator c({.clock = clock.fn()});
  Event first = make("cfg", "Synced", "ok", clock.now);
  auto r1 = c.correlate(first);
  EXPECT_FALSE(r1.skip);
  EXPECT_FALSE(r1.patch);
  EXPECT_EQ(r1.event.count, 1);
  EXPECT_EQ(r1.event.name, first.name);
  c.update_state(stored(r1.event, "100"));

  clock.now += 5s;
  Event again = make("cfg", "Synced", "ok", clock.now);
  auto r2 = c.correlate(again);
  ASSERT_TRUE(r2.patch);
  EXPECT_EQ(r2.event.count, 2);
  EXPECT_EQ(r2.event.name, first.name);  // the existing Event is updated
  EXPECT_EQ(r2.event.resource_version, "100");
  EXPECT_EQ(r2.event.first_timestamp, first.first_timestamp);
  EXPECT_EQ(json::serialize(*r2.patch),
            json::serialize(json::Object{{"count", 2}, {"lastTimestamp", "2026-03-01T10:00:05Z"}, {"message", "ok"}}));
  c.update_state(stored(r2.event, "101"));

  auto r3 = c.correlate(make("cfg", "Synced", "ok", clock.now));
  EXPECT_EQ(r3.event.count, 3);

  // Another message is another event.
  auto other = c.correlate(make("cfg", "Synced", "different", clock.now));
  EXPECT_FALSE(other.patch);
  EXPECT_EQ(other.event.count, 1);
}

TEST(EventCorrelatorTest, AggregatesTenSimilarEventsWithinTheInterval) {
  FakeClock clock;
  Correlator c({.burst = 100, .clock = clock.fn()});
  for (int i = 1; i <= 9; ++i) {
    auto r = c.correlate(make("cfg", "Failed", "attempt " + std::to_string(i), clock.now));
    EXPECT_EQ(r.event.message, "attempt " + std::to_string(i));
    EXPECT_FALSE(r.patch);
    c.update_state(r.event);
    clock.now += 1s;
  }
  auto tenth = c.correlate(make("cfg", "Failed", "attempt 10", clock.now));
  EXPECT_EQ(tenth.event.message, "(combined from similar events): attempt 10");
  EXPECT_EQ(tenth.event.count, 1);
  EXPECT_FALSE(tenth.patch);
  c.update_state(stored(tenth.event, "55"));
  clock.now += 1s;
  // Further similar events update the combined one.
  auto eleventh = c.correlate(make("cfg", "Failed", "attempt 11", clock.now));
  ASSERT_TRUE(eleventh.patch);
  EXPECT_EQ(eleventh.event.name, tenth.event.name);
  EXPECT_EQ(eleventh.event.count, 2);
  EXPECT_EQ(eleventh.event.message, "(combined from similar events): attempt 11");
  EXPECT_EQ(json::get_string(*eleventh.patch, {"message"}), "(combined from similar events): attempt 11");
}

TEST(EventCorrelatorTest, AggregationStartsOverAfterTheInterval) {
  FakeClock clock;
  Correlator c({.burst = 100, .clock = clock.fn()});
  for (int i = 1; i <= 9; ++i) c.correlate(make("cfg", "Failed", "m" + std::to_string(i), clock.now));
  clock.now += 601s;
  auto r = c.correlate(make("cfg", "Failed", "m10", clock.now));
  EXPECT_EQ(r.event.message, "m10");
}

TEST(EventCorrelatorTest, SpamFilterAllowsTheBurstThenOnePerRefill) {
  FakeClock clock;
  Correlator c({.clock = clock.fn()});  // burst 25, one per 300 s
  int passed = 0;
  for (int i = 0; i < 30; ++i) {
    // Distinct reasons: no aggregation, no de-duplication.
    auto r = c.correlate(make("cfg", "R" + std::to_string(i), "m", clock.now));
    if (!r.skip) ++passed;
  }
  EXPECT_EQ(passed, 25);
  // Another object has its own bucket.
  EXPECT_FALSE(c.correlate(make("other", "R", "m", clock.now)).skip);
  clock.now += 299s;
  EXPECT_TRUE(c.correlate(make("cfg", "S1", "m", clock.now)).skip);
  clock.now += 2s;
  EXPECT_FALSE(c.correlate(make("cfg", "S2", "m", clock.now)).skip);
  EXPECT_TRUE(c.correlate(make("cfg", "S3", "m", clock.now)).skip);
}

}  // namespace
}  // namespace capstan::events
