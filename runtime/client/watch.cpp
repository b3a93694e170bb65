// WATCH: one streaming GET decoded line by line with json::WatchDecoder.
#include "runtime/client/client.h"

#include "runtime/client/client_impl.h"

namespace capstan::client {

WatchResult Client::watch(const meta::GroupVersionResource& gvr, std::string_view ns, const WatchOptions& options,
                          const WatchHandler& on_event, http::Cancellation* given) {
  CallCancellation cancellation(given);  // the caller's, else the thread's CancelScope
  http::Cancellation* cancel = cancellation.get();
  RequestInfo info{"watch", gvr.group_resource(), std::string(ns), "", ""};
  Params q;
  q.add_if(options.allow_watch_bookmarks || options.send_initial_events, "allowWatchBookmarks", "true");
  q.add_if(!options.field_selector.empty(), "fieldSelector", options.field_selector);
  q.add_if(!options.label_selector.empty(), "labelSelector", options.label_selector);
  if (options.resource_version) q.add("resourceVersion", *options.resource_version);
  if (options.send_initial_events) {
    q.add("resourceVersionMatch", "NotOlderThan");
    q.add("sendInitialEvents", "true");
  }
  if (options.timeout_seconds) q.add("timeoutSeconds", std::to_string(*options.timeout_seconds));
  q.add("watch", "true");
  const std::string target = impl_->url(gvr.path(ns), q);
  const http::Headers headers = impl_->headers({}, &as_);
  std::chrono::milliseconds idle = options.idle_timeout;
  if (idle.count() <= 0)
    idle = options.timeout_seconds ? std::chrono::seconds(*options.timeout_seconds + 60) : std::chrono::minutes(10);
  auto cancelled = [&] { return cancel && cancel->cancelled(); };

  for (int attempt = 0;; ++attempt) {
    if (cancelled()) return {WatchEnd::Cancelled, 0, 0};
    impl_->throttle("GET", cancel, info);
    WatchResult result;
    bool stopped = false;
    json::WatchDecoder decoder(
        [&](json::EventType type, std::string_view object, const json::MetaSummary& meta) {
          if (stopped) return;
          ++result.events;
          if (!on_event(type, object, meta)) stopped = true;
        },
        info.describe());
    bool head_seen = false;
    auto start = std::chrono::steady_clock::now();
    http::Client::StreamResult sr;
    try {
      sr = impl_->http.stream(
          "GET", target, headers, {},
          [&](int status, const http::Headers&) {
            head_seen = true;
            impl_->record("GET", status, start);
            return status == 200;
          },
          [&](std::string_view data) {
            decoder.feed(data);
            return !stopped;
          },
          cancel, idle);
    } catch (const http::TransportError&) {
      if (!head_seen) impl_->record("GET", 0, start);
      throw;
    }
    result.skipped = decoder.skipped();
    if (sr.status == 0) return {WatchEnd::Cancelled, 0, 0};  // cancelled before the response head
    if (sr.status != 200) {
      ApiError err = error_from_response(sr.status, sr.headers, sr.error_body, info);
      auto after = err.retry_after_seconds();
      if (Impl::retryable(sr.status) && sr.headers.get("Retry-After") && after &&
          attempt < impl_->options.max_retries) {
        impl_->logger.info("retrying watch after the server asked to wait",
                           {{"request", info.describe()}, {"status", sr.status}, {"retryAfterSeconds", *after}});
        if (!sleep_unless_cancelled(std::chrono::seconds(*after), cancel)) return {WatchEnd::Cancelled, 0, 0};
        continue;
      }
      throw err;
    }
    if (cancelled()) {
      result.end = WatchEnd::Cancelled;
    } else if (stopped) {
      result.end = WatchEnd::Stopped;
    } else {
      decoder.finish();  // a last line without its newline
      result.skipped = decoder.skipped();
      result.end = stopped ? WatchEnd::Stopped : WatchEnd::Closed;
    }
    return result;
  }
}

}  // namespace capstan::client
