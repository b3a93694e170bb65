#include "runtime/events/correlator.h"

#include <algorithm>

namespace capstan::events {

Correlator::Correlator(CorrelatorOptions options)
    : opts_(std::move(options)), spam_(opts_.lru_size), aggregates_(opts_.lru_size), logs_(opts_.lru_size) {}

meta::TimePoint Correlator::now() const { return opts_.clock ? opts_.clock() : meta::Clock::now(); }

CorrelateResult Correlator::correlate(const Event& e) {
  std::lock_guard<std::mutex> l(mu_);
  auto t = now();
  auto [aggregated, key] = aggregate(e, t);
  auto [observed, patch] = observe(std::move(aggregated), key);
  CorrelateResult r;
  if (filter(observed, t)) {
    r.skip = true;
    return r;
  }
  r.event = std::move(observed);
  r.patch = std::move(patch);
  return r;
}

std::pair<Event, std::string> Correlator::aggregate(const Event& e, meta::TimePoint t) {
  std::string full_key = event_key(e);
  auto [agg_key, local_key] = aggregate_key(e);
  AggregateRecord record;
  if (auto* found = aggregates_.get(agg_key)) record = *found;
  if (t - record.last > opts_.max_interval) record = AggregateRecord{};
  record.local_keys.insert(local_key);
  record.last = t;
  if (record.local_keys.size() < opts_.max_events) {
    aggregates_.add(agg_key, std::move(record));
    return {e, full_key};
  }
  // Do not grow the set beyond the maximum (client-go's PopAny on the cached set).
  record.local_keys.erase(record.local_keys.begin());
  aggregates_.add(agg_key, std::move(record));

  Event combined;
  combined.name = event_name(e.involved.name, t);
  combined.ns = e.ns;
  combined.count = 1;
  combined.first_timestamp = t;
  combined.last_timestamp = t;
  combined.involved = e.involved;
  combined.message = "(combined from similar events): " + e.message;
  combined.type = e.type;
  combined.reason = e.reason;
  combined.source = e.source;
  combined.reporting_component = e.reporting_component;
  combined.reporting_instance = e.reporting_instance;
  return {combined, agg_key};
}

std::pair<Event, std::optional<json::Value>> Correlator::observe(Event e, const std::string& key) {
  std::optional<json::Value> patch;
  EventLog last;
  if (auto* found = logs_.get(key)) last = *found;
  if (last.count > 0) {
    e.name = last.name;
    e.resource_version = last.resource_version;
    e.first_timestamp = last.first;
    e.count = last.count + 1;
    // The two-way strategic merge patch client-go computes from (count 0, lastTimestamp 0,
    // message "") to the event: exactly these three fields.
    json::Object p{{"count", e.count}, {"lastTimestamp", meta::format_rfc3339(e.last_timestamp)}};
    if (!e.message.empty()) p["message"] = e.message;
    patch = json::Value(std::move(p));
  }
  logs_.add(key, EventLog{e.count, e.first_timestamp, e.name, e.resource_version});
  return {std::move(e), std::move(patch)};
}

bool Correlator::filter(const Event& e, meta::TimePoint t) {
  std::string key = spam_key(e);
  SpamRecord record;
  if (auto* found = spam_.get(key)) {
    record = *found;
  } else {
    record.tokens = opts_.burst;  // a new bucket starts full
    record.last = t;
  }
  if (t > record.last && opts_.refill_interval.count() > 0) {
    double elapsed = std::chrono::duration<double, std::milli>(t - record.last).count();
    record.tokens = std::min<double>(opts_.burst, record.tokens + elapsed / static_cast<double>(opts_.refill_interval.count()));
  }
  record.last = std::max(record.last, t);
  bool skip = record.tokens < 1.0;
  if (!skip) record.tokens -= 1.0;
  spam_.add(key, record);
  return skip;
}

void Correlator::update_state(const Event& from_server) {
  std::lock_guard<std::mutex> l(mu_);
  logs_.add(event_key(from_server),
            EventLog{from_server.count, from_server.first_timestamp, from_server.name, from_server.resource_version});
}

}  // namespace capstan::events
