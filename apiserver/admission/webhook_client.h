// Calls admission and conversion webhooks as kube-apiserver's webhook client does: POSTs JSON to
// clientConfig.url, or to a Service resolved through its Endpoints (there is no cluster network:
// the first ready endpoint address and the endpoint port named like the service port), verifies
// TLS against caBundle with the server name "<service>.<namespace>.svc", and words failures the
// way client-go's REST client does (`Post "https://svc.ns.svc:443/path?timeout=10s": ...`).
#pragma once

#include "apiserver/admission/client_config.h"
#include "apiserver/storage/store.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>

namespace capstan::http {
class Client;
}

namespace capstan::apiserver::admission {

// Why a webhook could not be called or answered unusably; what() is the Go error text.
class CallError : public std::runtime_error {
 public:
  enum class Kind {
    Config,     // no usable client (no url or service, bad URL, bad caBundle): "could not get REST client"
    Transport,  // the POST failed or the answer was not a decodable 2xx
  };
  CallError(Kind kind, std::string message) : std::runtime_error(std::move(message)), kind(kind) {}
  Kind kind;
};

// Where a call goes. `display_url` is the URL upstream names in errors (service references as
// https://<svc>.<ns>.svc:<port><path>); `dial_url` is what is actually connected to.
struct CallTarget {
  std::string display_url;
  std::string dial_url;
  std::string server_name;  // TLS name to verify (service references); "" = the URL's host
  std::string host_header;  // Host sent (service references); "" = from dial_url
};

// Go's time.Duration.String() for whole seconds: "10s", "1m30s".
std::string go_duration(std::chrono::seconds s);

class WebhookClient {
 public:
  explicit WebhookClient(storage::Store& store);
  ~WebhookClient();
  WebhookClient(const WebhookClient&) = delete;
  WebhookClient& operator=(const WebhookClient&) = delete;

  // Resolves a client config (services through the store's Services and Endpoints) and adds the
  // `timeout` query parameter kube-apiserver sends. Throws CallError.
  CallTarget resolve(const ClientConfig& cc, std::chrono::seconds timeout) const;

  // POSTs `body` as application/json and returns the body of a 2xx answer. Throws CallError
  // (Transport) with client-go's wording for transport errors, non-2xx answers (a Status body's
  // message, else the generic "the server could not find the requested resource"-style text)
  // and empty bodies.
  std::string post(const ClientConfig& cc, std::string_view body, std::chrono::seconds timeout);

 private:
  std::shared_ptr<http::Client> client_for(const std::string& ca_pem, const std::string& server_name,
                                           std::chrono::seconds timeout);

  storage::Store& store_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<http::Client>> clients_;
};

// client-go's errors.NewGenericServerResponse message for an unexpected HTTP status, given the
// server message ("unknown" unless the answer was text/*).
std::string generic_server_response_message(int code, std::string_view server_message);

// Rewrites one of runtime/http's TransportError texts for `method url` into Go net/http's
// wording: `Post "<display_url>": dial tcp 127.0.0.1:9443: connect: connection refused`,
// `...: context deadline exceeded`, `...: tls: failed to verify certificate: ...`.
std::string go_transport_error(std::string_view transport_error, std::string_view dialed_url,
                               std::string_view display_url);

}  // namespace capstan::apiserver::admission
