#include "apiserver/rest/watch.h"

#include "apiserver/table/builtin_printers.h"
#include "apiserver/table/table.h"
#include "runtime/log/log.h"

#include <algorithm>
#include <deque>
#include <mutex>
#include <optional>

namespace capstan::apiserver::rest {
namespace {

const char* type_name(storage::EventType t) {
  switch (t) {
    case storage::EventType::Added: return "ADDED";
    case storage::EventType::Modified: return "MODIFIED";
    case storage::EventType::Deleted: return "DELETED";
  }
  return "ERROR";
}

std::string line_of(std::string_view type, json::Value object) {
  json::Object ev;
  ev["type"] = type;
  ev["object"] = std::move(object);
  return json::serialize(ev) + "\n";
}

// The envelope before an object serialised elsewhere: Boost.JSON serialises it with a null
// object, whose "null}" the object and kLineTail then take the place of.
std::string make_envelope_head(std::string_view type) {
  std::string head = json::serialize(json::Object{{"type", type}, {"object", nullptr}});  // ...,"object":null}
  head.resize(head.size() - std::string_view("null}").size());
  return head;
}

const std::string& envelope_head(std::string_view type) {
  static const std::string added = make_envelope_head("ADDED"), modified = make_envelope_head("MODIFIED"),
                           deleted = make_envelope_head("DELETED");
  if (type == "ADDED") return added;
  if (type == "MODIFIED") return modified;
  return deleted;
}
constexpr std::string_view kLineTail = "}\n";

// A watch's backlog goes out paced by the client: at most this much waits in memory...
constexpr std::size_t kReplayWindow = 4 << 20;
// ...and a client that reads nothing for this long is dropped.
constexpr std::chrono::seconds kReplayStall{30};

const table::Converter& converter_of(const registry::ResourceInfo& r, std::string_view version) {
  const auto* v = r.version(version);
  if (v && v->table) return *v->table;
  return table::converter_for(r.group, r.resource);
}

}  // namespace

class WatchHub::Client : public storage::Watcher {
 public:
  Client(Service& svc, WatchRequest req, std::shared_ptr<http::Stream> stream)
      : svc_(svc), req_(std::move(req)), stream_(std::move(stream)) {
    auto now = std::chrono::steady_clock::now();
    deadline_ = now + req_.timeout;
    last_bookmark_ = now;
    if (req_.format == WatchRequest::Format::Table) {
      table::TableOptions to;
      to.include = table::parse_include_object(req_.table_include).value_or(table::IncludeObject::Metadata);
      to.api_version = req_.table_api_version;
      table_.emplace(converter_of(*req_.target.res, req_.target.version), to);
    }
  }

  // Called by the store, under its lock, in rv order. While the backlog is still going out,
  // events wait in a queue behind it.
  void on_event(const storage::Event& e) override {
    if (done_) return;
    {
      std::lock_guard<std::mutex> l(queue_mu_);
      if (replaying_) {
        queued_.push_back(e);
        return;
      }
    }
    deliver(e, /*shared_encoding=*/true);
  }

  // Sends the backlog (history or initial objects), then the initial-events-end bookmark when
  // asked, then what arrived meanwhile, paced by the client's reading: the store is not
  // locked and no more than kReplayWindow bytes wait in memory. Afterwards events go out as
  // the store delivers them.
  void replay(std::vector<std::shared_ptr<const storage::Event>> backlog, std::optional<std::int64_t> initial_end_rv) {
    for (const auto& e : backlog) {
      if (!paced()) return;
      deliver(*e, false);
    }
    backlog.clear();
    if (initial_end_rv) send_bookmark(*initial_end_rv, true);
    for (;;) {
      std::deque<storage::Event> more;
      {
        std::lock_guard<std::mutex> l(queue_mu_);
        if (queued_.empty()) {
          replaying_ = false;
          return;
        }
        more.swap(queued_);
      }
      for (const auto& e : more) {
        if (!paced()) return;
        deliver(e, false);
      }
    }
  }

  bool replaying() const {
    std::lock_guard<std::mutex> l(queue_mu_);
    return replaying_;
  }

