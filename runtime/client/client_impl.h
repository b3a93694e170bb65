// Internal: the state behind Client and the request pipeline shared by its .cpp files
// (rate limit -> send -> metrics -> Retry-After retries -> typed errors).
#pragma once

#include "runtime/client/client.h"
#include "runtime/client/discovery.h"
#include "runtime/client/rate_limiter.h"
#include "runtime/http/client.h"
#include "runtime/log/log.h"
#include "runtime/metrics/registry.h"

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

namespace capstan::client {

// Query parameters, encoded sorted by key as client-go's url.Values does.
class Params {
 public:
  void add(std::string key, std::string value) { items_.emplace_back(std::move(key), std::move(value)); }
  void add_if(bool cond, std::string key, std::string value) {
    if (cond) add(std::move(key), std::move(value));
  }
  bool empty() const { return items_.empty(); }
  std::string encode() const;  // "a=1&b=x%2Fy" (no leading '?')

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

struct Call {
  std::string method;  // HTTP method
  RequestInfo info;
  std::string path;  // "/api/v1/namespaces/default/configmaps"
  Params query;
  std::string body;
  std::string content_type;  // set when there is a body
  const Impersonation* as = nullptr;  // whom the request acts as (null/empty = nobody)
};

// The cancellation one call runs under: `given` when set, else one that fires with the
// calling thread's CancelScope token (none when there is no scope).
class CallCancellation {
 public:
  explicit CallCancellation(http::Cancellation* given);
  CallCancellation(const CallCancellation&) = delete;
  CallCancellation& operator=(const CallCancellation&) = delete;
  http::Cancellation* get() const { return cancel_; }

 private:
  http::Cancellation own_;
  http::Cancellation* cancel_ = nullptr;
  // Declared after own_: unregistered (waiting for a running callback) before own_ goes.
  std::optional<std::stop_callback<std::function<void()>>> on_stop_;
};

struct Client::Impl {
  Impl(Config config, ClientOptions options);

  // Runs a request with pacing, metrics and Retry-After retries; throws ApiError for a
  // final non-2xx status, http::TransportError for transport failures and http::Cancelled
  // when `cancel` (default: the thread's CancelScope) fires, in flight or in a Retry-After wait.
  http::Response execute(const Call& call, http::Cancellation* cancel = nullptr);
  std::string url(const std::string& path, const Params& query) const;
  // Accept, User-Agent, Authorization, Content-Type and the Impersonate-* headers for `as`.
  http::Headers headers(std::string_view content_type = {}, const Impersonation* as = nullptr);
  // Waits for a rate-limiter token and records the wait; throws http::Cancelled (the token
  // given back) when `cancel` fires meanwhile.
  void throttle(std::string_view method, http::Cancellation* cancel, const RequestInfo& info);
  void record(std::string_view method, int status, std::chrono::steady_clock::time_point start);
  // Logs the response's Warning headers (each text once with options.deduplicate_warnings).
  void log_warnings(const RequestInfo& info, const http::Headers& h);
  // Whether a response is retried after its Retry-After (429 and 5xx with the header).
  static bool retryable(int status) { return status == 429 || status >= 500; }

  Config config;
  ClientOptions options;
  std::string base;  // server URL without a trailing '/'
  std::string host;  // "host:port" as written in the server URL (metrics label)
  http::Client http;
  std::unique_ptr<TokenBucket> limiter;  // null = unlimited
  TokenSource tokens;
  metrics::CounterFamily* requests = nullptr;
  metrics::HistogramFamily* latency = nullptr;
  metrics::HistogramFamily* limiter_latency = nullptr;
  metrics::HistogramFamily* request_size = nullptr;
  log::Logger logger;
  std::mutex warnings_mu;
  std::set<std::string, std::less<>> warnings_seen;
  std::unique_ptr<Discovery> discovery;
  std::unique_ptr<RestMapper> mapper;
};

// Sleeps for `d`, returning early (false) when `cancel` fires.
bool sleep_unless_cancelled(std::chrono::milliseconds d, http::Cancellation* cancel);

// Parses a response body as JSON, naming the request in errors; an empty body is null.
json::Value parse_body(const http::Response& r, const RequestInfo& info);

}  // namespace capstan::client
