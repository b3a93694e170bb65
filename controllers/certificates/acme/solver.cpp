#include "controllers/certificates/acme/solver.h"

#include "runtime/http/server.h"
#include "runtime/log/log.h"
#include "runtime/metrics/registry.h"
#include "runtime/meta/ascii.h"

#include <mutex>
#include <stdexcept>

namespace capstan::certificates::acme {
namespace {

bool base64url_token(std::string_view t) {
  if (t.empty()) return false;
  for (char c : t) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

// The host of a Host header, lower-cased, without port, brackets or a trailing dot.
std::string host_only(std::string_view host) {
  std::string_view h = host;
  if (!h.empty() && h.front() == '[') {
    auto close = h.find(']');
    h = close == std::string_view::npos ? h.substr(1) : h.substr(1, close - 1);
  } else if (auto colon = h.rfind(':'); colon != std::string_view::npos && h.find(':') == colon) {
    h = h.substr(0, colon);
  }
  while (!h.empty() && h.back() == '.') h.remove_suffix(1);
  return meta::ascii_lower(h);
}

http::Response text(int status, std::string body) { return http::Response(status, std::move(body), "text/plain"); }

const log::Logger& logger() {
  static const log::Logger l({{"component", "acme-http01-solver"}});
  return l;
}

}  // namespace

std::string Http01Solver::path_for(std::string_view token) { return std::string(kPathPrefix) + std::string(token); }

Http01Solver::Http01Solver(Http01SolverOptions options, metrics::Registry* registry) : options_(std::move(options)) {
  metrics::Registry& reg = registry ? *registry : metrics::Registry::global();
  requests_ = &reg.counter("capstan_acme_http01_solver_requests_total",
                           "Requests answered by the ACME HTTP-01 solver, by result", {"result"});
}

Http01Solver::~Http01Solver() { stop(); }

void Http01Solver::start() {
  std::lock_guard<std::mutex> l(server_mu_);
  if (server_) return;
  http::ServerOptions so;
  so.name = "acme-http01-solver";
  so.address = options_.address;
  so.port = options_.port;
  so.handler_threads = options_.handler_threads;
  so.body_limit = 64 * 1024;
  auto server = std::make_unique<http::Server>(so, [this](http::Request& req, http::Reply& reply) { reply.send(handle(req)); });
  server->start();
  logger().info("serving HTTP-01 challenges", {{"address", server->address()}});
  server_ = std::move(server);
}

void Http01Solver::stop() {
  std::unique_ptr<http::Server> server;
  {
    std::lock_guard<std::mutex> l(server_mu_);
    server = std::move(server_);
  }
  if (server) server->stop();
}

bool Http01Solver::running() const {
  std::lock_guard<std::mutex> l(server_mu_);
  return server_ != nullptr;
}

std::uint16_t Http01Solver::port() const {
  std::lock_guard<std::mutex> l(server_mu_);
  return server_ ? server_->port() : options_.port;
}

std::string Http01Solver::address() const {
  std::lock_guard<std::mutex> l(server_mu_);
  return server_ ? server_->address() : options_.address + ":" + std::to_string(options_.port);
}

void Http01Solver::add(std::string token, std::string key_authorization, std::string domain) {
  if (!base64url_token(token)) throw std::invalid_argument("HTTP-01 solver: token \"" + token + "\" is not base64url");
  std::string d = domain.empty() ? std::string() : host_only(domain);
  std::unique_lock l(mu_);
  tokens_[std::move(token)] = Entry{std::move(key_authorization), std::move(d)};
}

bool Http01Solver::remove(std::string_view token) {
  std::unique_lock l(mu_);
  auto it = tokens_.find(token);
  if (it == tokens_.end()) return false;
  tokens_.erase(it);
  return true;
}

std::optional<std::string> Http01Solver::key_authorization(std::string_view token) const {
  std::shared_lock l(mu_);
  auto it = tokens_.find(token);
  if (it == tokens_.end()) return std::nullopt;
  return it->second.key_authorization;
}

std::size_t Http01Solver::size() const {
  std::shared_lock l(mu_);
  return tokens_.size();
}

void Http01Solver::set_published(const std::string& owner, const std::vector<Published>& tokens) {
  std::unique_lock l(mu_);
  if (auto it = owners_.find(owner); it != owners_.end()) {
    for (const auto& t : it->second) published_.erase(t);
    owners_.erase(it);
  }
  if (tokens.empty()) return;
  auto& mine = owners_[owner];
  for (const auto& t : tokens) {
    if (!base64url_token(t.token)) continue;
    published_[t.token] = Entry{t.key_authorization, t.domain.empty() ? std::string() : host_only(t.domain)};
    mine.push_back(t.token);
  }
}

std::size_t Http01Solver::published_size() const {
  std::shared_lock l(mu_);
  return published_.size();
}

http::Response Http01Solver::handle(const http::Request& request) const {
  std::string_view path = request.path();
  if (path.substr(0, kPathPrefix.size()) != kPathPrefix) {
    requests_->with({"not_found"}).inc();
    return text(404, "not found\n");
  }
  if (request.method != "GET") {
    requests_->with({"method_not_allowed"}).inc();
    http::Response r = text(405, "method not allowed\n");
    r.headers.set("Allow", "GET");
    return r;
  }
  std::string_view token = path.substr(kPathPrefix.size());
  std::string host = host_only(request.headers.get_or("Host", ""));
  {
    std::shared_lock l(mu_);
    for (const auto* tokens : {&tokens_, &published_}) {
      auto it = tokens->find(token);
      if (it != tokens->end() && (it->second.domain.empty() || it->second.domain == host)) {
        requests_->with({"served"}).inc();
        logger().debug("served HTTP-01 challenge", {{"token", std::string(token)}, {"host", host},
                                                     {"remote", request.remote}});
        return text(200, it->second.key_authorization);
      }
    }
  }
  requests_->with({"not_found"}).inc();
  logger().debug("unknown HTTP-01 token", {{"token", std::string(token)}, {"host", host}, {"remote", request.remote}});
  return text(404, "not found\n");
}

}  // namespace capstan::certificates::acme
