#include "controllers/certificates/acme/client.h"

#include "controllers/certificates/acme/http_headers.h"
#include "runtime/log/log.h"
#include "runtime/meta/base64.h"
#include "runtime/metrics/registry.h"
#include "runtime/pki/certificate.h"

#include <functional>
#include <mutex>
#include <thread>

namespace capstan::certificates::acme {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr std::string_view kJoseJson = "application/jose+json";
constexpr std::string_view kPemChain = "application/pem-certificate-chain";

std::string contact_uri(std::string_view email) {
  if (email.substr(0, 7) == "mailto:") return std::string(email);
  return "mailto:" + std::string(email);
}

json::Array contacts(std::string_view email) {
  json::Array a;
  if (!email.empty()) a.emplace_back(contact_uri(email));
  return a;
}

std::string payload_text(json::Object o) { return json::serialize(json::Value(std::move(o))); }

[[noreturn]] void fail_response(const RequestContext& ctx, int status, std::string detail) {
  Problem p;
  p.detail = std::move(detail);
  throw AcmeError(std::move(p), status, ctx);
}

json::Object body_object(const http::Response& resp, const RequestContext& ctx) {
  auto v = json::try_parse(resp.body);
  if (!v || !v->is_object()) {
    std::string start = resp.body.substr(0, 128);
    fail_response(ctx, resp.status, "response is not a JSON object: \"" + start + "\"");
  }
  return std::move(v->as_object());
}

std::string location(const http::Response& resp, const RequestContext& ctx) {
  auto loc = resp.headers.get("Location");
  if (!loc || loc->empty()) fail_response(ctx, resp.status, "response has no Location header");
  return std::string(*loc);
}

void expect_status(const http::Response& resp, const RequestContext& ctx, std::initializer_list<int> ok) {
  for (int s : ok)
    if (resp.status == s) return;
  fail_response(ctx, resp.status, "unexpected HTTP status " + std::to_string(resp.status));
}

bool still_pending(std::string_view s) { return s == status::kPending || s == status::kProcessing; }

}  // namespace

struct Client::Impl {
  std::string directory_url;
  http::Client http;
  ClientConfig config;
  NoncePool nonces;
  metrics::CounterFamily* requests;
  metrics::HistogramFamily* durations;
  log::Logger logger;

  std::mutex dir_mu;
  std::optional<Directory> dir;

  Impl(std::string url, http::ClientOptions http_options, metrics::Registry* registry, ClientConfig cfg)
      : directory_url(std::move(url)),
        http(std::move(http_options)),
        config(cfg),
        nonces(cfg.nonce_pool_capacity),
        logger({{"component", "acme-client"}, {"directory", directory_url}}) {
    metrics::Registry& reg = registry ? *registry : metrics::Registry::global();
    requests = &reg.counter("capstan_acme_client_requests_total",
                            "Requests sent to ACME servers, by action, HTTP method and response status",
                            {"action", "method", "status"});
    durations = &reg.histogram("capstan_acme_client_request_duration_seconds",
                               "Latency of requests to ACME servers, by action", {"action"});
  }

  // One HTTP exchange, measured. Transport failures count with status "error".
  http::Response send(const RequestContext& ctx, const http::Headers& headers, std::string_view body) {
    auto start = Clock::now();
    try {
      http::Response resp = http.request(ctx.method, ctx.url, headers, body, config.request_timeout);
      durations->with({ctx.action}).observe(Clock::now() - start);
      requests->with({ctx.action, ctx.method, std::to_string(resp.status)}).inc();
      logger.debug("ACME request", {{"action", ctx.action}, {"method", ctx.method}, {"url", ctx.url},
                                    {"status", resp.status}});
      return resp;
    } catch (const http::TransportError& e) {
      durations->with({ctx.action}).observe(Clock::now() - start);
      requests->with({ctx.action, ctx.method, "error"}).inc();
      logger.debug("ACME request failed", {{"action", ctx.action}, {"method", ctx.method}, {"url", ctx.url},
                                           {"error", e.what()}});
      throw http::TransportError("ACME " + ctx.action + ": " + e.what());
    }
  }

