#include "runtime/cache/informer.h"

#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/http/client.h"
#include "runtime/json/decode.h"
#include "runtime/json/json.h"
#include "runtime/log/log.h"

#include <random>

namespace capstan::cache {
namespace {

constexpr auto kInitialBackoff = std::chrono::milliseconds(800);
constexpr auto kMaxBackoff = std::chrono::milliseconds(30000);

std::int64_t random_watch_timeout() {
  thread_local std::mt19937 rng(std::random_device{}());
  return 300 + static_cast<std::int64_t>(rng() % 300);  // [300, 600) s, as client-go's reflector
}

// Where a watch stream left off: a Gone signal or a plain end.
struct GoneSignal {};

// `raw` with only the fields `keep` names (InformerOptions::keep_fields); "" when it is not an
// object.
std::string keep_only(std::string_view raw, const std::vector<std::vector<std::string>>& keep) {
  json::Value in;
  try {
    in = json::parse(raw);
  } catch (const std::exception&) {
    return "";
  }
  if (!in.is_object()) return "";
  json::Object out;
  for (const char* k : {"apiVersion", "kind", "metadata"})
    if (const auto* v = in.as_object().if_contains(k)) out[k] = *v;
  if (auto* md = out.if_contains("metadata"); md && md->is_object()) {
    md->as_object().erase("annotations");
    md->as_object().erase("managedFields");
  }
  for (const auto& path : keep) {
    const json::Value* from = &in;
    for (const auto& key : path) from = from && from->is_object() ? from->as_object().if_contains(key) : nullptr;
    if (!from || path.empty()) continue;
    json::Object* to = &out;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
      json::Value& next = (*to)[path[i]];
      if (!next.is_object()) next = json::Object{};
      to = &next.as_object();
    }
    (*to)[path.back()] = *from;
  }
  return json::serialize(out);
}

}  // namespace

std::string InformerOptions::identity() const {
  std::string id = gvr.str() + "|" + ns + "|" + label_selector + "|" + field_selector + "|" + (strip_managed_fields ? "s" : "f");
  for (const auto& path : keep_fields) {
    id += "|";
    for (const auto& key : path) id += key + ".";
  }
  return id;
}

Informer::Informer(client::Client& client, InformerOptions options) : client_(client), opts_(std::move(options)) {}

Informer::~Informer() { stop(); }

void Informer::add_handlers(Handlers h) {
  std::lock_guard<std::mutex> l(handlers_mu_);
  if (synced_.load() && h.on_add) {
    for (const auto& o : store_.list()) h.on_add(o, true);
  }
  handlers_.push_back(std::move(h));
}

