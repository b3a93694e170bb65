// The Kubernetes API client: thread-safe, one HTTP connection pool, built from a Config.
//
//   client::Client c(client::load_config(flag));
//   meta::GroupVersionResource cms{"", "v1", "configmaps"};
//   json::Value cm = c.get(cms, "default", "demo");
//   c.apply(desired, "capstan", /*force=*/true);            // server-side apply, GVK from the object
//   c.watch(cms, "default", {.resource_version = rv}, [](json::EventType t, std::string_view obj) {
//     ...; return true;  // false stops the watch
//   }, &cancel);
//
// Every request carries Accept: application/json, the User-Agent and the bearer token (when
// configured); is paced by the client-side token bucket (watch requests too, but not their
// streams); is retried after Retry-After on 429 and 5xx (at most ClientOptions::max_retries
// times); and is counted in rest_client_requests_total{code,method,host}. Non-2xx answers
// throw ApiError (errors.h); transport failures throw http::TransportError. Calls made inside
// a client::CancelScope (cancel.h) end with http::Cancelled when its token stops.
#pragma once

#include "runtime/client/config.h"
#include "runtime/client/errors.h"
#include "runtime/client/mapper.h"
#include "runtime/client/options.h"
#include "runtime/client/token_source.h"
#include "runtime/http/message.h"
#include "runtime/json/decode.h"
#include "runtime/json/json.h"
#include "runtime/meta/gvk.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::http {
class Cancellation;
}

namespace capstan::metrics {
class Registry;
}

namespace capstan::client {

class Discovery;
struct Call;  // client_impl.h

struct ClientOptions {
  metrics::Registry* registry = nullptr;  // nullptr = metrics::Registry::global()
  int max_retries = 5;                    // Retry-After retries per request
  // Log each distinct Warning header text once (client-go's WarningWriter Deduplicate), not
  // on every response: for long-running clients of deprecated APIs (v1 Endpoints).
  bool deduplicate_warnings = false;
  TokenSource::Options token;
  MapperOptions mapper;
};

// (type, raw object JSON, its metadata read in the same pass) -> keep watching? The views are
// valid during the call; the JSON is followed by json::kReadablePadding readable bytes.
using WatchHandler = std::function<bool(json::EventType type, std::string_view object_json, const json::MetaSummary& meta)>;

class Client {
 public:
  // Throws ConfigError for an unusable server URL and http errors for bad TLS material.
  explicit Client(Config config, ClientOptions options = {});
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  const Config& config() const;
  // A client that shares this one's connections, rate limit, metrics, discovery and REST mapper
  // and whose requests act as `who` (Impersonate-* headers, client-go's rest.Config.Impersonate);
  // the server checks that this client's user may impersonate it. It must not outlive this
  // client. An empty `who` acts as this client's own user.
  std::unique_ptr<Client> impersonating(Impersonation who);
  // Whom this client's requests act as (empty = its own credentials' user).
  const Impersonation& impersonation() const { return as_; }
  Discovery& discovery();
  RestMapper& mapper();