  // Runs `attempt` until it succeeds, retrying a badNonce once (signed requests) and 429/503
  // with a short Retry-After; throws AcmeError otherwise.
  http::Response exchange(const RequestContext& ctx, bool is_signed, const std::function<http::Response()>& attempt) {
    bool nonce_retried = false;
    int retries = 0;
    for (;;) {
      http::Response resp = attempt();
      if (auto n = resp.headers.get("Replay-Nonce")) nonces.put(std::string(*n));
      if (resp.status < 400) return resp;
      Problem problem = parse_problem_body(resp.body);
      if (is_signed && !nonce_retried && problem_is(problem.type, errors::kBadNonce)) {
        nonce_retried = true;
        logger.debug("ACME badNonce, retrying with a fresh nonce", {{"action", ctx.action}, {"url", ctx.url}});
        continue;
      }
      auto wait = retry_after(resp.headers);
      if ((resp.status == 429 || resp.status == 503) && wait && *wait <= config.max_retry_after_wait &&
          retries < config.max_retries) {
        ++retries;
        logger.info("ACME server asked to retry later", {{"action", ctx.action}, {"url", ctx.url},
                                                          {"status", resp.status},
                                                          {"retryAfterSeconds", static_cast<long>(wait->count())}});
        std::this_thread::sleep_for(*wait);
        continue;
      }
      throw AcmeError(std::move(problem), resp.status, ctx, wait);
    }
  }

  http::Response get(std::string_view action, std::string_view url) {
    RequestContext ctx{std::string(action), "GET", std::string(url)};
    return exchange(ctx, false, [&] { return send(ctx, {}, {}); });
  }

  Directory directory() {
    std::lock_guard<std::mutex> l(dir_mu);
    if (dir) return *dir;
    RequestContext ctx{"directory", "GET", directory_url};
    http::Response resp = get(ctx.action, ctx.url);
    expect_status(resp, ctx, {200});
    try {
      dir = parse_directory(body_object(resp, ctx));
    } catch (const std::invalid_argument& e) {
      fail_response(ctx, resp.status, e.what());
    }
    return *dir;
  }

  std::string fresh_nonce() {
    if (auto n = nonces.take()) return *n;
    std::string url = directory().new_nonce;
    RequestContext ctx{"nonce", "GET", url};
    for (int attempt = 0;; ++attempt) {
      // HEAD would do (RFC 8555 §7.2), but GET (204 No Content) needs no special body handling.
      http::Response resp = get(ctx.action, ctx.url);
      expect_status(resp, ctx, {200, 204});
      if (!resp.headers.get("Replay-Nonce")) fail_response(ctx, resp.status, "newNonce response has no Replay-Nonce header");
      // exchange() pooled it; another thread may have taken it meanwhile.
      if (auto n = nonces.take()) return *n;
      if (attempt == 2) fail_response(ctx, resp.status, "could not keep a fresh nonce");
    }
  }

  // A signed POST: `kid` empty = embed the JWK. `payload` empty = POST-as-GET.
  http::Response post(std::string_view action, std::string_view url, const Signer& key, std::string_view kid,
                      std::string_view payload, std::string_view accept = {}) {
    RequestContext ctx{std::string(action), "POST", std::string(url)};
    return exchange(ctx, true, [&] {
      std::string body = sign_flattened(key, {fresh_nonce(), std::string(url), std::string(kid)}, payload);
      http::Headers headers{{"Content-Type", std::string(kJoseJson)}};
      if (!accept.empty()) headers.set("Accept", accept);
      return send(ctx, headers, body);
    });
  }

  // POST-as-GET of an account-owned resource, returning the response (for Retry-After).
  http::Response post_as_get(std::string_view action, const Account& account, std::string_view url,
                             std::string_view accept = {}) {
    return post(action, url, account.key, account.url, "", accept);
  }
};

Client::Client(std::string directory_url, http::ClientOptions http_options, metrics::Registry* registry,
               ClientConfig config)
    : impl_(std::make_unique<Impl>(std::move(directory_url), std::move(http_options), registry, config)) {}

