// Watch semantics on the wire, against the in-process API server over HTTPS: bookmarks carry a
// resourceVersion, a too-old resourceVersion gets a 200 stream whose first event is a 410
// Expired ERROR, a streaming list ends its initial ADDED events with the initial-events-end
// bookmark, and a resumed watch yields exactly the later events.
#include "apiserver/server.h"
#include "runtime/client/client.h"
#include "runtime/client/config.h"
#include "runtime/http/client.h"
#include "testing/test_cluster.h"
#include "runtime/json/json.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

#include <unistd.h>

namespace capstan::apiserver {
namespace {

using namespace std::chrono_literals;
using Events = std::vector<json::Value>;

struct Captured {
  int status = 0;
  Events events;
  bool server_ended = false;  // the server closed the stream
};

class WatchHttp : public ::testing::Test {
 protected:
  void SetUp() override {
    ApiServerOptions o;
    o.listen = "127.0.0.1:0";
    o.handler_threads = 4;
    o.bookmark_interval = 300ms;
    o.watch_history = 8;
    configure(o);
    server_ = std::make_unique<ApiServer>(o);
    server_->start();
    dir_ = std::filesystem::temp_directory_path() / ("capstan-watch-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "kubeconfig") << server_->kubeconfig();
    config_ = client::load_kubeconfig((dir_ / "kubeconfig").string());
    config_.qps = 0;
    client_ = std::make_unique<client::Client>(config_);
    http::ClientOptions ho;
    ho.tls.ca_pem = config_.ca_pem;
    ho.tls.cert_pem = config_.client_cert_pem;
    ho.tls.key_pem = config_.client_key_pem;
    http_ = std::make_unique<http::Client>(ho);
  }
  virtual void configure(ApiServerOptions&) {}
  void TearDown() override {
    http_.reset();
    client_.reset();
    server_->stop();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // Creates (or, with `value`, updates) ConfigMap ns/name; returns its resourceVersion.
  std::int64_t write_cm(const std::string& ns, const std::string& name, const std::string& value = "") {
    meta::GroupVersionResource cms{"", "v1", "configmaps"};
    json::Value obj = json::Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                                   {"metadata", json::Object{{"name", name}, {"namespace", ns}}},
                                   {"data", json::Object{{"k", value}}}};
    json::Value out = value.empty() ? client_->create(cms, ns, obj) : client_->patch(cms, ns, name, client::PatchType::Merge,
                                                                                       json::Object{{"data", json::Object{{"k", value}}}});
    return std::stoll(std::string(json::get_string(out, {"metadata", "resourceVersion"})));
  }
  void create_namespace(const std::string& ns) { integration::create_namespace(*client_, ns); }

  // GET `path` as a stream of newline-delimited events until `done(events)` holds, the server
  // ends the stream, or `limit` passes.
  Captured watch(const std::string& path, const std::function<bool(const Events&)>& done, std::chrono::milliseconds limit) {
    Captured c;
    http::Cancellation cancel;
    std::mutex mu;
    std::condition_variable cv;
    bool finished = false;
    std::thread watchdog([&] {
      std::unique_lock<std::mutex> l(mu);
      if (!cv.wait_for(l, limit, [&] { return finished; })) cancel.cancel();
    });
    std::string pending;
    http::Headers h{{"Accept", "application/json"}};
    auto r = http_->stream(
        "GET", config_.server + path, h, {}, [&](int, const http::Headers&) { return true; },
        [&](std::string_view data) {
          pending.append(data);
          for (auto nl = pending.find('\n'); nl != std::string::npos; nl = pending.find('\n')) {
            c.events.push_back(json::parse(pending.substr(0, nl)));
            pending.erase(0, nl + 1);
          }
          return !done(c.events);
        },
        &cancel, limit + 5s);
    {
      std::lock_guard<std::mutex> l(mu);
      finished = true;
    }
    cv.notify_all();
    watchdog.join();
    c.status = r.status;
    c.server_ended = r.completed;
    return c;
  }

  std::unique_ptr<ApiServer> server_;
  std::filesystem::path dir_;
  client::Config config_;
  std::unique_ptr<client::Client> client_;
  std::unique_ptr<http::Client> http_;
};

std::string_view type_of(const json::Value& e) { return json::get_string(e, {"type"}); }
std::string_view name_of(const json::Value& e) { return json::get_string(e, {"object", "metadata", "name"}); }
std::int64_t rv_of(const json::Value& e) {
  return std::stoll(std::string(json::get_string(e, {"object", "metadata", "resourceVersion"}, "-1")));
}
bool has_type(const Events& evs, std::string_view type) {
  for (const auto& e : evs)
    if (type_of(e) == type) return true;
  return false;
}

TEST_F(WatchHttp, BookmarksCarryTheCurrentResourceVersionOnlyWhenAllowed) {
  create_namespace("bm");
  std::int64_t rv = write_cm("bm", "a");
  auto path = "/api/v1/namespaces/bm/configmaps?watch=true&resourceVersion=" + std::to_string(rv);
  auto with = watch(path + "&allowWatchBookmarks=true", [](const Events& e) { return has_type(e, "BOOKMARK"); }, 5s);
  EXPECT_EQ(with.status, 200);
  ASSERT_TRUE(has_type(with.events, "BOOKMARK")) << with.events.size() << " events, no bookmark";
  const auto& bm = with.events.back();
  EXPECT_EQ(json::get_string(bm, {"object", "kind"}), "ConfigMap");
  EXPECT_EQ(json::get_string(bm, {"object", "apiVersion"}), "v1");
  EXPECT_GE(rv_of(bm), rv) << json::serialize(bm);
  EXPECT_EQ(json::find(bm, {"object", "metadata", "annotations"}), nullptr) << "only the initial-events-end bookmark is annotated";

  // Without allowWatchBookmarks, a second of quiet brings nothing.
  auto without = watch(path, [](const Events& e) { return !e.empty(); }, 1s);
  EXPECT_EQ(without.status, 200);
  EXPECT_TRUE(without.events.empty()) << json::serialize(without.events.front());
}

TEST_F(WatchHttp, ATooOldResourceVersionGetsAnExpiredErrorEventInA200Stream) {
  create_namespace("old");
  std::int64_t first = write_cm("old", "c0");
  for (int i = 1; i < 12; ++i) write_cm("old", "c" + std::to_string(i));  // the history keeps 8 events
  auto got = watch("/api/v1/namespaces/old/configmaps?watch=true&resourceVersion=" + std::to_string(first),
                   [](const Events& e) { return !e.empty(); }, 5s);
  EXPECT_EQ(got.status, 200);
  ASSERT_FALSE(got.events.empty());
  const auto& e = got.events.front();
  EXPECT_EQ(type_of(e), "ERROR");
  EXPECT_EQ(json::get_string(e, {"object", "kind"}), "Status");
  EXPECT_EQ(json::get_string(e, {"object", "status"}), "Failure");
  EXPECT_EQ(json::get_int(e, {"object", "code"}).value_or(0), 410);
  EXPECT_EQ(json::get_string(e, {"object", "reason"}), "Expired");
  EXPECT_EQ(json::get_string(e, {"object", "message"}).rfind("too old resource version: " + std::to_string(first) + " (", 0), 0u)
      << json::serialize(e);
  // The server ends the stream after the error.
  auto ended = watch("/api/v1/namespaces/old/configmaps?watch=true&resourceVersion=" + std::to_string(first),
                     [](const Events&) { return false; }, 5s);
  EXPECT_TRUE(ended.server_ended);
  EXPECT_EQ(ended.events.size(), 1u);
}

TEST_F(WatchHttp, AStreamingListSendsTheObjectsThenTheInitialEventsEndBookmark) {
  create_namespace("init");
  std::int64_t max_rv = 0;
  for (auto n : {"x", "y", "z"}) max_rv = std::max(max_rv, write_cm("init", n));
  auto got = watch("/api/v1/namespaces/init/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
                   "&allowWatchBookmarks=true",
                   [](const Events& e) { return has_type(e, "BOOKMARK"); }, 5s);
  EXPECT_EQ(got.status, 200);
  ASSERT_FALSE(got.events.empty());
  std::set<std::string> names;
  for (std::size_t i = 0; i + 1 < got.events.size(); ++i) {
    EXPECT_EQ(type_of(got.events[i]), "ADDED");
    // The root CA publisher's ConfigMap may be there already, as in any cluster.
    if (name_of(got.events[i]) != "kube-root-ca.crt") names.insert(std::string(name_of(got.events[i])));
  }
  EXPECT_EQ(names, (std::set<std::string>{"x", "y", "z"}));
  const auto& end = got.events.back();
  EXPECT_EQ(type_of(end), "BOOKMARK");
  EXPECT_EQ(json::get_string(end, {"object", "metadata", "annotations", "k8s.io/initial-events-end"}), "true");
  EXPECT_GE(rv_of(end), max_rv);
}

TEST_F(WatchHttp, ResumingFromAResourceVersionYieldsExactlyTheLaterEvents) {
  create_namespace("resume");
  std::int64_t from = write_cm("resume", "a");
  std::int64_t added_b = write_cm("resume", "b");
  std::int64_t modified_a = write_cm("resume", "a", "v2");
  client_->remove(meta::GroupVersionResource{"", "v1", "configmaps"}, "resume", "b");
  std::int64_t after = write_cm("resume", "c");
  auto got = watch("/api/v1/namespaces/resume/configmaps?watch=true&resourceVersion=" + std::to_string(from),
                   [](const Events& e) { return e.size() > 4; }, 1500ms);
  ASSERT_EQ(got.events.size(), 4u) << "the four later events, nothing before or after them";
  EXPECT_EQ(type_of(got.events[0]), "ADDED");
  EXPECT_EQ(name_of(got.events[0]), "b");
  EXPECT_EQ(rv_of(got.events[0]), added_b);
  EXPECT_EQ(type_of(got.events[1]), "MODIFIED");
  EXPECT_EQ(name_of(got.events[1]), "a");
  EXPECT_EQ(rv_of(got.events[1]), modified_a);
  EXPECT_EQ(json::get_string(got.events[1], {"object", "data", "k"}), "v2");
  EXPECT_EQ(type_of(got.events[2]), "DELETED");
  EXPECT_EQ(name_of(got.events[2]), "b");
  EXPECT_GT(rv_of(got.events[2]), modified_a);
  EXPECT_EQ(type_of(got.events[3]), "ADDED");
  EXPECT_EQ(name_of(got.events[3]), "c");
  EXPECT_EQ(rv_of(got.events[3]), after);

  // From the last of them: nothing more until the next write, which arrives alone.
  std::thread later([&] {
    std::this_thread::sleep_for(500ms);
    write_cm("resume", "d");
  });
  auto tail = watch("/api/v1/namespaces/resume/configmaps?watch=true&resourceVersion=" + std::to_string(after),
                    [](const Events& e) { return !e.empty(); }, 5s);
  later.join();
  ASSERT_EQ(tail.events.size(), 1u);
  EXPECT_EQ(type_of(tail.events[0]), "ADDED");
  EXPECT_EQ(name_of(tail.events[0]), "d");
}

class WatchHttpLongHistory : public WatchHttp {
 protected:
  void configure(ApiServerOptions& o) override { o.watch_history = 5000; }
};

// A long backlog goes out at the pace of a slow reader (it does not wait in memory, nor hold
// the store): writes made meanwhile complete, and come after the backlog in resourceVersion
// order, with no periodic bookmark ahead of events not yet sent.
TEST_F(WatchHttpLongHistory, ABacklogGoesOutPacedAndLaterWritesFollowItInOrder) {
  create_namespace("slow");
  std::int64_t from = write_cm("slow", "seed");
  const std::string big(16 * 1024, 'x');
  constexpr int kBacklog = 400;  // about 6.5 MB: more than the server keeps queued for one watch
  for (int i = 0; i < kBacklog; ++i) {
    client_->create(meta::GroupVersionResource{"", "v1", "configmaps"}, "slow",
                    json::Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                                 {"metadata", json::Object{{"name", "cm-" + std::to_string(i)}, {"namespace", "slow"}}},
                                 {"data", json::Object{{"k", big}}}});
  }
  constexpr int kLater = 30;
  std::atomic<int> seen{0};
  std::atomic<int> seen_when_writes_done{-1};
  std::thread writer([&] {
    while (seen.load() == 0) std::this_thread::sleep_for(1ms);
    for (int i = 0; i < kLater; ++i) write_cm("slow", "later-" + std::to_string(i));
    seen_when_writes_done = seen.load();
  });
  auto got = watch("/api/v1/namespaces/slow/configmaps?watch=true&allowWatchBookmarks=true&resourceVersion=" + std::to_string(from),
                   [&](const Events& e) {
                     seen = static_cast<int>(e.size());
                     std::this_thread::sleep_for(1ms);  // a slow reader
                     int objects = 0;
                     for (const auto& ev : e) objects += type_of(ev) != "BOOKMARK";
                     return objects >= kBacklog + kLater;
                   },
                   60s);
  writer.join();
  EXPECT_EQ(got.status, 200);
  std::vector<std::int64_t> rvs;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < got.events.size(); ++i) {
    const auto& e = got.events[i];
    if (type_of(e) == "BOOKMARK") {
      for (std::size_t j = i + 1; j < got.events.size(); ++j)
        if (type_of(got.events[j]) != "BOOKMARK") EXPECT_GT(rv_of(got.events[j]), rv_of(e)) << "a bookmark ahead of event " << j;
      continue;
    }
    rvs.push_back(rv_of(e));
    names.emplace_back(name_of(e));
  }
  ASSERT_EQ(names.size(), static_cast<std::size_t>(kBacklog + kLater));
  for (std::size_t i = 1; i < rvs.size(); ++i) EXPECT_GT(rvs[i], rvs[i - 1]) << "event " << i;
  for (int i = 0; i < kBacklog; ++i) EXPECT_EQ(names[i], "cm-" + std::to_string(i));
  for (int i = 0; i < kLater; ++i) EXPECT_EQ(names[kBacklog + i], "later-" + std::to_string(i));
  // The writes were not held up by the replay: they finished while it was still going out.
  EXPECT_LT(seen_when_writes_done.load(), kBacklog) << "the writes waited for the backlog";
}

}  // namespace
}  // namespace capstan::apiserver
