// client-go's EventCorrelator (tools/record/events_cache.go): aggregation of similar events,
// de-duplication into counts, and the per source+object spam filter. Thread-safe.
//
//  - Aggregation: when `max_events` events differing only by message are seen for the same
//    source, object, type and reason within `max_interval`, a new event with the message
//    "(combined from similar events): <message>" replaces them (and is counted from then on).
//  - De-duplication: an identical event (same source, object, type, reason, message) seen
//    before becomes a PATCH of the earlier Event's count, lastTimestamp and message.
//  - Spam filter: a token bucket per source+object, `burst` tokens refilled at one per
//    `refill_interval`; an event without a token is skipped.
#pragma once

#include "runtime/events/event.h"
#include "runtime/events/lru.h"

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <set>

namespace capstan::events {

struct CorrelatorOptions {
  int burst = 25;
  std::chrono::milliseconds refill_interval{300000};  // 1/300 qps
  std::size_t max_events = 10;
  std::chrono::milliseconds max_interval{600000};
  std::size_t lru_size = 4096;
  std::function<meta::TimePoint()> clock;  // empty = the system clock
};

struct CorrelateResult {
  Event event;
  // Set when the event updates an existing one: the strategic-merge patch body
  // {"count":N,"lastTimestamp":"...","message":"..."}.
  std::optional<json::Value> patch;
  bool skip = false;  // dropped by the spam filter
};

class Correlator {
 public:
  explicit Correlator(CorrelatorOptions options = {});

  CorrelateResult correlate(const Event& e);
  // Records the server's answer (name, resourceVersion, count) for later de-duplication.
  void update_state(const Event& from_server);

 private:
  struct SpamRecord {
    double tokens = 0;
    meta::TimePoint last{};
  };
  struct AggregateRecord {
    std::set<std::string> local_keys;
    meta::TimePoint last{};
  };
  struct EventLog {
    std::int32_t count = 0;
    meta::TimePoint first{};
    std::string name;
    std::string resource_version;
  };

  meta::TimePoint now() const;
  std::pair<Event, std::string> aggregate(const Event& e, meta::TimePoint now);
  std::pair<Event, std::optional<json::Value>> observe(Event e, const std::string& key);
  bool filter(const Event& e, meta::TimePoint now);

  CorrelatorOptions opts_;
  std::mutex mu_;
  LruCache<SpamRecord> spam_;
  LruCache<AggregateRecord> aggregates_;
  LruCache<EventLog> logs_;
};

}  // namespace capstan::events