Client::~Client() = default;

const std::string& Client::directory_url() const { return impl_->directory_url; }
Directory Client::directory() { return impl_->directory(); }
NoncePool& Client::nonce_pool() { return impl_->nonces; }

Registration Client::register_account(const Signer& key, std::string_view email, bool terms_agreed,
                                      const std::optional<ExternalAccountBinding>& eab) {
  Directory dir = impl_->directory();
  json::Object payload;
  payload["termsOfServiceAgreed"] = terms_agreed;
  if (!email.empty()) payload["contact"] = contacts(email);
  if (eab) {
    payload["externalAccountBinding"] =
        external_account_binding(eab->key_id, eab->mac_key, eab->algorithm, key.jwk(), dir.new_account);
  }
  RequestContext ctx{"new_account", "POST", dir.new_account};
  http::Response resp = impl_->post(ctx.action, ctx.url, key, "", payload_text(std::move(payload)));
  expect_status(resp, ctx, {200, 201});
  Registration reg = parse_registration(body_object(resp, ctx));
  reg.url = location(resp, ctx);
  reg.created = resp.status == 201;
  impl_->logger.info(reg.created ? "registered ACME account" : "found existing ACME account",
                     {{"account", reg.url}, {"status", reg.status}});
  return reg;
}

std::optional<Registration> Client::lookup_account(const Signer& key) {
  Directory dir = impl_->directory();
  json::Object payload;
  payload["onlyReturnExisting"] = true;
  RequestContext ctx{"new_account", "POST", dir.new_account};
  try {
    http::Response resp = impl_->post(ctx.action, ctx.url, key, "", payload_text(std::move(payload)));
    expect_status(resp, ctx, {200});
    Registration reg = parse_registration(body_object(resp, ctx));
    reg.url = location(resp, ctx);
    return reg;
  } catch (const AcmeError& e) {
    if (e.is(errors::kAccountDoesNotExist)) return std::nullopt;
    throw;
  }
}

Registration Client::get_account(const Account& account) {
  RequestContext ctx{"account", "POST", account.url};
  http::Response resp = impl_->post_as_get(ctx.action, account, account.url);
  expect_status(resp, ctx, {200});
  Registration reg = parse_registration(body_object(resp, ctx));
  reg.url = account.url;
  return reg;
}

Registration Client::update_account(const Account& account, std::string_view email) {
  json::Object payload;
  payload["contact"] = contacts(email);
  RequestContext ctx{"account", "POST", account.url};
  http::Response resp = impl_->post(ctx.action, ctx.url, account.key, account.url, payload_text(std::move(payload)));
  expect_status(resp, ctx, {200});
  Registration reg = parse_registration(body_object(resp, ctx));
  reg.url = account.url;
  return reg;
}

Order Client::new_order(const Account& account, const std::vector<Identifier>& identifiers) {
  if (identifiers.empty()) throw std::invalid_argument("ACME new_order: no identifiers");
  Directory dir = impl_->directory();
  json::Array ids;
  for (const auto& id : identifiers) {
    json::Object o;
    o["type"] = id.type;
    o["value"] = id.value;
    ids.emplace_back(std::move(o));
  }
  json::Object payload;
  payload["identifiers"] = std::move(ids);
  RequestContext ctx{"new_order", "POST", dir.new_order};
  http::Response resp = impl_->post(ctx.action, ctx.url, account.key, account.url, payload_text(std::move(payload)));
  expect_status(resp, ctx, {200, 201});
  Order order = parse_order(body_object(resp, ctx), location(resp, ctx));
  impl_->logger.debug("created ACME order", {{"order", order.url}, {"status", order.status}});
  return order;
}

Order Client::get_order(const Account& account, std::string_view url) {
  RequestContext ctx{"order", "POST", std::string(url)};
  http::Response resp = impl_->post_as_get(ctx.action, account, url);
  expect_status(resp, ctx, {200});
  return parse_order(body_object(resp, ctx), std::string(url));
}