void Informer::start() {
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void Informer::stop() {
  stopping_ = true;
  std::shared_ptr<void> c;
  {
    std::lock_guard<std::mutex> l(mu_);
    c = cancel_;
    cv_.notify_all();
  }
  if (c) static_cast<http::Cancellation*>(c.get())->cancel();
  if (thread_.joinable()) thread_.join();
}

bool Informer::wait_for_sync(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> l(mu_);
  return cv_.wait_for(l, timeout, [&] { return synced_.load() || stopping_.load(); }) && synced_.load();
}

ObjectPtr Informer::get(std::string_view ns, std::string_view name) const {
  if (ns.empty()) return store_.get(name);
  std::string key;
  key.reserve(ns.size() + name.size() + 1);
  key.append(ns);
  key += '/';
  key.append(name);
  return store_.get(key);
}

std::string Informer::last_resource_version() const {
  std::lock_guard<std::mutex> l(const_cast<std::mutex&>(mu_));
  return rv_;
}

InformerStats Informer::stats() const {
  std::lock_guard<std::mutex> l(const_cast<std::mutex&>(mu_));
  return stats_;
}

void Informer::dispatch_add(const ObjectPtr& o, bool initial) {
  std::lock_guard<std::mutex> l(handlers_mu_);
  for (auto& h : handlers_)
    if (h.on_add) h.on_add(o, initial);
}

void Informer::dispatch_update(const ObjectPtr& a, const ObjectPtr& b) {
  std::lock_guard<std::mutex> l(handlers_mu_);
  for (auto& h : handlers_)
    if (h.on_update) h.on_update(a, b);
}

void Informer::dispatch_delete(const ObjectPtr& o) {
  std::lock_guard<std::mutex> l(handlers_mu_);
  for (auto& h : handlers_)
    if (h.on_delete) h.on_delete(o);
}

void Informer::apply_replace(ObjectMap fresh) {
  bool first = !synced_.load();
  // The diff against the store is taken before the new table replaces it, so the table is
  // handed over as it is, never copied.
  std::vector<ObjectPtr> added;
  std::vector<std::pair<ObjectPtr, ObjectPtr>> updated;
  std::vector<ObjectPtr> deleted;
  for (const auto& obj : fresh) {
    auto prev = store_.get(obj->key());
    if (!prev) added.push_back(obj);
    else if (prev->resource_version() != obj->resource_version()) updated.emplace_back(std::move(prev), obj);
  }
  auto old = store_.replace_all(std::move(fresh));
  for (const auto& obj : old)
    if (!store_.get(obj->key())) deleted.push_back(obj);  // vanished while we were not watching
  old.clear();
  for (auto& o : added) dispatch_add(o, first);
  for (auto& [a, b] : updated) dispatch_update(a, b);
  for (auto& o : deleted) dispatch_delete(o);
  if (first) {
    std::lock_guard<std::mutex> l(mu_);
    synced_ = true;
    cv_.notify_all();
  }
}

bool Informer::list_and_swap() {
  // stop() cancels the page in flight as it does a watch.
  auto cancel = std::make_shared<http::Cancellation>();
  {
    std::lock_guard<std::mutex> l(mu_);
    cancel_ = cancel;
  }
  struct Unpublish {
    Informer* self;
    ~Unpublish() {
      std::lock_guard<std::mutex> l(self->mu_);
      self->cancel_.reset();
    }
  } unpublish{this};
  ObjectMap fresh;
  std::string cont, rv;
  std::size_t skipped = 0;
  do {
    if (stopping_) return false;
    client::ListOptions lo;
    lo.label_selector = opts_.label_selector;
    lo.field_selector = opts_.field_selector;
    lo.limit = opts_.page_size;
    lo.continue_token = cont;
    std::string body;
    try {
      body = client_.list_raw(opts_.gvr, opts_.ns, lo, cancel.get());
    } catch (const client::ApiError& e) {
      if (e.code() == 410 && !cont.empty()) {  // the continue token expired: start over
        fresh.clear();
        cont.clear();
        continue;
      }
      throw;
    }
    json::ListMeta meta;
    std::string err;
    bool ok = json::decode_list(body, meta, [&](std::string_view item) {
      std::string why;
      auto obj = opts_.keep_fields.empty() ? CachedObject::from_json(item, opts_.strip_managed_fields, &why, /*padded=*/true)
                                           : CachedObject::from_json(keep_only(item, opts_.keep_fields), true, &why);
      if (!obj) {
        ++skipped;
        return;
      }
      put(fresh, std::move(obj));
    }, &err);
    if (!ok) throw std::runtime_error("decoding the list of " + opts_.gvr.str() + ": " + err);
    cont = meta.continue_token;
    rv = meta.resource_version;
  } while (!cont.empty());
  if (skipped) log::warn("skipped malformed objects in a list", {{"resource", opts_.gvr.str()}, {"skipped", skipped}});
  apply_replace(std::move(fresh));
  std::lock_guard<std::mutex> l(mu_);
  rv_ = rv;
  ++stats_.lists;
  return true;
}

void Informer::handle_event(int type, std::string_view raw, const json::MetaSummary& m) {
  auto t = static_cast<json::EventType>(type);
  if (t == json::EventType::Error) {
    auto st = client::parse_status(raw);
    if (st && (st->code == 410 || st->reason == "Expired" || st->reason == "Gone")) throw GoneSignal{};
    throw std::runtime_error("watch error event for " + opts_.gvr.str() + ": " + (st ? st->message : std::string(raw.substr(0, 200))));
  }
  if (t == json::EventType::Bookmark) {
    if (m.resource_version.empty()) return;
    bool end_of_initial = false;
    for (const auto& [k, v] : m.annotations)
      if (k == "k8s.io/initial-events-end" && v == "true") end_of_initial = true;
    if (in_initial_ && end_of_initial) {
      in_initial_ = false;
      apply_replace(std::move(initial_));
      initial_.clear();
      std::lock_guard<std::mutex> l(mu_);
      need_list_ = false;
      ++stats_.lists;
    }
    std::lock_guard<std::mutex> l(mu_);
    rv_ = m.resource_version;
    return;
  }
  std::string why;
  auto obj = opts_.keep_fields.empty() ? CachedObject::from_json(raw, m, opts_.strip_managed_fields, &why)
                                       : CachedObject::from_json(keep_only(raw, opts_.keep_fields), true, &why);
  if (!obj) {
    log::warn("skipping malformed watch object", {{"resource", opts_.gvr.str()}, {"error", why}});
    return;
  }
  if (in_initial_) {
    if (t == json::EventType::Added) put(initial_, std::move(obj));
    return;
  }
  {
    std::lock_guard<std::mutex> l(mu_);
    rv_ = std::string(obj->resource_version());
    ++stats_.events;
  }
  if (t == json::EventType::Deleted) {
    store_.remove(obj->key());
    dispatch_delete(obj);
    return;
  }
  auto prev = store_.upsert(obj);
  if (!prev) dispatch_add(obj, false);
  else if (prev->resource_version() != obj->resource_version()) dispatch_update(prev, obj);
}

void Informer::watch_once(bool streaming) {
  auto cancel = std::make_shared<http::Cancellation>();
  std::string rv;
  {
    std::lock_guard<std::mutex> l(mu_);
    cancel_ = cancel;
    rv = rv_;
    ++stats_.watches;
  }
  if (stopping_) return;
  client::WatchOptions wo;
  if (streaming) {
    wo.send_initial_events = true;
    in_initial_ = true;
    initial_.clear();
  } else {
    wo.resource_version = rv;
  }
  wo.label_selector = opts_.label_selector;
  wo.field_selector = opts_.field_selector;
  wo.allow_watch_bookmarks = true;
  wo.timeout_seconds = random_watch_timeout();
  if (opts_.resync.count() > 0)  // come back in time for the next resync
    wo.timeout_seconds = std::max<std::int64_t>(1, std::min<std::int64_t>(*wo.timeout_seconds, opts_.resync.count() / 1000));
  auto started = std::chrono::steady_clock::now();
  try {
    client_.watch(opts_.gvr, opts_.ns, wo,
                  [&](json::EventType type, std::string_view raw, const json::MetaSummary& meta) {
                    handle_event(static_cast<int>(type), raw, meta);
                    return !stopping_.load();
                  },
                  cancel.get());
    if (std::chrono::steady_clock::now() - started > std::chrono::seconds(1)) backoff_ = std::chrono::milliseconds(0);
  } catch (const GoneSignal&) {
    log::info("watch expired (410 Gone); relisting", {{"resource", opts_.gvr.str()}, {"resourceVersion", rv}});
    std::lock_guard<std::mutex> l(mu_);
    need_list_ = true;
    ++stats_.relists_after_gone;
  } catch (const client::ApiError& e) {
    if (streaming && (e.code() == 422 || e.code() == 400)) {
      log::info("streaming lists unsupported; falling back to list and watch", {{"resource", opts_.gvr.str()}});
      std::lock_guard<std::mutex> l(mu_);
      streaming_unsupported_ = true;
    } else if (e.code() == 410) {
      log::info("watch expired (410 Gone); relisting", {{"resource", opts_.gvr.str()}, {"resourceVersion", rv}});
      std::lock_guard<std::mutex> l(mu_);
      need_list_ = true;
      ++stats_.relists_after_gone;
    } else {
      log::warn("watch failed", {{"resource", opts_.gvr.str()}, {"error", e.what()}});
      {
        std::lock_guard<std::mutex> l(mu_);
        ++stats_.errors;
      }
      sleep_backoff();
    }
  } catch (const std::exception& e) {
    if (stopping_) return;
    log::warn("watch interrupted; resuming", {{"resource", opts_.gvr.str()}, {"resourceVersion", rv}, {"error", e.what()}});
    {
      std::lock_guard<std::mutex> l(mu_);
      ++stats_.errors;
    }
    sleep_backoff();
  }
  in_initial_ = false;
  initial_.clear();
  std::lock_guard<std::mutex> l(mu_);
  cancel_.reset();
}

void Informer::sleep_backoff() {
  thread_local std::mt19937 rng(std::random_device{}());
  backoff_ = backoff_.count() == 0 ? kInitialBackoff : std::min(kMaxBackoff, backoff_ * 2);
  auto jittered = backoff_ + std::chrono::milliseconds(rng() % (backoff_.count() / 2 + 1));
  std::unique_lock<std::mutex> l(mu_);
  cv_.wait_for(l, jittered, [&] { return stopping_.load(); });
}

void Informer::maybe_resync() {
  if (opts_.resync.count() <= 0) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_resync_ < opts_.resync) return;
  last_resync_ = now;
  for (const auto& o : store_.list()) dispatch_update(o, o);
}

void Informer::run() {
  last_resync_ = std::chrono::steady_clock::now();
  while (!stopping_) {
    bool relist, streaming;
    {
      std::lock_guard<std::mutex> l(mu_);
      relist = need_list_;
      streaming = relist && opts_.streaming_list && !streaming_unsupported_;
    }
    if (streaming) {
      watch_once(true);
      maybe_resync();
      continue;
    }
    if (relist) {
      try {
        if (!list_and_swap()) break;
        std::lock_guard<std::mutex> l(mu_);
        need_list_ = false;
        backoff_ = std::chrono::milliseconds(0);
      } catch (const std::exception& e) {
        if (stopping_) break;
        log::warn("list failed; retrying", {{"resource", opts_.gvr.str()}, {"error", e.what()}});
        {
          std::lock_guard<std::mutex> l(mu_);
          ++stats_.errors;
        }
        sleep_backoff();
        continue;
      }
    }
    watch_once(false);
    maybe_resync();
  }
}

}  // namespace capstan::cache
