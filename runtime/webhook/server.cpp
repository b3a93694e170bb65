#include "runtime/webhook/server.h"

#include "runtime/http/server.h"
#include "runtime/log/log.h"
#include "runtime/webhook/metrics.h"
#include "runtime/webhook/paths.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace capstan::webhook {

std::string default_cert_dir() {
  std::error_code ec;
  auto tmp = std::filesystem::temp_directory_path(ec);
  if (ec) tmp = "/tmp";
  return (tmp / "k8s-webhook-server" / "serving-certs").string();
}

Server::Server(ServerOptions options) : opts_(std::move(options)) {
  if (opts_.cert_dir.empty()) opts_.cert_dir = default_cert_dir();
  if (opts_.port < 0 || opts_.port > 65535) throw std::invalid_argument("webhook server: invalid port " + std::to_string(opts_.port));
}

Server::~Server() { stop(); }

std::string Server::cert_file() const { return (std::filesystem::path(opts_.cert_dir) / opts_.cert_name).string(); }
std::string Server::key_file() const { return (std::filesystem::path(opts_.cert_dir) / opts_.key_name).string(); }

void Server::register_path(const std::string& path, Handler handler) {
  if (!is_valid_path(path)) throw std::invalid_argument("webhook path \"" + path + "\" is not valid");
  if (!handler) throw std::invalid_argument("webhook path \"" + path + "\": empty handler");
  std::lock_guard<std::mutex> l(mu_);
  if (handlers_.count(path)) throw std::invalid_argument("webhook path \"" + path + "\" is already registered");
  handlers_.emplace(path, instrument(path, std::move(handler), opts_.registry));
  log::debug("registering webhook", {{"path", path}});
}

bool Server::has_paths() const {
  std::lock_guard<std::mutex> l(mu_);
  return !handlers_.empty();
}

void Server::serve(const http::Request& req, http::Response& resp) {
  Handler h;
  {
    std::lock_guard<std::mutex> l(mu_);
    auto it = handlers_.find(req.path());
    if (it != handlers_.end()) h = it->second;
  }
  if (!h) {
    resp = http::Response(404, "404 page not found\n", "text/plain; charset=utf-8");
    return;
  }
  if (req.method != "POST") {
    // The API server only POSTs reviews; anything else gets controller-runtime's mux answer.
    resp = http::Response(405, "method not allowed\n", "text/plain; charset=utf-8");
    resp.headers.set("Allow", "POST");
    return;
  }
  resp = h(req);
}

void Server::start() {
  if (server_) return;
  http::ServerOptions ho;
  ho.name = "webhook";
  ho.address = opts_.host;  // "" = every interface, IPv6 and IPv4
  ho.port = static_cast<std::uint16_t>(opts_.port);
  // Admission and conversion handlers are short and never block: they run on the I/O threads
  // that read their requests, without a hand-off to a handler pool and back.
  ho.io_threads = std::max(1, opts_.io_threads);
  ho.handler_threads = 1;  // no pool work: every handler runs inline
  ho.inline_handlers = true;
  // An oversized review is answered 413 from its header, never buffered.
  ho.body_limit = opts_.max_request_bytes;
  ho.body_too_large = http::Response(413, "request entity is too large; limit is " + std::to_string(opts_.max_request_bytes) + " bytes\n",
                                     "text/plain; charset=utf-8");
  http::ServerTls tls;
  tls.cert_file = cert_file();
  tls.key_file = key_file();
  tls.reload_interval = opts_.cert_reload_interval;
  ho.tls = tls;
  auto server = std::make_unique<http::Server>(ho, [this](http::Request& req, http::Reply& reply) {
    http::Response resp;
    try {
      serve(req, resp);
    } catch (const std::exception& e) {
      log::error("webhook handler failed", {{"path", std::string(req.path())}, {"error", e.what()}});
      resp = http::Response(500, std::string(e.what()) + "\n", "text/plain; charset=utf-8");
    }
    reply.send(std::move(resp));
  });
  try {
    server->start();
  } catch (const std::exception& e) {
    throw std::runtime_error("webhook server: cannot serve on " + ho.address + ":" + std::to_string(ho.port) +
                             " with certificate " + tls.cert_file + ": " + e.what());
  }
  server_ = std::move(server);
  started_ = true;
  log::info("serving webhook server", {{"address", server_->address()}, {"certDir", opts_.cert_dir}});
}

void Server::stop() {
  if (!server_) return;
  started_ = false;
  server_->stop();
  server_.reset();
}

std::uint16_t Server::port() const { return server_ ? server_->port() : static_cast<std::uint16_t>(opts_.port); }

}  // namespace capstan::webhook