Authorization Client::get_authorization(const Account& account, std::string_view url) {
  RequestContext ctx{"authorization", "POST", std::string(url)};
  http::Response resp = impl_->post_as_get(ctx.action, account, url);
  expect_status(resp, ctx, {200});
  return parse_authorization(body_object(resp, ctx), std::string(url));
}

Challenge Client::accept_challenge(const Account& account, std::string_view url) {
  RequestContext ctx{"challenge", "POST", std::string(url)};
  http::Response resp = impl_->post(ctx.action, url, account.key, account.url, "{}");
  expect_status(resp, ctx, {200});
  return parse_challenge(body_object(resp, ctx));
}

namespace {

// Polls `fetch` (returning the resource's status and the response's Retry-After) until
// `done(status)`, within the options' deadline.
template <typename T>
T poll(std::string_view what, std::string_view url, const PollOptions& opts,
       const std::function<std::pair<T, std::optional<std::chrono::seconds>>()>& fetch,
       const std::function<std::string_view(const T&)>& status_of, bool (*pending)(std::string_view)) {
  auto deadline = Clock::now() + opts.timeout;
  milliseconds delay = std::max(opts.interval, milliseconds(1));
  for (;;) {
    auto [value, retry] = fetch();
    std::string_view st = status_of(value);
    if (!pending(st)) return std::move(value);
    auto now = Clock::now();
    if (now >= deadline) {
      throw PollTimeout("ACME " + std::string(what) + " " + std::string(url) + " still " + std::string(st) + " after " +
                            std::to_string(std::chrono::duration_cast<milliseconds>(opts.timeout).count()) + "ms",
                        std::string(url), std::string(st));
    }
    milliseconds wait = retry ? std::chrono::duration_cast<milliseconds>(*retry) : delay;
    delay = std::min(delay * 2, std::max(opts.max_interval, opts.interval));
    auto left = std::chrono::duration_cast<milliseconds>(deadline - now);
    std::this_thread::sleep_for(std::min(wait, left));
  }
}

}  // namespace

Order Client::poll_order(const Account& account, std::string_view url, const PollOptions& options) {
  using Fetched = std::pair<Order, std::optional<std::chrono::seconds>>;
  return poll<Order>(
      "order", url, options,
      [&]() -> Fetched {
        RequestContext ctx{"order", "POST", std::string(url)};
        http::Response resp = impl_->post_as_get(ctx.action, account, url);
        expect_status(resp, ctx, {200});
        return {parse_order(body_object(resp, ctx), std::string(url)), retry_after(resp.headers)};
      },
      [](const Order& o) -> std::string_view { return o.status; }, still_pending);
}

Authorization Client::poll_authorization(const Account& account, std::string_view url, const PollOptions& options) {
  using Fetched = std::pair<Authorization, std::optional<std::chrono::seconds>>;
  return poll<Authorization>(
      "authorization", url, options,
      [&]() -> Fetched {
        RequestContext ctx{"authorization", "POST", std::string(url)};
        http::Response resp = impl_->post_as_get(ctx.action, account, url);
        expect_status(resp, ctx, {200});
        return {parse_authorization(body_object(resp, ctx), std::string(url)), retry_after(resp.headers)};
      },
      [](const Authorization& a) -> std::string_view { return a.status; },
      [](std::string_view s) { return s == status::kPending; });
}