  // Filters one event for this watch and sends it. `shared_encoding`: under the store lock,
  // where the encoding may be shared with the other watchers of the same event.
  void deliver(const storage::Event& e, bool shared_encoding) {
    const json::Value& cur = *e.object.value;
    if (!req_.target.ns.empty() && json::get_string(cur, {"metadata", "namespace"}) != req_.target.ns) return;
    bool cur_pass = passes(cur);
    bool old_pass = e.previous && passes(*e.previous.value);
    switch (e.type) {
      case storage::EventType::Added:
        if (cur_pass) send(e, "ADDED", cur, shared_encoding);
        break;
      case storage::EventType::Modified:
        if (cur_pass && old_pass) send(e, "MODIFIED", cur, shared_encoding);
        else if (cur_pass) send(e, "ADDED", cur, false);
        else if (old_pass) {
          // Left the selector: a DELETED of the previous state at the new resourceVersion.
          json::Value prev = *e.previous.value;
          json::ensure_object(prev, {"metadata"})["resourceVersion"] = std::to_string(e.rv);
          send(e, "DELETED", prev, false);
        }
        break;
      case storage::EventType::Deleted:
        if (cur_pass || old_pass) send(e, "DELETED", cur, shared_encoding);
        break;
    }
    last_rv_ = std::max(last_rv_, e.rv);
  }

  void send_bookmark(std::int64_t rv, bool initial_end) {
    if (done_) return;
    json::Object md{{"resourceVersion", std::to_string(rv)}};
    if (initial_end) md["annotations"] = json::Object{{"k8s.io/initial-events-end", "true"}};
    const auto& r = *req_.target.res;
    json::Value obj = json::Object{{"kind", r.kind}, {"apiVersion", r.api_version(req_.target.version)}, {"metadata", std::move(md)}};
    // As every event, in the representation asked for (a Table's row of an empty object).
    switch (req_.format) {
      case WatchRequest::Format::Json: break;
      case WatchRequest::Format::Metadata: obj = table::partial_object_metadata(obj); break;
      case WatchRequest::Format::Table: obj = table_->next(obj, meta::Clock::now()); break;
    }
    write(line_of("BOOKMARK", std::move(obj)));
    last_bookmark_ = std::chrono::steady_clock::now();
  }

  void send_error(json::Value status) {
    write(line_of("ERROR", std::move(status)));
  }

  void close() {
    done_ = true;
    stream_->close();
  }

  bool finished() const { return done_ || stream_->closed(); }
  const WatchRequest& request() const { return req_; }
  std::chrono::steady_clock::time_point deadline() const { return deadline_; }
  std::chrono::steady_clock::time_point last_bookmark() const { return last_bookmark_; }
  std::chrono::steady_clock::time_point started() const { return deadline_ - req_.timeout; }
  std::uint64_t id = 0;
  bool registered = false;

  WatchHub::EncodedCache* cache = nullptr;

 private:
  bool passes(const json::Value& obj) const {
    return req_.labels.matches(obj) && Service::field_match(*req_.target.res, obj, req_.fields);
  }

  // Waits while the client is behind; false (and the watch is over) when it left or stopped
  // reading for kReplayStall.
  bool paced() {
    if (done_ || stream_->closed()) {
      done_ = true;
      return false;
    }
    if (stream_->wait_queued_below(kReplayWindow, kReplayStall)) return true;
    if (!stream_->closed()) {
      log::info("closing watch: the client stopped reading", {{"resource", req_.target.res->resource}});
      stream_->close();
    }
    done_ = true;
    return false;
  }

  void send(const storage::Event& e, std::string_view type, const json::Value& obj, bool shared) {
    const auto& r = *req_.target.res;
    // As stored only when stored at the version asked for: an object written while another
    // version was the storage version stays at it until rewritten.
    bool as_stored = &obj == e.object.value.get() && e.object.json && req_.target.version == r.storage_version().name &&
                     json::get_string(obj, {"apiVersion"}) == r.api_version(req_.target.version);
    if (req_.format == WatchRequest::Format::Json && !shared && as_stored) {
      // The stored JSON between the envelope's head and tail, copied once into the stream.
      if (!stream_->write({envelope_head(type), *e.object.json, kLineTail})) done_ = true;
      return;
    }
    if (req_.format == WatchRequest::Format::Json && shared && cache) {
      if (cache->rv != e.rv || cache->resource != e.resource || cache->version != req_.target.version || cache->type != type) {
        cache->rv = e.rv;
        cache->resource = e.resource;
        cache->version = req_.target.version;
        cache->type = type;
        if (as_stored) {
          cache->stored_json = e.object.json;
          cache->line.clear();
        } else {
          cache->stored_json.reset();
          cache->line = line_of(type, svc_.to_version(r, obj, req_.target.version));
        }
      }
      // Copied once, into this stream's batch.
      bool open = cache->stored_json ? stream_->write({envelope_head(cache->type), *cache->stored_json, kLineTail}) : stream_->write({cache->line});
      if (!open) done_ = true;
      return;
    }
    json::Value converted = svc_.to_version(r, obj, req_.target.version);
    switch (req_.format) {
      case WatchRequest::Format::Json: write(line_of(type, std::move(converted))); break;
      case WatchRequest::Format::Metadata: write(line_of(type, table::partial_object_metadata(converted))); break;
      case WatchRequest::Format::Table: write(line_of(type, table_->next(converted, meta::Clock::now()))); break;
    }
  }

