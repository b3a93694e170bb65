// The Recorder against the in-process API server.
#include "runtime/events/recorder.h"
#include "testing/test_cluster.h"

#include <gtest/gtest.h>

#include <regex>
#include <thread>

namespace capstan::events {
namespace {

using namespace std::chrono_literals;
using integration::eventually;
using integration::TestCluster;

const meta::GroupVersionResource kEvents{"", "v1", "events"};
const meta::GroupVersionResource kConfigMaps{"", "v1", "configmaps"};

class EventRecorderTest : public ::testing::Test {
 protected:
  json::Value configmap(const std::string& name) {
    return cluster.client().create(
        kConfigMaps, "default",
        json::Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", json::Object{{"name", name}}}});
  }
  // Events about `name`, as `kubectl describe` asks for them.
  std::vector<json::Value> events_for(const std::string& ns, const std::string& name) {
    client::ListOptions o;
    o.field_selector = "involvedObject.name=" + name;
    return cluster.client().list(kEvents, ns, o).items;
  }

  TestCluster cluster;
};

TEST_F(EventRecorderTest, CreatesAnEventWithClientGosFields) {
  json::Value cm = configmap("app-config");
  Recorder r(cluster.client(), {"capstan-test", "node-1"});
  r.event(cm, kNormal, "Synced", "configuration synced");
  ASSERT_TRUE(r.flush(5s));
  auto evs = events_for("default", "app-config");
  ASSERT_EQ(evs.size(), 1u);
  const json::Value& e = evs[0];
  EXPECT_TRUE(std::regex_match(std::string(json::get_string(e, {"metadata", "name"})), std::regex(R"(app-config\.[0-9a-f]+)")))
      << json::serialize(e);
  EXPECT_EQ(json::get_string(e, {"metadata", "namespace"}), "default");
  EXPECT_EQ(json::get_string(e, {"involvedObject", "kind"}), "ConfigMap");
  EXPECT_EQ(json::get_string(e, {"involvedObject", "apiVersion"}), "v1");
  EXPECT_EQ(json::get_string(e, {"involvedObject", "namespace"}), "default");
  EXPECT_EQ(json::get_string(e, {"involvedObject", "name"}), "app-config");
  EXPECT_EQ(json::get_string(e, {"involvedObject", "uid"}), json::get_string(cm, {"metadata", "uid"}));
  EXPECT_EQ(json::get_string(e, {"involvedObject", "resourceVersion"}), json::get_string(cm, {"metadata", "resourceVersion"}));
  EXPECT_EQ(json::get_string(e, {"type"}), "Normal");
  EXPECT_EQ(json::get_string(e, {"reason"}), "Synced");
  EXPECT_EQ(json::get_string(e, {"message"}), "configuration synced");
  EXPECT_EQ(json::get_string(e, {"source", "component"}), "capstan-test");
  EXPECT_EQ(json::get_string(e, {"source", "host"}), "node-1");
  EXPECT_EQ(json::get_string(e, {"reportingComponent"}), "capstan-test");
  EXPECT_EQ(json::get_string(e, {"reportingInstance"}), "node-1");
  EXPECT_EQ(json::get_int(e, {"count"}), 1);
  EXPECT_FALSE(json::get_string(e, {"firstTimestamp"}).empty());
  EXPECT_EQ(json::get_string(e, {"firstTimestamp"}), json::get_string(e, {"lastTimestamp"}));
  EXPECT_EQ(r.stats().created, 1u);
}

TEST_F(EventRecorderTest, ARepeatIncrementsTheCountOfTheSameEvent) {
  json::Value cm = configmap("repeat");
  Recorder r(cluster.client(), {"capstan-test", "node-1"});
  r.warning(cm, "Failed", "issuer not ready");
  ASSERT_TRUE(r.flush(5s));
  auto first = events_for("default", "repeat");
  ASSERT_EQ(first.size(), 1u);
  std::this_thread::sleep_for(1100ms);  // lastTimestamp has second precision
  r.warning(cm, "Failed", "issuer not ready");
  r.warning(cm, "Failed", "issuer not ready");
  ASSERT_TRUE(r.flush(5s));
  auto evs = events_for("default", "repeat");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(json::get_string(evs[0], {"metadata", "name"}), json::get_string(first[0], {"metadata", "name"}));
  EXPECT_EQ(json::get_int(evs[0], {"count"}), 3);
  EXPECT_EQ(json::get_string(evs[0], {"firstTimestamp"}), json::get_string(first[0], {"firstTimestamp"}));
  EXPECT_GT(json::get_string(evs[0], {"lastTimestamp"}), json::get_string(evs[0], {"firstTimestamp"}));
  auto s = r.stats();
  EXPECT_EQ(s.created, 1u);
  EXPECT_EQ(s.patched, 2u);
}

TEST_F(EventRecorderTest, DifferentMessagesAndReasonsAreDifferentEvents) {
  json::Value cm = configmap("several");
  Recorder r(cluster.client(), {"capstan-test", "node-1"});
  r.normal(cm, "Issuing", "issuing certificate");
  r.normal(cm, "Issuing", "issuing certificate again");
  r.warning(cm, "Failed", "issuing certificate");
  ASSERT_TRUE(r.flush(5s));
  auto evs = events_for("default", "several");
  EXPECT_EQ(evs.size(), 3u);
  for (const auto& e : evs) EXPECT_EQ(json::get_int(e, {"count"}), 1);
}

TEST_F(EventRecorderTest, TheSpamFilterDropsEventsBeyondTheBurst) {
  json::Value cm = configmap("noisy");
  Options o;
  o.burst = 3;
  Recorder r(cluster.client(), {"capstan-test", "node-1"}, o);
  for (int i = 0; i < 6; ++i) r.normal(cm, "Step" + std::to_string(i), "step");
  ASSERT_TRUE(r.flush(5s));
  EXPECT_EQ(events_for("default", "noisy").size(), 3u);
  EXPECT_EQ(r.stats().skipped, 3u);
  // Other objects are not affected.
  json::Value quiet = configmap("quiet");
  r.normal(quiet, "Step", "step");
  ASSERT_TRUE(r.flush(5s));
  EXPECT_EQ(events_for("default", "quiet").size(), 1u);
}

TEST_F(EventRecorderTest, ClusterScopedObjectsGetEventsInDefault) {
  json::Value ns = cluster.client().create(
      meta::GroupVersionResource{"", "v1", "namespaces"}, "",
      json::Object{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", json::Object{{"name", "team-a"}}}});
  Recorder r(cluster.client(), {"capstan-test", "node-1"});
  r.normal(ns, "Labelled", "namespace labelled");
  ASSERT_TRUE(r.flush(5s));
  auto evs = events_for("default", "team-a");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(json::get_string(evs[0], {"metadata", "namespace"}), "default");
  EXPECT_EQ(json::find(evs[0], {"involvedObject", "namespace"}), nullptr);
  EXPECT_EQ(json::get_string(evs[0], {"involvedObject", "kind"}), "Namespace");
}

TEST_F(EventRecorderTest, ListingShowsEventsLikeKubectlGetEvents) {
  json::Value a = configmap("listed-a");
  json::Value b = configmap("listed-b");
  Recorder r(cluster.client(), {"capstan-test", "node-1"});
  r.normal(a, "Created", "a created");
  r.normal(b, "Created", "b created");
  ASSERT_TRUE(r.flush(5s));
  auto all = cluster.client().list(kEvents, "default").items;
  int ours = 0;
  for (const auto& e : all)
    if (json::get_string(e, {"source", "component"}) == "capstan-test") ++ours;
  EXPECT_EQ(ours, 2);
  client::ListOptions o;
  o.field_selector = "involvedObject.kind=ConfigMap,involvedObject.name=listed-b,involvedObject.uid=" +
                     std::string(json::get_string(b, {"metadata", "uid"}));
  auto only_b = cluster.client().list(kEvents, "default", o).items;
  ASSERT_EQ(only_b.size(), 1u);
  EXPECT_EQ(json::get_string(only_b[0], {"message"}), "b created");
}

TEST_F(EventRecorderTest, ADeletedEventIsCreatedAgainOnRepeat) {
  json::Value cm = configmap("gone");
  Recorder r(cluster.client(), {"capstan-test", "node-1"});
  r.normal(cm, "Synced", "ok");
  ASSERT_TRUE(r.flush(5s));
  auto evs = events_for("default", "gone");
  ASSERT_EQ(evs.size(), 1u);
  cluster.client().remove(kEvents, "default", json::get_string(evs[0], {"metadata", "name"}));
  r.normal(cm, "Synced", "ok");
  ASSERT_TRUE(r.flush(5s));
  evs = events_for("default", "gone");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(json::get_int(evs[0], {"count"}), 2);
  EXPECT_EQ(r.stats().created, 2u);
}

TEST_F(EventRecorderTest, InvalidInputIsDroppedNotSent) {
  json::Value cm = configmap("invalid");
  Recorder r(cluster.client(), {"capstan-test", "node-1"});
  r.event(cm, "Error", "Bad", "not a valid type");
  r.event(json::Object{{"metadata", json::Object{{"name", "x"}}}}, kNormal, "NoKind", "no kind");
  ASSERT_TRUE(r.flush(5s));
  EXPECT_EQ(r.stats().dropped, 2u);
  EXPECT_TRUE(events_for("default", "invalid").empty());
}

TEST_F(EventRecorderTest, LongMessagesAreCut) {
  json::Value cm = configmap("long");
  Recorder r(cluster.client(), {"capstan-test", "node-1"});
  r.normal(cm, "Big", std::string(5000, 'x'));
  ASSERT_TRUE(r.flush(5s));
  auto evs = events_for("default", "long");
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(json::get_string(evs[0], {"message"}).size(), 1024u);
}

TEST(EventRecorderQueueTest, AFullQueueDropsInsteadOfBlocking) {
  // A client for a server that is not there: the first event is stuck in transport retries.
  client::Config cfg;
  cfg.server = "http://127.0.0.1:1";
  cfg.timeout = 200ms;
  client::Client c(cfg);
  Options o;
  o.queue_size = 2;
  o.retry_sleep = 10s;
  o.flush_on_stop = 100ms;
  Recorder r(c, {"capstan-test", "node-1"}, o);
  json::Value cm = json::Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                                {"metadata", json::Object{{"name", "x"}, {"namespace", "default"}}}};
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 50; ++i) r.normal(cm, "R" + std::to_string(i), "m");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 500ms);  // never blocked on the network
  EXPECT_GE(r.stats().dropped, 40u);
  auto s0 = std::chrono::steady_clock::now();
  r.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - s0, 3s);
}

}  // namespace
}  // namespace capstan::events
