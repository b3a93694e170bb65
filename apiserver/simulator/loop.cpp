#include "apiserver/simulator/loop.h"

#include "runtime/meta/object.h"
#include "runtime/workqueue/item_exponential_rate_limiter.h"
#include "runtime/workqueue/rate_limiting_queue.h"

namespace capstan::simulator {
namespace {

constexpr auto kBackoffBase = std::chrono::milliseconds(10);
constexpr auto kBackoffMax = std::chrono::seconds(5);
constexpr std::string_view kNamespaceTerminating = "NamespaceTerminating";

// Names never hold '/', so it separates the parts of a queue key.
std::string encode(const Key& k) { return k.resource + "/" + k.ns + "/" + k.name; }

Key decode(const std::string& s) {
  auto a = s.find('/');
  auto b = s.find('/', a + 1);
  return Key{s.substr(0, a), s.substr(a + 1, b - a - 1), s.substr(b + 1)};
}

}  // namespace

Key key_of(const std::string& resource, const json::Value& obj) {
  return Key{resource, std::string(meta::namespace_of(obj)), std::string(meta::name_of(obj))};
}

Loop::Loop(std::string name, Watches& watches, Reconcile reconcile)
    : watches_(watches),
      reconcile_(std::move(reconcile)),
      queue_(std::make_unique<workqueue::RateLimitingQueue>(
          workqueue::QueueConfig{},
          std::make_unique<workqueue::ItemExponentialFailureRateLimiter>(kBackoffBase, kBackoffMax))),
      log_({{"loop", std::move(name)}}) {}

Loop::~Loop() { stop(); }

void Loop::watch(const std::string& resource, Map map) {
  watches_.subscribe(resource, [this, map = std::move(map)](const Event& e) {
    if (map) {
      for (const auto& k : map(e)) enqueue(k);
      return;
    }
    enqueue(key_of(e.resource, *e.object));
  });
}

void Loop::enqueue(const Key& k, std::chrono::milliseconds after) {
  if (after.count() > 0) queue_->add_after(encode(k), after);
  else queue_->add(encode(k));
}

void Loop::start() {
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
}

void Loop::stop() {
  queue_->shut_down_now();
  if (thread_.joinable()) thread_.join();
}

void Loop::run() {
  while (auto item = queue_->get()) {
    Key k = decode(*item);
    try {
      auto again = reconcile_(k);
      queue_->forget(*item);
      if (again.count() > 0) queue_->add_after(*item, again);
    } catch (const std::exception& e) {
      const auto* api = client::as_api_error(e);
      if (api && client::has_cause(*api, kNamespaceTerminating)) {
        // Its objects are going: nothing to create there any more (as upstream controllers do).
        log_.debug("namespace is terminating; not retrying", {{"resource", k.resource}, {"namespace", k.ns}, {"name", k.name}});
        queue_->forget(*item);
      } else {
        log_.warn("reconcile failed; retrying",
                  {{"resource", k.resource}, {"namespace", k.ns}, {"name", k.name}, {"error", e.what()}});
        queue_->add_rate_limited(*item);
      }
    }
    queue_->done(*item);
  }
}

}  // namespace capstan::simulator