  // ---- dynamic operations, addressed by resource (ns "" = cluster-scoped / all namespaces) ----
  json::Value get(const meta::GroupVersionResource& gvr, std::string_view ns, std::string_view name,
                  const GetOptions& options = {});
  ObjectList list(const meta::GroupVersionResource& gvr, std::string_view ns, const ListOptions& options = {});
  // The LIST response body as received (for json::decode_list on the informer path). `cancel`
  // aborts it from another thread (http::Cancelled).
  std::string list_raw(const meta::GroupVersionResource& gvr, std::string_view ns, const ListOptions& options = {},
                       http::Cancellation* cancel = nullptr);
  // Follows continue tokens until the last page; items of every page, metadata of the last.
  ObjectList list_all(const meta::GroupVersionResource& gvr, std::string_view ns, ListOptions options = {});
  json::Value create(const meta::GroupVersionResource& gvr, std::string_view ns, const json::Value& obj,
                     const WriteOptions& options = {});
  // PUT of the object (name from metadata.name; send metadata.resourceVersion for a CAS).
  json::Value update(const meta::GroupVersionResource& gvr, std::string_view ns, const json::Value& obj,
                     const WriteOptions& options = {});
  json::Value update_status(const meta::GroupVersionResource& gvr, std::string_view ns, const json::Value& obj,
                            const WriteOptions& options = {});
  json::Value patch(const meta::GroupVersionResource& gvr, std::string_view ns, std::string_view name,
                    PatchType type, std::string_view body, const PatchOptions& options = {});
  json::Value patch(const meta::GroupVersionResource& gvr, std::string_view ns, std::string_view name,
                    PatchType type, const json::Value& body, const PatchOptions& options = {});
  // Server-side apply of `obj` (its metadata.name) with fieldManager and force.
  json::Value apply(const meta::GroupVersionResource& gvr, std::string_view ns, const json::Value& obj,
                    std::string_view field_manager, bool force = false, std::string_view subresource = {});
  // The response body (the object when it lingers for finalizers or the resource returns it,
  // else a Success Status); nullopt for a 404 with ignore_not_found.
  std::optional<json::Value> remove(const meta::GroupVersionResource& gvr, std::string_view ns,
                                    std::string_view name, const DeleteOptions& options = {});
  json::Value delete_collection(const meta::GroupVersionResource& gvr, std::string_view ns,
                                const ListOptions& selection = {}, const DeleteOptions& options = {});
  // Streams watch events until the server closes, `cancel` fires or `on_event` returns false.
  // In-stream ERROR events reach `on_event` as EventType::Error (see error_from_watch_event).
  // A non-200 answer throws ApiError (410 Gone, 422 for an unsupported streaming list, ...).
  WatchResult watch(const meta::GroupVersionResource& gvr, std::string_view ns, const WatchOptions& options,
                    const WatchHandler& on_event, http::Cancellation* cancel = nullptr);

  // ---- the same keyed by kind, through the REST mapper ----
  // For namespaced kinds, ns must be set for single objects (std::invalid_argument otherwise);
  // for cluster-scoped kinds it is ignored.
  json::Value get(const meta::GroupVersionKind& gvk, std::string_view ns, std::string_view name,
                  const GetOptions& options = {});
  ObjectList list(const meta::GroupVersionKind& gvk, std::string_view ns, const ListOptions& options = {});
  // apiVersion, kind, metadata.namespace and metadata.name come from the object.
  json::Value create(const json::Value& obj, const WriteOptions& options = {});
  json::Value update(const json::Value& obj, const WriteOptions& options = {});
  json::Value update_status(const json::Value& obj, const WriteOptions& options = {});
  json::Value apply(const json::Value& obj, std::string_view field_manager, bool force = false);
  json::Value patch(const meta::GroupVersionKind& gvk, std::string_view ns, std::string_view name, PatchType type,
                    std::string_view body, const PatchOptions& options = {});
  std::optional<json::Value> remove(const meta::GroupVersionKind& gvk, std::string_view ns, std::string_view name,
                                    const DeleteOptions& options = {});
  std::optional<json::Value> remove(const json::Value& obj, const DeleteOptions& options = {});
  WatchResult watch(const meta::GroupVersionKind& gvk, std::string_view ns, const WatchOptions& options,
                    const WatchHandler& on_event, http::Cancellation* cancel = nullptr);

  // ---- raw access (discovery, /version, /openapi) ----
  // `path_and_query` starts with '/'. Non-2xx throws ApiError with `verb` as context.
  http::Response raw(std::string_view method, std::string_view path_and_query, std::string_view body = {},
                     std::string_view content_type = {});

  struct Impl;

 private:
  Client(std::shared_ptr<Impl> impl, Impersonation as);
  // Sends one call as this client's user (impersonation headers included).
  http::Response send(Call& call, http::Cancellation* cancel = nullptr);
  // Resolves a kind; `need_ns` requires a namespace for namespaced kinds.
  std::pair<meta::GroupVersionResource, std::string> resolve(const meta::GroupVersionKind& gvk, std::string_view ns,
                                                             bool need_ns, std::string_view what);
  std::shared_ptr<Impl> impl_;  // shared with the clients impersonating() made
  Impersonation as_;
};

}  // namespace capstan::client
