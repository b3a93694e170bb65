// The aggregation layer's request path: a request for /apis/<group>/<version>/... whose
// APIService names a Service is forwarded there (after this server authenticated and
// authorized it like any other), with the user passed on by the requestheader convention
// (X-Remote-User, X-Remote-Group, X-Remote-Extra-*) as kube-apiserver's proxy does; /apis/<group>
// of a group only aggregated APIServices serve is answered here from the APIServices.
#pragma once

#include "apiserver/aggregator/backend.h"
#include "apiserver/registry/resource.h"
#include "apiserver/rest/user.h"
#include "runtime/http/server.h"

#include <chrono>

namespace capstan::apiserver::aggregator {

struct ProxyOptions {
  std::chrono::milliseconds timeout{60000};  // kube-apiserver's default request timeout
};

class Proxy {
 public:
  Proxy(const storage::Store& store, const registry::Registry& registry, Backends& backends, ProxyOptions options = {});

  // An extra route of rest::Handler: false when the path is not an aggregated one.
  bool operator()(const http::Request& req, const rest::User& user, http::Reply& reply);

  // The headers sent to the backend: the request's own minus credentials, hop-by-hop and any
  // requestheader the client set itself, plus the user's.
  static http::Headers forwarded_headers(const http::Headers& in, const rest::User& user);

 private:
  const storage::Store& store_;
  const registry::Registry& registry_;
  Backends& backends_;
  ProxyOptions options_;
};

}  // namespace capstan::apiserver::aggregator
