#include "controllers/gitops/artifact_server.h"

#include "controllers/gitops/artifact.h"
#include "controllers/gitops/artifact_archive.h"
#include "controllers/gitops/env.h"
#include "runtime/cache/informer.h"
#include "runtime/http/server.h"
#include "runtime/log/log.h"

#include <chrono>

namespace capstan::gitops {
namespace {

namespace v1 = apis::gitops::v1;

constexpr std::size_t kMaxQueued = std::size_t{4} << 20;  // bytes queued to a slow reader before waiting
constexpr std::chrono::seconds kStallTimeout{60};        // a reader that takes nothing this long is dropped

http::Response text(int status, std::string body) { return http::Response(status, std::move(body) + "\n", "text/plain"); }

// "/gitrepository/<ns>/<name>/<file>" split, or false.
bool split_target(std::string_view path, std::string& ns, std::string& name, std::string& file) {
  constexpr std::string_view kPrefix = "/gitrepository/";
  if (path.substr(0, kPrefix.size()) != kPrefix) return false;
  path.remove_prefix(kPrefix.size());
  std::string_view parts[3];
  for (int i = 0; i < 3; ++i) {
    const auto slash = path.find('/');
    if ((slash == std::string_view::npos) != (i == 2)) return false;
    parts[i] = path.substr(0, slash);
    if (parts[i].empty() || parts[i].size() > 253) return false;
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
  }
  ns = parts[0];
  name = parts[1];
  file = parts[2];
  return true;
}

}  // namespace

ArtifactServer::ArtifactServer(Env& env, std::string bind, std::string advertised)
    : env_(env), bind_(std::move(bind)), advertised_(std::move(advertised)) {}

ArtifactServer::~ArtifactServer() { stop(); }

void ArtifactServer::start() {
  auto [host, port] = http::split_host_port(bind_);
  http::ServerOptions so;
  so.name = "gitops-artifacts";
  so.address = host;
  so.port = port;
  so.handler_threads = 2;
  so.body_limit = 4096;
  server_ = std::make_unique<http::Server>(so, [this](http::Request& req, http::Reply& reply) { handle(req, reply); });
  server_->start();
  std::string advertised = advertised_;
  if (advertised.empty()) advertised = host.empty() || host == "0.0.0.0" || host == "::" ? "localhost:" + std::to_string(server_->port()) : server_->address();
  env_.artifact_base_url = "http://" + advertised;
  log::info("serving GitRepository artifacts", {{"address", server_->address()}, {"url", env_.artifact_base_url}});
}

void ArtifactServer::stop() {
  if (server_) server_->stop();
}

void ArtifactServer::handle(http::Request& req, http::Reply& reply) {
  if (req.method != "GET") return reply.send(text(405, "only GET"));
  const std::string path(req.path());
  std::string ns, name, file;
  if (!split_target(path, ns, name, file)) return reply.send(text(404, "not an artifact path: /gitrepository/<namespace>/<name>/<file>.tar.gz"));
  auto cached = env_.repositories.get(ns, name);
  if (!cached) return reply.send(text(404, "GitRepository " + ns + "/" + name + " not found"));
  v1::GitRepository repo;
  try {
    repo = v1::GitRepository::from_json(cached->value());
  } catch (const std::exception& e) {
    return reply.send(text(500, "GitRepository " + ns + "/" + name + ": " + e.what()));
  }
  if (!repo.status.artifact) return reply.send(text(404, "GitRepository " + ns + "/" + name + " has no artifact yet"));
  const v1::Artifact& artifact = *repo.status.artifact;
  if ("/" + artifact.path != path)
    return reply.send(text(404, "not the current artifact of GitRepository " + ns + "/" + name + ", which is /" + artifact.path));
  std::shared_ptr<const ArtifactListing> listing;
  try {
    listing = cached_artifact_listing(env_, ns, repo);
  } catch (const std::exception& e) {
    return reply.send(text(503, "GitRepository " + ns + "/" + name + ": " + e.what()));
  }
  // An include that moved on since the status was written lists other files: the reconcile
  // that follows records the new artifact.
  if (artifact_path(ns, name, listing_id(*listing)) != artifact.path)
    return reply.send(text(503, "GitRepository " + ns + "/" + name + " is being updated; try again"));
  auto stream = reply.stream(200, http::Headers{{"Content-Type", "application/gzip"}});
  try {
    auto written = write_artifact_archive(env_.mirrors, *listing, [&](std::string_view piece) {
      return stream->wait_queued_below(kMaxQueued, kStallTimeout) && stream->write(std::string(piece));
    });
    if (written && written->digest != artifact.digest)
      log::warn("an artifact served differs from its recorded digest",
                {{"gitRepository", ns + "/" + name}, {"recorded", artifact.digest}, {"served", written->digest}});
  } catch (const std::exception& e) {
    log::warn("serving an artifact failed", {{"gitRepository", ns + "/" + name}, {"error", e.what()}});
  }
  stream->close();
}

}  // namespace capstan::gitops
