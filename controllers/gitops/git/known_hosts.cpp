#include "controllers/gitops/git/known_hosts.h"

#include "runtime/meta/base64.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <vector>

namespace capstan::gitops::git {
namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    auto at = s.find(sep);
    out.push_back(s.substr(0, at));
    if (at == std::string_view::npos) return out;
    s.remove_prefix(at + 1);
  }
}

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// ssh's match_pattern: * any run, ? one character, case-insensitive for host names.
bool glob(std::string_view pattern, std::string_view name) {
  if (pattern.empty()) return name.empty();
  if (pattern.front() == '*') {
    for (std::size_t i = 0; i <= name.size(); ++i)
      if (glob(pattern.substr(1), name.substr(i))) return true;
    return false;
  }
  if (name.empty()) return false;
  if (pattern.front() != '?' && std::tolower(static_cast<unsigned char>(pattern.front())) != std::tolower(static_cast<unsigned char>(name.front())))
    return false;
  return glob(pattern.substr(1), name.substr(1));
}

// "|1|base64(salt)|base64(HMAC-SHA1(salt, name))".
bool hashed_match(std::string_view pattern, std::string_view name) {
  auto parts = split(pattern, '|');  // "", "1", salt, hash
  if (parts.size() != 4 || parts[1] != "1") return false;
  auto salt = meta::base64_decode(parts[2]);
  auto hash = meta::base64_decode(parts[3]);
  if (!salt || !hash || hash->size() != 20) return false;
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!HMAC(EVP_sha1(), salt->data(), static_cast<int>(salt->size()), reinterpret_cast<const unsigned char*>(name.data()), name.size(), mac, &len))
    return false;
  return len == hash->size() && std::equal(mac, mac + len, reinterpret_cast<const unsigned char*>(hash->data()));
}

bool hosts_match(std::string_view patterns, std::string_view name) {
  if (patterns.starts_with("|")) return hashed_match(patterns, name);
  bool matched = false;
  for (auto p : split(patterns, ',')) {
    if (p.starts_with("!")) {
      if (glob(p.substr(1), name)) return false;  // a negated match wins
    } else if (glob(p, name)) {
      matched = true;
    }
  }
  return matched;
}

}  // namespace

bool known_host(std::string_view known_hosts, std::string_view host, int port, std::string_view key) {
  const std::string name = port == 22 ? std::string(host) : "[" + std::string(host) + "]:" + std::to_string(port);
  bool trusted = false;
  for (auto line : split(known_hosts, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    auto f = fields(line);
    if (f.empty() || f[0].starts_with("#")) continue;
    std::string_view marker;
    if (f[0].starts_with("@")) {
      marker = f[0];
      f.erase(f.begin());
    }
    if (f.size() < 3 || marker == "@cert-authority") continue;
    if (!hosts_match(f[0], name)) continue;
    auto blob = meta::base64_decode(f[2]);
    if (!blob || *blob != key) continue;
    if (marker == "@revoked") return false;
    if (marker.empty()) trusted = true;
  }
  return trusted;
}

}  // namespace capstan::gitops::git
