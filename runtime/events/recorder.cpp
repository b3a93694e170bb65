#include "runtime/events/recorder.h"

#include "runtime/client/client.h"
#include "runtime/log/log.h"

#include <unistd.h>

#include <random>

namespace capstan::events {
namespace {

const meta::GroupVersionResource kEvents{"", "v1", "events"};

std::string hostname() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) return "";
  return host;
}

CorrelatorOptions correlator_options(const Options& o) {
  CorrelatorOptions c;
  c.burst = o.burst;
  c.refill_interval = o.refill_interval;
  c.max_events = o.aggregate_max_events;
  c.max_interval = o.aggregate_interval;
  c.lru_size = o.lru_size;
  c.clock = o.clock;
  return c;
}

log::Fields describe(const Event& e) {
  return {{"object", e.involved.kind + " " + (e.involved.ns.empty() ? "" : e.involved.ns + "/") + e.involved.name},
          {"type", e.type},
          {"reason", e.reason},
          {"event", e.ns + "/" + e.name}};
}

}  // namespace

Recorder::Recorder(client::Client& client, Source source, Options options)
    : client_(client), source_(std::move(source)), opts_(std::move(options)), correlator_(correlator_options(opts_)) {
  if (source_.host.empty()) source_.host = hostname();
  thread_ = std::thread([this] { worker(); });
}

Recorder::~Recorder() { stop(); }

meta::TimePoint Recorder::now() const { return opts_.clock ? opts_.clock() : meta::Clock::now(); }

void Recorder::event(const json::Value& object, std::string_view type, std::string_view reason, std::string_view message) {
  annotated_event(object, {}, type, reason, message);
}

void Recorder::annotated_event(const json::Value& object, const std::map<std::string, std::string>& annotations,
                               std::string_view type, std::string_view reason, std::string_view message) {
  auto ref = ObjectReference::from_object(object);
  if (!ref) {
    log::error("could not build a reference to the object; event not recorded",
               {{"object", json::serialize(object).substr(0, 200)}, {"type", type}, {"reason", reason}});
    std::lock_guard<std::mutex> l(mu_);
    ++stats_.dropped;
    return;
  }
  if (type != kNormal && type != kWarning) {
    log::error("unsupported event type; event not recorded", {{"type", type}, {"reason", reason}});
    std::lock_guard<std::mutex> l(mu_);
    ++stats_.dropped;
    return;
  }
  Event e;
  e.involved = std::move(*ref);
  e.ns = event_namespace(e.involved);
  e.annotations = annotations;
  e.type = std::string(type);
  e.reason = std::string(reason);
  e.message = truncate_utf8(message, opts_.max_message_bytes);
  e.source = source_;
  e.reporting_component = source_.component;
  e.reporting_instance = source_.host;
  e.count = 1;

  std::lock_guard<std::mutex> l(mu_);
  if (stopping_) {
    ++stats_.dropped;
    return;
  }
  auto t = now();
  auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  if (nanos <= last_nanos_) nanos = last_nanos_ + 1;  // unique names even within one clock tick
  last_nanos_ = nanos;
  e.first_timestamp = e.last_timestamp = t;
  e.name = event_name(e.involved.name, meta::TimePoint(std::chrono::duration_cast<meta::TimePoint::duration>(
                                            std::chrono::nanoseconds(nanos))));
  if (queue_.size() >= opts_.queue_size) {
    // One line for the first drop and then one per 100, so a flood does not flood the log too.
    if (stats_.dropped++ % 100 == 0) {
      auto fields = describe(e);
      fields.emplace_back("droppedSoFar", static_cast<long long>(stats_.dropped));
      log::error("too many queued events; event dropped", fields);
    }
    return;
  }
  queue_.push_back(std::move(e));
  cv_.notify_one();
}

void Recorder::worker() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) break;  // stopping and drained
    if (stopping_ && std::chrono::steady_clock::now() >= stop_deadline_) {
      log::warn("recorder stopping; queued events dropped", {{"count", queue_.size()}});
      stats_.dropped += queue_.size();
      queue_.clear();
      break;
    }
    Event e = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    write(e);
    lock.lock();
    busy_ = false;
    if (queue_.empty()) idle_cv_.notify_all();
  }
  busy_ = false;
  idle_cv_.notify_all();
}

void Recorder::write(const Event& incoming) {
  CorrelateResult r = correlator_.correlate(incoming);
  if (r.skip) {
    log::debug("event dropped by the spam filter", describe(incoming));
    std::lock_guard<std::mutex> l(mu_);
    ++stats_.skipped;
    return;
  }
  thread_local std::mt19937_64 rng{std::random_device{}()};  // seeded once per thread, not per event
  for (int tries = 0;;) {
    if (record(r.event, r.patch)) return;
    if (++tries >= opts_.max_tries) {
      log::error("unable to write event (retry limit exceeded)", describe(r.event));
      std::lock_guard<std::mutex> l(mu_);
      ++stats_.failed;
      return;
    }
    // Randomise the first sleep so that clients do not retry in step after an outage.
    auto sleep = tries == 1 ? std::chrono::duration_cast<std::chrono::milliseconds>(
                                  opts_.retry_sleep * std::uniform_real_distribution<double>(0, 1)(rng))
                            : opts_.retry_sleep;
    std::unique_lock<std::mutex> lock(mu_);
    auto until = std::chrono::steady_clock::now() + sleep;
    for (;;) {
      auto now = std::chrono::steady_clock::now();
      if (stopping_ && now >= stop_deadline_) {
        ++stats_.dropped;
        return;
      }
      if (now >= until) break;
      cv_.wait_until(lock, stopping_ ? std::min(until, stop_deadline_) : until);
    }
  }
}

bool Recorder::record(Event& e, const std::optional<json::Value>& patch) {
  bool update_existing = e.count > 1 && patch;
  json::Value written;
  try {
    bool created = false;
    if (update_existing) {
      try {
        written = client_.patch(kEvents, e.ns, e.name, client::PatchType::StrategicMerge, *patch);
      } catch (const client::ApiError& err) {
        if (!client::is_not_found(err)) throw;
        update_existing = false;  // the Event was deleted (or expired): create it again
      }
    }
    if (!update_existing) {
      e.resource_version.clear();
      written = client_.create(kEvents, e.ns, e.to_json());
      created = true;
    }
    correlator_.update_state(Event::from_json(written));
    std::lock_guard<std::mutex> l(mu_);
    if (created) ++stats_.created;
    else ++stats_.patched;
    return true;
  } catch (const client::ApiError& err) {
    // The server answered: the request would fail the same way again.
    auto fields = describe(e);
    fields.emplace_back("error", err.what());
    if (client::is_already_exists(err)) log::debug("server rejected event (will not retry)", fields);
    else log::error("server rejected event (will not retry)", fields);
    std::lock_guard<std::mutex> l(mu_);
    ++stats_.failed;
    return true;
  } catch (const std::exception& err) {
    auto fields = describe(e);
    fields.emplace_back("error", err.what());
    log::warn("unable to write event (may retry after sleeping)", fields);
    return false;
  }
}

bool Recorder::flush(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return idle_cv_.wait_for(lock, timeout, [this] { return queue_.empty() && !busy_; });
}

void Recorder::stop() {
  {
    std::lock_guard<std::mutex> l(mu_);
    if (!stopping_) {
      stopping_ = true;
      stop_deadline_ = std::chrono::steady_clock::now() + opts_.flush_on_stop;
    }
    cv_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

RecorderStats Recorder::stats() const {
  std::lock_guard<std::mutex> l(mu_);
  return stats_;
}

}  // namespace capstan::events