  void write(std::string line) {
    if (!stream_->write(std::move(line))) done_ = true;
  }

  Service& svc_;
  WatchRequest req_;
  std::shared_ptr<http::Stream> stream_;
  std::optional<table::WatchTableEncoder> table_;
  std::chrono::steady_clock::time_point deadline_, last_bookmark_;
  std::int64_t last_rv_ = 0;
  std::atomic<bool> done_{false};
  mutable std::mutex queue_mu_;
  bool replaying_ = true;
  std::deque<storage::Event> queued_;
};

WatchHub::WatchHub(Service& service, std::chrono::milliseconds bookmark_interval)
    : service_(service), bookmark_ms_(bookmark_interval.count()), cache_(std::make_unique<EncodedCache>()) {
  thread_ = std::thread([this] { ticker(); });
}

WatchHub::~WatchHub() { stop(); }

void WatchHub::serve(WatchRequest req, http::Reply& reply) {
  const auto& r = *req.target.res;
  http::Headers h;
  h.set("Content-Type", "application/json");
  h.set("Cache-Control", "no-cache, private");
  auto stream = reply.stream(200, std::move(h));
  auto client = std::make_shared<Client>(service_, req, stream);
  client->cache = cache_.get();
  storage::Store::Backlog backlog;
  try {
    backlog = service_.store().watch_with_backlog(r.group_resource(), req.initial_state ? -1 : req.from_rv, client,
                                                  req.initial_state, req.target.ns);
    client->id = backlog.id;
    client->registered = true;
  } catch (const storage::TooOldError& e) {
    ApiError err = expired("too old resource version: " + std::to_string(e.requested) + " (" + std::to_string(e.oldest) + ")");
    client->send_error(err.status());
    client->close();
    return;
  }
  {
    std::lock_guard<std::mutex> l(mu_);
    if (stopping_) {
      service_.store().unwatch(client->id);
      client->close();
      return;
    }
    clients_.push_back(client);
    cv_.notify_all();
  }
  client->replay(std::move(backlog.events), req.initial_events_end ? std::optional<std::int64_t>(backlog.rv) : std::nullopt);
}

void WatchHub::ticker() {
  std::unique_lock<std::mutex> l(mu_);
  while (!stopping_) {
    cv_.wait_for(l, std::chrono::milliseconds(100));
    if (stopping_) break;
    auto now = std::chrono::steady_clock::now();
    std::vector<std::shared_ptr<Client>> finished, bookmark;
    auto drop = std::chrono::milliseconds(drop_after_ms_.load());
    auto interval = std::chrono::milliseconds(bookmark_ms_.load());
    for (auto it = clients_.begin(); it != clients_.end();) {
      auto& c = *it;
      bool expired_now = now >= c->deadline() || (drop.count() > 0 && now - c->started() >= drop);
      if (c->finished() || expired_now) {
        finished.push_back(c);
        it = clients_.erase(it);
        continue;
      }
      if (c->request().bookmarks && interval.count() > 0 && now - c->last_bookmark() >= interval && !c->replaying())
        bookmark.push_back(c);
      ++it;
    }
    l.unlock();
    for (auto& c : finished) {
      if (c->registered) service_.store().unwatch(c->id);
      c->close();
    }
    if (!bookmark.empty()) {
      service_.store().locked([&](std::int64_t rv) {
        for (auto& c : bookmark) c->send_bookmark(rv, false);
      });
    }
    l.lock();
  }
}

void WatchHub::stop() {
  std::vector<std::shared_ptr<Client>> all;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
    all.swap(clients_);
    cv_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
  for (auto& c : all) {
    if (c->registered) service_.store().unwatch(c->id);
    c->close();
  }
}

std::size_t WatchHub::active() const {
  std::lock_guard<std::mutex> l(mu_);
  return clients_.size();
}

}  // namespace capstan::apiserver::rest
