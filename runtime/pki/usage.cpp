#include "runtime/pki/usage.h"

#include <algorithm>
#include <array>
#include <utility>

#include "runtime/pki/error.h"

namespace capstan::pki {
namespace {

constexpr std::array<std::pair<std::string_view, KeyUsage>, 10> kKeyUsageNames{{
    {"digital signature", KeyUsage::DigitalSignature},
    {"signing", KeyUsage::DigitalSignature},
    {"content commitment", KeyUsage::ContentCommitment},
    {"key encipherment", KeyUsage::KeyEncipherment},
    {"data encipherment", KeyUsage::DataEncipherment},
    {"key agreement", KeyUsage::KeyAgreement},
    {"cert sign", KeyUsage::CertSign},
    {"crl sign", KeyUsage::CrlSign},
    {"encipher only", KeyUsage::EncipherOnly},
    {"decipher only", KeyUsage::DecipherOnly},
}};

constexpr std::array<std::pair<std::string_view, ExtKeyUsage>, 13> kExtKeyUsageNames{{
    {"any", ExtKeyUsage::Any},
    {"server auth", ExtKeyUsage::ServerAuth},
    {"client auth", ExtKeyUsage::ClientAuth},
    {"code signing", ExtKeyUsage::CodeSigning},
    {"email protection", ExtKeyUsage::EmailProtection},
    {"s/mime", ExtKeyUsage::EmailProtection},
    {"ipsec end system", ExtKeyUsage::IpsecEndSystem},
    {"ipsec tunnel", ExtKeyUsage::IpsecTunnel},
    {"ipsec user", ExtKeyUsage::IpsecUser},
    {"timestamping", ExtKeyUsage::Timestamping},
    {"ocsp signing", ExtKeyUsage::OcspSigning},
    {"microsoft sgc", ExtKeyUsage::MicrosoftSgc},
    {"netscape sgc", ExtKeyUsage::NetscapeSgc},
}};

template <class T>
void insert_sorted(std::vector<T>& v, T x) {
  auto it = std::lower_bound(v.begin(), v.end(), x);
  if (it == v.end() || *it != x) v.insert(it, x);
}

}  // namespace

bool Usages::has(KeyUsage u) const { return std::find(key.begin(), key.end(), u) != key.end(); }
bool Usages::has(ExtKeyUsage u) const { return std::find(ext.begin(), ext.end(), u) != ext.end(); }

std::string_view usage_name(KeyUsage u) {
  for (const auto& [name, value] : kKeyUsageNames)
    if (value == u && name != "signing") return name;
  return "unknown";
}

std::string_view usage_name(ExtKeyUsage u) {
  for (const auto& [name, value] : kExtKeyUsageNames)
    if (value == u && name != "s/mime") return name;
  return "unknown";
}

Usages parse_usages(const std::vector<std::string>& names) {
  Usages out;
  for (const auto& n : names) {
    auto k = std::find_if(kKeyUsageNames.begin(), kKeyUsageNames.end(), [&](auto& p) { return p.first == n; });
    if (k != kKeyUsageNames.end()) {
      insert_sorted(out.key, k->second);
      continue;
    }
    auto e = std::find_if(kExtKeyUsageNames.begin(), kExtKeyUsageNames.end(), [&](auto& p) { return p.first == n; });
    if (e != kExtKeyUsageNames.end()) {
      insert_sorted(out.ext, e->second);
      continue;
    }
    throw PkiError("unknown key usage \"" + n + "\"");
  }
  return out;
}

std::vector<std::string> default_usages() { return {"digital signature", "key encipherment"}; }

Usages effective_usages(const std::vector<std::string>& names, bool is_ca) {
  Usages out = parse_usages(names.empty() ? default_usages() : names);
  if (is_ca) insert_sorted(out.key, KeyUsage::CertSign);
  return out;
}

std::vector<std::string> usage_names(const Usages& u) {
  std::vector<std::string> out;
  for (auto k : u.key) out.emplace_back(usage_name(k));
  for (auto e : u.ext) out.emplace_back(usage_name(e));
  return out;
}

}  // namespace capstan::pki