AcmeError Client::order_failure(const Account& account, const Order& order) {
  // The failed challenge says most (which identifier, which authorization); the order's own
  // error is the fallback when no challenge error is found or authorizations cannot be read.
  try {
    for (const auto& url : order.authorizations) {
      Authorization authz = get_authorization(account, url);
      if (authz.status != status::kInvalid) continue;
      for (const auto& ch : authz.challenges) {
        if (!ch.error) continue;
        Problem p = *ch.error;
        if (!p.identifier) p.identifier = authz.identifier;
        p.detail = authz.identifier.to_string() + ": " + ch.type + " challenge failed: " + p.detail;
        return AcmeError(std::move(p), ch.error->status, {"authorization", "POST", authz.url});
      }
      if (!order.error) {
        Problem p;
        p.identifier = authz.identifier;
        p.detail = authz.identifier.to_string() + ": authorization is " + authz.status;
        return AcmeError(std::move(p), 0, {"authorization", "POST", authz.url});
      }
    }
  } catch (const std::exception& e) {
    if (!order.error) throw;
    impl_->logger.debug("could not read the authorizations of a failed ACME order",
                        {{"order", order.url}, {"error", e.what()}});
  }
  if (order.error) return AcmeError(*order.error, order.error->status, {"order", "POST", order.url});
  Problem p;
  p.detail = "order is " + order.status;
  return AcmeError(std::move(p), 0, {"order", "POST", order.url});
}

Order Client::finalize(const Account& account, const Order& order, std::string_view csr_der) {
  if (order.finalize.empty()) throw std::invalid_argument("ACME finalize: order " + order.url + " has no finalize URL");
  json::Object payload;
  payload["csr"] = meta::base64url_encode(csr_der);
  RequestContext ctx{"finalize", "POST", order.finalize};
  http::Response resp = impl_->post(ctx.action, ctx.url, account.key, account.url, payload_text(std::move(payload)));
  expect_status(resp, ctx, {200});
  Order out = parse_order(body_object(resp, ctx), order.url);
  if (auto loc = resp.headers.get("Location"); loc && !loc->empty()) out.url = std::string(*loc);
  return out;
}

namespace {

void expect_pem(const http::Response& resp, const RequestContext& ctx) {
  if (resp.body.find("-----BEGIN CERTIFICATE-----") == std::string::npos)
    fail_response(ctx, resp.status, "response holds no PEM certificate");
}

}  // namespace

std::string Client::download_certificate(const Account& account, std::string_view url, std::string_view preferred_chain) {
  RequestContext ctx{"certificate", "POST", std::string(url)};
  http::Response resp = impl_->post_as_get(ctx.action, account, url, kPemChain);
  expect_status(resp, ctx, {200});
  expect_pem(resp, ctx);
  if (preferred_chain.empty() || chain_matches(resp.body, preferred_chain)) return resp.body;
  for (const auto& alt : link_targets(resp.headers, "alternate", url)) {
    RequestContext actx{"certificate", "POST", alt};
    http::Response a = impl_->post_as_get(actx.action, account, alt, kPemChain);
    expect_status(a, actx, {200});
    expect_pem(a, actx);
    if (chain_matches(a.body, preferred_chain)) {
      impl_->logger.debug("using preferred ACME chain", {{"certificate", alt}, {"preferredChain", preferred_chain}});
      return a.body;
    }
  }
  impl_->logger.debug("preferred ACME chain not offered; using the default",
                      {{"certificate", std::string(url)}, {"preferredChain", preferred_chain}});
  return resp.body;
}

std::vector<CertificateChain> Client::download_certificate_chains(const Account& account, std::string_view url) {
  std::vector<CertificateChain> out;
  RequestContext ctx{"certificate", "POST", std::string(url)};
  http::Response resp = impl_->post_as_get(ctx.action, account, url, kPemChain);
  expect_status(resp, ctx, {200});
  expect_pem(resp, ctx);
  out.push_back({std::string(url), resp.body});
  for (const auto& alt : link_targets(resp.headers, "alternate", url)) {
    RequestContext actx{"certificate", "POST", alt};
    http::Response a = impl_->post_as_get(actx.action, account, alt, kPemChain);
    expect_status(a, actx, {200});
    expect_pem(a, actx);
    out.push_back({alt, std::move(a.body)});
  }
  return out;
}

bool chain_matches(std::string_view pem, std::string_view name) {
  std::vector<pki::Certificate> chain;
  try {
    chain = pki::Certificate::parse_chain(pem);
  } catch (const std::exception&) {
    return false;
  }
  if (chain.empty()) return false;
  const auto& top = chain.back();
  return top.issuer().common_name == name || top.subject().common_name == name;
}

}  // namespace capstan::certificates::acme
