// PKCS#12 key stores and trust stores (RFC 7292), as cert-manager writes keystore.p12 and
// truststore.p12 and as Java, OpenSSL and .NET read them. The three profiles are go-pkcs12's:
//   LegacyRC2   certificates under pbeWithSHAAnd40BitRC2-CBC, the key under 3DES, SHA-1 MAC
//   LegacyDES   certificates and key under pbeWithSHAAnd3-KeyTripleDES-CBC, SHA-1 MAC
//   Modern2023  certificates and key under PBES2 (PBKDF2-HMAC-SHA-256, AES-256-CBC), SHA-256 MAC
// 2048 iterations for encryption and MAC. (cert-manager's Modern2026 authenticates with PBMAC1,
// which OpenSSL reads from 3.4 on and which the OpenSSL 3.0 this builds on cannot write.)
#pragma once

#include "runtime/pki/certificate.h"
#include "runtime/pki/key.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::pki {

enum class Pkcs12Profile { LegacyRC2, LegacyDES, Modern2023 };

std::string_view pkcs12_profile_name(Pkcs12Profile p);  // "LegacyRC2", ...
std::optional<Pkcs12Profile> parse_pkcs12_profile(std::string_view name);

// A key store: `key`, its certificate (chain[0], marked with the key's localKeyId) and the rest
// of `chain` (intermediates, then CAs). Throws PkiError when the key does not match chain[0].
std::string encode_pkcs12(const PrivateKey& key, const std::vector<Certificate>& chain, std::string_view password,
                          Pkcs12Profile profile);

// A trust store: certificates only, each with its subject as friendlyName and Java's trusted-key
// usage attribute (anyExtendedKeyUsage), without which keytool lists no trusted entry.
std::string encode_pkcs12_truststore(const std::vector<Certificate>& cas, std::string_view password,
                                     Pkcs12Profile profile);

struct Pkcs12Contents {
  PrivateKey key;                          // empty for a trust store
  std::vector<Certificate> certificates;   // the key's certificate first, when there is a key
  std::optional<Pkcs12Profile> profile;    // nullopt: algorithms of none of the three profiles
};

// Reads a PKCS#12 file (at most 1 MiB, 256 certificates). Throws PkiError for a wrong password
// (the MAC does not verify), a file that is not PKCS#12, or one without a MAC.
Pkcs12Contents decode_pkcs12(std::string_view der, std::string_view password);

}  // namespace capstan::pki
