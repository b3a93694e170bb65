// ACME resources as the server returns them (RFC 8555 §7.1): accounts, orders,
// authorizations and challenges. Statuses stay strings, as on the wire (§7.1.6), with the
// values spelled out below; unknown members are ignored.
#pragma once

#include "controllers/certificates/acme/jws.h"
#include "controllers/certificates/acme/problem.h"
#include "runtime/json/json.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::certificates::acme {

namespace status {
inline constexpr std::string_view kPending = "pending";
inline constexpr std::string_view kReady = "ready";
inline constexpr std::string_view kProcessing = "processing";
inline constexpr std::string_view kValid = "valid";
inline constexpr std::string_view kInvalid = "invalid";
inline constexpr std::string_view kDeactivated = "deactivated";
inline constexpr std::string_view kExpired = "expired";
inline constexpr std::string_view kRevoked = "revoked";
}  // namespace status

// Challenge types.
inline constexpr std::string_view kHttp01 = "http-01";
inline constexpr std::string_view kDns01 = "dns-01";
inline constexpr std::string_view kTlsAlpn01 = "tls-alpn-01";

// An account key and its URL (the "kid" of every request after newAccount).
struct Account {
  Signer key;
  std::string url;
};

// What newAccount (or an account lookup/update) answered.
struct Registration {
  std::string url;                   // the Location header: the account's kid
  bool created = false;              // 201 (new account) vs 200 (the key already had one)
  std::string status;                // "valid" | "deactivated" | "revoked"
  std::vector<std::string> contact;  // "mailto:admin@example.com"
  std::string orders;                // the account's orders list URL, when given
};

struct Challenge {
  std::string type;    // "http-01", "dns-01", "tls-alpn-01", ...
  std::string url;
  std::string token;
  std::string status;  // pending | processing | valid | invalid
  std::string validated;          // RFC 3339, when valid
  std::optional<Problem> error;   // why validation failed
};

struct Authorization {
  std::string url;
  Identifier identifier;
  std::string status;   // pending | valid | invalid | deactivated | expired | revoked
  std::string expires;  // RFC 3339
  bool wildcard = false;
  std::vector<Challenge> challenges;

  // The first challenge of `type`, or nullptr.
  const Challenge* find_challenge(std::string_view type) const;
};

struct Order {
  std::string url;
  std::string status;  // pending | ready | processing | valid | invalid
  std::string expires;
  std::vector<Identifier> identifiers;
  std::vector<std::string> authorizations;
  std::string finalize;
  std::string certificate;  // set once valid
  std::string not_before;
  std::string not_after;
  std::optional<Problem> error;
};

Registration parse_registration(const json::Object& o);
Challenge parse_challenge(const json::Object& o);
Authorization parse_authorization(const json::Object& o, std::string url);
Order parse_order(const json::Object& o, std::string url);

}  // namespace capstan::certificates::acme
