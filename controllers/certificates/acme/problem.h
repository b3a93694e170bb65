// ACME problem documents (RFC 8555 §6.7, RFC 7807) and the typed error the client throws.
//
//   try { client.new_order(account, {{"dns", "example.com"}}); }
//   catch (const acme::AcmeError& e) {
//     if (e.is(acme::errors::kRateLimited)) requeue_after(e.retry_after());
//   }
#pragma once

#include "runtime/json/json.h"

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::certificates::acme {

// An identifier of an order or authorization (RFC 8555 §9.7.7).
struct Identifier {
  std::string type;   // "dns" | "ip"
  std::string value;  // "example.com", "*.example.com", "10.0.0.1"

  static Identifier dns(std::string name) { return {"dns", std::move(name)}; }
  static Identifier ip(std::string address) { return {"ip", std::move(address)}; }
  std::string to_string() const { return type + ":" + value; }  // "dns:example.com"
  bool operator==(const Identifier&) const = default;
};

struct Subproblem {
  std::string type;
  std::string detail;
  std::optional<Identifier> identifier;
};

struct Problem {
  std::string type;    // "urn:ietf:params:acme:error:badNonce"; empty when the body was no problem document
  std::string detail;
  int status = 0;      // the document's status member (0 when absent)
  std::vector<Subproblem> subproblems;
  std::optional<Identifier> identifier;

  // "urn:ietf:params:acme:error:badNonce: JWS has an invalid anti-replay nonce"
  std::string to_string() const;
};

// Parses a problem document object; missing members stay empty.
Problem parse_problem(const json::Object& o);
// Parses an error response body. When it is not a JSON problem document (an HTML error page
// from a proxy, an empty body) the type stays empty and the detail holds the start of the body.
Problem parse_problem_body(std::string_view body);

// Error types of RFC 8555 §6.7 (plus the ones registered since).
namespace errors {
inline constexpr std::string_view kPrefix = "urn:ietf:params:acme:error:";
inline constexpr std::string_view kAccountDoesNotExist = "urn:ietf:params:acme:error:accountDoesNotExist";
inline constexpr std::string_view kAlreadyRevoked = "urn:ietf:params:acme:error:alreadyRevoked";
inline constexpr std::string_view kBadCsr = "urn:ietf:params:acme:error:badCSR";
inline constexpr std::string_view kBadNonce = "urn:ietf:params:acme:error:badNonce";
inline constexpr std::string_view kBadPublicKey = "urn:ietf:params:acme:error:badPublicKey";
inline constexpr std::string_view kBadRevocationReason = "urn:ietf:params:acme:error:badRevocationReason";
inline constexpr std::string_view kBadSignatureAlgorithm = "urn:ietf:params:acme:error:badSignatureAlgorithm";
inline constexpr std::string_view kCaa = "urn:ietf:params:acme:error:caa";
inline constexpr std::string_view kCompound = "urn:ietf:params:acme:error:compound";
inline constexpr std::string_view kConnection = "urn:ietf:params:acme:error:connection";
inline constexpr std::string_view kDns = "urn:ietf:params:acme:error:dns";
inline constexpr std::string_view kExternalAccountRequired = "urn:ietf:params:acme:error:externalAccountRequired";
inline constexpr std::string_view kIncorrectResponse = "urn:ietf:params:acme:error:incorrectResponse";
inline constexpr std::string_view kInvalidContact = "urn:ietf:params:acme:error:invalidContact";
inline constexpr std::string_view kMalformed = "urn:ietf:params:acme:error:malformed";
inline constexpr std::string_view kOrderNotReady = "urn:ietf:params:acme:error:orderNotReady";
inline constexpr std::string_view kRateLimited = "urn:ietf:params:acme:error:rateLimited";
inline constexpr std::string_view kRejectedIdentifier = "urn:ietf:params:acme:error:rejectedIdentifier";
inline constexpr std::string_view kServerInternal = "urn:ietf:params:acme:error:serverInternal";
inline constexpr std::string_view kTls = "urn:ietf:params:acme:error:tls";
inline constexpr std::string_view kUnauthorized = "urn:ietf:params:acme:error:unauthorized";
inline constexpr std::string_view kUnsupportedContact = "urn:ietf:params:acme:error:unsupportedContact";
inline constexpr std::string_view kUnsupportedIdentifier = "urn:ietf:params:acme:error:unsupportedIdentifier";
inline constexpr std::string_view kUserActionRequired = "urn:ietf:params:acme:error:userActionRequired";
}  // namespace errors

// Which ACME request failed: the context carried by AcmeError.
struct RequestContext {
  std::string action;  // "directory", "nonce", "new_account", "new_order", "authorization", "challenge",
                       // "finalize", "order", "certificate", "account"
  std::string method;  // "GET" | "POST"
  std::string url;

  std::string describe() const;  // "new_order POST https://acme.example/new-order"
};

// An ACME request answered with an error status (or an order/authorization that became invalid).
class AcmeError : public std::runtime_error {
 public:
  AcmeError(Problem problem, int http_status, RequestContext request,
            std::optional<std::chrono::seconds> retry_after = std::nullopt);

  const Problem& problem() const noexcept { return problem_; }
  const std::string& type() const noexcept { return problem_.type; }
  const std::string& detail() const noexcept { return problem_.detail; }
  const std::vector<Subproblem>& subproblems() const noexcept { return problem_.subproblems; }
  // The HTTP status of the response (the problem's own status when the response had none).
  int status() const noexcept { return status_; }
  const RequestContext& request() const noexcept { return request_; }
  // The response's Retry-After (429 rateLimited, 503), when it had one.
  std::optional<std::chrono::seconds> retry_after() const noexcept { return retry_after_; }
  // Matches the full URN or its short name: e.is("badNonce"), e.is(errors::kBadNonce).
  bool is(std::string_view type) const noexcept;

 private:
  Problem problem_;
  int status_;
  RequestContext request_;
  std::optional<std::chrono::seconds> retry_after_;
};

// Whether `type` names the error `want` (full URN or short name).
bool problem_is(std::string_view type, std::string_view want) noexcept;

}  // namespace capstan::certificates::acme
