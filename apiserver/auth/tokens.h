// ServiceAccount bearer tokens: compact JWTs (HS256) signed with a key the server keeps in
// its data directory, issued through serviceaccounts/NAME/token (TokenRequest) and checked
// on every request that carries "Authorization: Bearer".
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::auth {

// The tokens' issuer (kube-apiserver's --service-account-issuer as clusters commonly set it),
// which is also the audience a TokenRequest without audiences gets (--api-audiences' default).
inline constexpr std::string_view kServiceAccountIssuer = "https://kubernetes.default.svc.cluster.local";

struct TokenClaims {
  std::string ns;
  std::string service_account;
  std::string uid;                  // the ServiceAccount's uid
  std::vector<std::string> audiences;
  std::int64_t issued_at = 0;       // unix seconds
  std::int64_t expires_at = 0;
  // The token's own id (the JWT "jti"): bound tokens from a TokenRequest carry one, legacy
  // Secret tokens do not. It reaches the user as the credential-id extra "JTI=<jti>".
  std::string id;
};

// The user extra kube-apiserver gives a request authenticated by a token with a "jti".
inline constexpr std::string_view kCredentialIdExtra = "authentication.kubernetes.io/credential-id";

class TokenIssuer {
 public:
  // Loads DIR/sa-signing.key or creates it (random 32 bytes); without a directory the key
  // lives only in memory.
  explicit TokenIssuer(const std::string& data_dir);
  std::string issue(const TokenClaims& claims) const;
  // Returns the claims when the signature is valid and the token has not expired.
  std::optional<TokenClaims> verify(std::string_view token) const;

 private:
  std::string key_;
};

}  // namespace capstan::apiserver::auth
