// Reaches the Service behind an aggregated APIService. There is no cluster network: a
// ClusterIP/NodePort/LoadBalancer Service is dialled at its first ready endpoint, as
// kube-apiserver does with --enable-aggregator-routing; an ExternalName Service at its name and
// the APIService's port, as kube-apiserver's cluster routing does. TLS is verified against
// spec.caBundle with the name "<service>.<namespace>.svc" (or not at all with
// insecureSkipTLSVerify), and the aggregator authenticates with its front-proxy client
// certificate.
#pragma once

#include "apiserver/aggregator/apiservice.h"
#include "apiserver/storage/store.h"
#include "runtime/http/message.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace capstan::http {
class Client;
}

namespace capstan::apiserver::aggregator {

// Why the backend could not be reached; what() names the APIService and the Service.
class BackendError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct BackendOptions {
  std::string client_cert_pem;  // the front-proxy client certificate (--proxy-client-cert-file)
  std::string client_key_pem;
  std::chrono::milliseconds connect_timeout{5000};
  std::size_t max_response_bytes = 16 * 1024 * 1024;
};

class Backends {
 public:
  Backends(const storage::Store& store, BackendOptions options);
  ~Backends();
  Backends(const Backends&) = delete;
  Backends& operator=(const Backends&) = delete;

  // "https://ip:port" of the first ready endpoint of the APIService's Service (its EndpointSlices,
  // then its Endpoints), on the endpoint port named like the Service port spec.service.port.
  // Throws BackendError.
  std::string resolve(const ApiService& a) const;

  // Sends `method target` (path and query) to the backend; `headers` are sent as given (plus
  // Host). Throws BackendError for an unusable APIService or a transport failure; HTTP error
  // statuses are answers, not errors.
  http::Response send(const ApiService& a, std::string_view method, std::string_view target, http::Headers headers,
                      std::string_view body, std::chrono::milliseconds timeout);

 private:
  std::shared_ptr<http::Client> client_for(const ApiService& a);

  const storage::Store& store_;
  BackendOptions options_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<http::Client>> clients_;
};

}  // namespace capstan::apiserver::aggregator
