// The HTTP face of the API server: authentication, routing (discovery, OpenAPI, health,
// resources), query/body decoding, content negotiation and Status errors.
#pragma once

#include "apiserver/rest/faults.h"
#include "apiserver/rest/openapi.h"
#include "apiserver/rest/service.h"
#include "apiserver/rest/watch.h"
#include "runtime/http/server.h"

#include <functional>
#include <optional>

namespace capstan::apiserver::rest {

using Authenticator = std::function<std::optional<User>(const http::Request&)>;

// kube-apiserver's --max-request-body-bytes default, and its answer to a larger body.
inline constexpr std::size_t kMaxRequestBodyBytes = 3 * 1024 * 1024;
ApiError request_too_large();

// Extra routes (e.g. /debug/capstan/...) tried before the resource routes; return false
// when the path is not theirs.
using ExtraRoute = std::function<bool(const http::Request&, const User&, http::Reply&)>;

class Handler {
 public:
  Handler(Service& service, WatchHub& watches, OpenApi& openapi, Authenticator auth, Faults& faults);
  void set_server_address(std::string a) { server_address_ = std::move(a); }
  void set_ready_check(std::function<bool()> fn) { ready_ = std::move(fn); }
  void add_route(ExtraRoute r) { extra_.push_back(std::move(r)); }
  // serviceaccounts/NAME/token: issues a token for the (existing) ServiceAccount; the answer
  // records `field_manager` in its managedFields as kube-apiserver does.
  using TokenRequestFn =
      std::function<json::Value(const json::Value& service_account, const json::Value& request, const std::string& field_manager)>;
  void set_token_request(TokenRequestFn fn) { token_request_ = std::move(fn); }
  // Access and token reviews (create-only resources answered by the server); `ns` is the
  // namespace of the URL (LocalSubjectAccessReview).
  using ReviewFn =
      std::function<json::Value(const registry::ResourceInfo& r, std::string_view ns, const json::Value& request, const User& user)>;
  void set_review(ReviewFn fn) { review_ = std::move(fn); }
  // Authorization, after authentication: may switch the user (impersonation); throws ApiError
  // (403) when the request is not allowed. Unset: everything is allowed.
  using AuthorizeFn = std::function<void(const http::Request& req, User& user)>;
  void set_authorizer(AuthorizeFn fn) { authorize_ = std::move(fn); }
  // Adds to /apis what is served elsewhere (the group-versions of aggregated APIServices): to its
  // APIGroupList, or (`aggregated`) to its APIGroupDiscoveryList.
  using GroupListFn = std::function<void(json::Value& document, bool aggregated)>;
  void set_group_list_extension(GroupListFn fn) { group_list_extension_ = std::move(fn); }

  void operator()(http::Request& req, http::Reply& reply);

 private:
  void handle(http::Request& req, http::Reply& reply, const User& user);
  void handle_resource(http::Request& req, http::Reply& reply, const User& user);
  bool handle_non_resource(http::Request& req, http::Reply& reply);

  Service& service_;
  WatchHub& watches_;
  OpenApi& openapi_;
  Authenticator auth_;
  Faults& faults_;
  std::string server_address_;
  std::function<bool()> ready_;
  std::vector<ExtraRoute> extra_;
  TokenRequestFn token_request_;
  ReviewFn review_;
  AuthorizeFn authorize_;
  GroupListFn group_list_extension_;
};

// Writes an ApiError as kube-apiserver does (Status body, code, Retry-After).
void send_error(http::Reply& reply, const ApiError& e);
void send_json(http::Reply& reply, int code, const json::Value& v, const std::vector<std::string>& warnings = {});

}  // namespace capstan::apiserver::rest
