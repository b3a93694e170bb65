// The ACME directory (RFC 8555 §7.1.1): the URLs of every other resource.
#pragma once

#include "runtime/json/json.h"

#include <string>
#include <vector>

namespace capstan::certificates::acme {

struct DirectoryMeta {
  std::string terms_of_service;
  std::string website;
  std::vector<std::string> caa_identities;
  bool external_account_required = false;
};

struct Directory {
  std::string new_nonce;
  std::string new_account;
  std::string new_order;
  std::string new_authz;    // optional (pre-authorization)
  std::string revoke_cert;
  std::string key_change;
  std::string renewal_info; // ARI (RFC 9773), optional
  DirectoryMeta meta;
};

// Throws std::invalid_argument naming the missing member when newNonce, newAccount or
// newOrder is absent.
Directory parse_directory(const json::Object& o);

}  // namespace capstan::certificates::acme
