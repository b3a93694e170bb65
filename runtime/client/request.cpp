// The request pipeline: pacing, headers, metrics, Retry-After retries and typed errors.
#include "runtime/client/client_impl.h"

#include "runtime/client/mapper.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <thread>

namespace capstan::client {
namespace {

using Clock = std::chrono::steady_clock;

// client-go's rest_client_request_duration_seconds buckets (dashboards rely on them).
const std::vector<double> kLatencyBuckets = {0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0};
// client-go's rest_client_request_size_bytes buckets: 64 bytes to 16 MiB, by fours.
const std::vector<double> kSizeBuckets = {64, 256, 512, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216};

std::string authority_of(const std::string& server) {
  auto p = server.find("://");
  std::string rest = p == std::string::npos ? server : server.substr(p + 3);
  return rest.substr(0, rest.find('/'));
}

http::ClientOptions http_options(const Config& c) {
  http::ClientOptions o;
  o.tls.ca_pem = c.ca_pem;
  o.tls.insecure_skip_verify = c.insecure_skip_tls_verify;
  o.tls.cert_pem = c.client_cert_pem;
  o.tls.key_pem = c.client_key_pem;
  o.tls.server_name = c.tls_server_name;
  return o;
}

Config validated(Config c) {
  if (c.server.empty()) throw ConfigError("client config has no server URL");
  try {
    http::Url u = http::Url::parse(c.server);
    (void)u;
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("client config: ") + e.what());
  }
  return c;
}

std::optional<std::int64_t> retry_after(const http::Headers& h) {
  auto v = h.get("Retry-After");
  if (!v) return std::nullopt;
  std::string_view s = *v;
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  std::int64_t n = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || p != s.data() + s.size() || n < 0) return std::nullopt;
  return n;
}

}  // namespace

void Client::Impl::log_warnings(const RequestInfo& info, const http::Headers& h) {
  // `Warning: 299 - "text"` (deprecated APIs, unknown fields with fieldValidation=Warn).
  for (const auto& [name, value] : h.entries()) {
    if (!http::iequals(name, "Warning")) continue;
    std::string_view text = value;
    if (auto q = text.find('"'); q != std::string_view::npos && text.size() > q + 1 && text.back() == '"')
      text = text.substr(q + 1, text.size() - q - 2);
    if (options.deduplicate_warnings) {
      std::lock_guard<std::mutex> l(warnings_mu);
      if (!warnings_seen.emplace(text).second) continue;
    }
    logger.warn("the API server sent a warning", {{"request", info.describe()}, {"warning", text}});
  }
}

std::string Params::encode() const {
  auto sorted = items_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  http::Query q;
  for (auto& [k, v] : sorted) q.add(k, v);
  return q.encode();
}

Client::Impl::Impl(Config c, ClientOptions o)
    : config(validated(std::move(c))),
      options(o),
      http(http_options(config)),
      tokens(config.bearer_token, config.token_file, o.token) {
  base = config.server;
  while (!base.empty() && base.back() == '/') base.pop_back();
  host = authority_of(base);
  if (config.qps > 0) limiter = std::make_unique<TokenBucket>(config.qps, config.burst);
  metrics::Registry& reg = options.registry ? *options.registry : metrics::Registry::global();
  requests = &reg.counter("rest_client_requests_total",
                          "Number of HTTP requests sent to the API server, by status code, method and host.",
                          {"code", "method", "host"});
  latency = &reg.histogram("rest_client_request_duration_seconds",
                           "Request latency in seconds (watch: until the response headers), by verb and host.",
                           {"verb", "host"}, kLatencyBuckets);
  limiter_latency = &reg.histogram("rest_client_rate_limiter_duration_seconds",
                                   "Client-side rate limiter latency in seconds, by verb and host.", {"verb", "host"},
                                   kLatencyBuckets);
  request_size = &reg.histogram("rest_client_request_size_bytes", "Request body size in bytes, by verb and host.", {"verb", "host"},
                                kSizeBuckets);
  logger = log::Logger({{"component", "client"}, {"server", host}});
}

std::string Client::Impl::url(const std::string& path, const Params& query) const {
  std::string u = base + path;
  if (!query.empty()) u += "?" + query.encode();
  return u;
}

namespace {

// An Impersonate-Extra-<key> header name: the key percent-encoded as client-go's
// url.PathEscape does (header names cannot carry every character an extra key may hold).
std::string extra_header(std::string_view key) { return "Impersonate-Extra-" + http::percent_encode(key); }

}  // namespace

