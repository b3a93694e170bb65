#include "apiserver/auth/tokens.h"

#include "runtime/json/json.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/random.h"

#include <openssl/crypto.h>
#include <openssl/hmac.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace capstan::apiserver::auth {
namespace {

std::string hmac(const std::string& key, std::string_view data) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()), data.size(),
       mac, &len);
  return std::string(reinterpret_cast<char*>(mac), len);
}

}  // namespace

TokenIssuer::TokenIssuer(const std::string& data_dir) {
  std::filesystem::path path;
  if (!data_dir.empty()) {
    path = std::filesystem::path(data_dir) / "sa-signing.key";
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::stringstream ss;
      ss << in.rdbuf();
      key_ = ss.str();
    }
  }
  if (key_.size() < 32) {
    key_ = pki::random_bytes(32);
    if (!path.empty()) {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << key_;
      std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    }
  }
}

std::string TokenIssuer::issue(const TokenClaims& c) const {
  json::Object header{{"alg", "HS256"}, {"typ", "JWT"}};
  json::Array aud;
  for (const auto& a : c.audiences) aud.emplace_back(a);
  json::Object payload{{"iss", kServiceAccountIssuer},
                       {"sub", "system:serviceaccount:" + c.ns + ":" + c.service_account},
                       {"aud", aud},
                       {"iat", c.issued_at},
                       {"exp", c.expires_at},
                       {"kubernetes.io", json::Object{{"namespace", c.ns},
                                                      {"serviceaccount", json::Object{{"name", c.service_account}, {"uid", c.uid}}}}}};
  if (!c.id.empty()) {
    payload["jti"] = c.id;
    payload["nbf"] = c.issued_at;
  }
  std::string signing = meta::base64url_encode(json::serialize(header)) + "." + meta::base64url_encode(json::serialize(payload));
  return signing + "." + meta::base64url_encode(hmac(key_, signing));
}

std::optional<TokenClaims> TokenIssuer::verify(std::string_view token) const {
  auto d1 = token.find('.');
  if (d1 == std::string_view::npos) return std::nullopt;
  auto d2 = token.find('.', d1 + 1);
  if (d2 == std::string_view::npos) return std::nullopt;
  std::string_view signing = token.substr(0, d2);
  auto sig = meta::base64url_decode(token.substr(d2 + 1));
  std::string want = hmac(key_, signing);
  if (!sig || sig->size() != want.size() || CRYPTO_memcmp(sig->data(), want.data(), want.size()) != 0) return std::nullopt;
  auto payload = meta::base64url_decode(token.substr(d1 + 1, d2 - d1 - 1));
  if (!payload) return std::nullopt;
  auto v = json::try_parse(*payload);
  if (!v) return std::nullopt;
  TokenClaims c;
  c.ns = json::get_string(*v, {"kubernetes.io", "namespace"});
  c.service_account = json::get_string(*v, {"kubernetes.io", "serviceaccount", "name"});
  c.uid = json::get_string(*v, {"kubernetes.io", "serviceaccount", "uid"});
  if (const auto* aud = json::get_array(*v, {"aud"}))
    for (const auto& a : *aud)
      if (a.is_string()) c.audiences.emplace_back(a.get_string());
  c.issued_at = json::get_int(*v, {"iat"}).value_or(0);
  c.expires_at = json::get_int(*v, {"exp"}).value_or(0);
  c.id = json::get_string(*v, {"jti"});
  auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  if (c.expires_at && now >= c.expires_at) return std::nullopt;
  if (c.ns.empty() || c.service_account.empty()) return std::nullopt;
  return c;
}

}  // namespace capstan::apiserver::auth
