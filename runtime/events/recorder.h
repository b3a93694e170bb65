// The core/v1 Event recorder (client-go tools/record: EventRecorder + broadcaster + sink with
// the EventCorrelator). `kubectl describe` shows these events.
//
//   events::Recorder recorder(client, {"capstan-certificates", hostname});
//   recorder.event(certificate, events::kWarning, "Failed", "issuer not ready");
//
// event() never blocks: it builds the Event (name "<object>.<hex unix nanos>", namespace of
// the object or "default" when cluster-scoped, count 1, first/lastTimestamp now) and queues
// it; a background thread correlates it (see correlator.h) and writes it: a new Event is
// POSTed; a repeat of the same (object, type, reason, message) PATCHes the existing Event's
// count and lastTimestamp (strategic merge), falling back to a create when it was deleted.
// A full queue drops the event with a log line. Transport failures are retried (up to
// max_tries, sleeping retry_sleep, the first sleep randomised); an error answer from the API
// server is logged and the event abandoned, as client-go does.
#pragma once

#include "runtime/events/correlator.h"
#include "runtime/events/event.h"
#include "runtime/json/json.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace capstan::client {
class Client;
}

namespace capstan::events {

struct Options {
  // Spam filter per source+object: `burst` events, then one more per refill_interval.
  int burst = 25;
  std::chrono::milliseconds refill_interval{300000};
  // Aggregation: this many events differing only by message within the interval.
  std::size_t aggregate_max_events = 10;
  std::chrono::milliseconds aggregate_interval{600000};
  std::size_t lru_size = 4096;
  std::size_t queue_size = 1000;          // client-go's maxQueuedEvents
  int max_tries = 12;                     // maxTriesPerEvent
  std::chrono::milliseconds retry_sleep{10000};
  // Messages are cut to this many bytes (on a UTF-8 boundary); 0 = unlimited. core/v1 itself
  // sets no limit; 1 KiB is the events.k8s.io/v1 note limit, kept so messages stay portable.
  std::size_t max_message_bytes = 1024;
  // When stopping, queued events are still written for at most this long.
  std::chrono::milliseconds flush_on_stop{5000};
  std::function<meta::TimePoint()> clock;  // tests; empty = the system clock
};

struct RecorderStats {
  std::uint64_t created = 0;
  std::uint64_t patched = 0;
  std::uint64_t skipped = 0;   // spam filter
  std::uint64_t dropped = 0;   // queue full, invalid input, or stopped
  std::uint64_t failed = 0;    // rejected by the server or out of tries
};

class Recorder {
 public:
  // `source.host` empty = this machine's hostname.
  Recorder(client::Client& client, Source source, Options options = {});
  ~Recorder();  // stop()
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Records an event about `object` (a Kubernetes object with apiVersion, kind and metadata,
  // or an ObjectReference). `type` must be "Normal" or "Warning" (else logged and dropped).
  void event(const json::Value& object, std::string_view type, std::string_view reason, std::string_view message);
  // The same with annotations on the Event (client-go's AnnotatedEventf).
  void annotated_event(const json::Value& object, const std::map<std::string, std::string>& annotations,
                       std::string_view type, std::string_view reason, std::string_view message);
  void normal(const json::Value& object, std::string_view reason, std::string_view message) {
    event(object, kNormal, reason, message);
  }
  void warning(const json::Value& object, std::string_view reason, std::string_view message) {
    event(object, kWarning, reason, message);
  }

  // Waits until every queued event has been written (or given up); false on timeout.
  bool flush(std::chrono::milliseconds timeout);
  // Stops accepting events, writes what is queued (for at most flush_on_stop), joins. Idempotent.
  void stop();

  RecorderStats stats() const;
  const Source& source() const { return source_; }

 private:
  void worker();
  void write(const Event& e);
  // One attempt; true when done (written or abandoned), false to retry.
  bool record(Event& e, const std::optional<json::Value>& patch);
  meta::TimePoint now() const;

  client::Client& client_;
  Source source_;
  Options opts_;
  Correlator correlator_;

  mutable std::mutex mu_;
  std::condition_variable cv_;       // work queued / stopping
  std::condition_variable idle_cv_;  // queue drained
  std::deque<Event> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  std::chrono::steady_clock::time_point stop_deadline_{};
  RecorderStats stats_;
  std::int64_t last_nanos_ = 0;  // keeps event names unique within this recorder
  std::thread thread_;
};

}  // namespace capstan::events