http::Headers Client::Impl::headers(std::string_view content_type, const Impersonation* as) {
  http::Headers h;
  h.set("Accept", "application/json");
  h.set("User-Agent", config.user_agent.empty() ? "capstan" : config.user_agent);
  if (!tokens.empty()) {
    std::string t = tokens.token();
    if (!t.empty()) h.set("Authorization", "Bearer " + t);
  }
  if (!content_type.empty()) h.set("Content-Type", content_type);
  if (as && !as->empty()) {
    h.set("Impersonate-User", as->user);
    if (!as->uid.empty()) h.set("Impersonate-Uid", as->uid);
    for (const auto& g : as->groups) h.add("Impersonate-Group", g);
    for (const auto& [key, values] : as->extra)
      for (const auto& v : values) h.add(extra_header(key), v);
  }
  return h;
}

void Client::Impl::throttle(std::string_view method, http::Cancellation* cancel, const RequestInfo& info) {
  if (!limiter) return;
  auto waited = limiter->reserve();
  if (waited.count() > 0 && !sleep_unless_cancelled(std::chrono::ceil<std::chrono::milliseconds>(waited), cancel)) {
    limiter->cancel_reservation();
    throw http::Cancelled(info.describe() + ": cancelled while waiting for client-side rate limiting");
  }
  limiter_latency->with({std::string(method), host}).observe(waited);
  if (waited > std::chrono::seconds(1))
    logger.debug("waited due to client-side throttling",
                 {{"method", method}, {"seconds", std::chrono::duration<double>(waited).count()}});
}

void Client::Impl::record(std::string_view method, int status, Clock::time_point start) {
  std::string code = status > 0 ? std::to_string(status) : std::string("<error>");
  requests->with({code, std::string(method), host}).inc();
  latency->with({std::string(method), host}).observe(Clock::now() - start);
}

http::Response Client::Impl::execute(const Call& call, http::Cancellation* given) {
  CallCancellation cancellation(given);
  http::Cancellation* cancel = cancellation.get();
  std::string target = url(call.path, call.query);
  http::Headers h = headers(call.content_type, call.as);
  for (int attempt = 0;; ++attempt) {
    throttle(call.method, cancel, call.info);
    request_size->with({call.method, host}).observe(static_cast<double>(call.body.size()));
    auto start = Clock::now();
    http::Response r;
    try {
      r = http.request(call.method, target, h, call.body, config.timeout, cancel);
    } catch (const http::TransportError&) {
      record(call.method, 0, start);
      throw;
    }
    record(call.method, r.status, start);
    logger.trace("request", {{"method", call.method},
                             {"url", target},
                             {"status", r.status},
                             {"ms", std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count()}});
    log_warnings(call.info, r.headers);
    if (r.status >= 200 && r.status < 300) return r;
    auto after = retry_after(r.headers);
    if (retryable(r.status) && after && attempt < options.max_retries) {
      logger.info("retrying after the server asked to wait",
                  {{"request", call.info.describe()}, {"status", r.status}, {"retryAfterSeconds", *after},
                   {"attempt", attempt + 1}});
      if (!sleep_unless_cancelled(std::chrono::seconds(*after), cancel))
        throw http::Cancelled(call.info.describe() + ": cancelled while waiting " + std::to_string(*after) +
                              "s to retry after HTTP " + std::to_string(r.status));
      continue;
    }
    throw error_from_response(r.status, r.headers, r.body, call.info);
  }
}

bool sleep_unless_cancelled(std::chrono::milliseconds d, http::Cancellation* cancel) {
  auto until = Clock::now() + d;
  while (Clock::now() < until) {
    if (cancel && cancel->cancelled()) return false;
    auto left = until - Clock::now();
    std::this_thread::sleep_for(std::min<Clock::duration>(left, std::chrono::milliseconds(20)));
  }
  return !(cancel && cancel->cancelled());
}

json::Value parse_body(const http::Response& r, const RequestInfo& info) {
  if (r.body.empty()) return nullptr;
  try {
    return json::parse(r.body, info.describe() + " response");
  } catch (const json::ParseError& e) {
    Status st;
    st.status = "Failure";
    st.code = r.status;
    st.reason = "InternalError";
    st.message = std::string("the response body is not JSON: ") + e.what();
    throw ApiError(std::move(st), info);
  }
}

}  // namespace capstan::client
