// Key usages and extended key usages, named as cert-manager's `spec.usages` names them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::pki {

// RFC 5280 keyUsage bits; the enumerator value is the bit number.
enum class KeyUsage {
  DigitalSignature = 0,   // "digital signature" (alias "signing")
  ContentCommitment = 1,  // "content commitment" (nonRepudiation)
  KeyEncipherment = 2,    // "key encipherment"
  DataEncipherment = 3,   // "data encipherment"
  KeyAgreement = 4,       // "key agreement"
  CertSign = 5,           // "cert sign"
  CrlSign = 6,            // "crl sign"
  EncipherOnly = 7,       // "encipher only"
  DecipherOnly = 8,       // "decipher only"
};

enum class ExtKeyUsage {
  Any,             // "any"                2.5.29.37.0
  ServerAuth,      // "server auth"        1.3.6.1.5.5.7.3.1
  ClientAuth,      // "client auth"        1.3.6.1.5.5.7.3.2
  CodeSigning,     // "code signing"       1.3.6.1.5.5.7.3.3
  EmailProtection, // "email protection" (alias "s/mime") 1.3.6.1.5.5.7.3.4
  IpsecEndSystem,  // "ipsec end system"   1.3.6.1.5.5.7.3.5
  IpsecTunnel,     // "ipsec tunnel"       1.3.6.1.5.5.7.3.6
  IpsecUser,       // "ipsec user"         1.3.6.1.5.5.7.3.7
  Timestamping,    // "timestamping"       1.3.6.1.5.5.7.3.8
  OcspSigning,     // "ocsp signing"       1.3.6.1.5.5.7.3.9
  MicrosoftSgc,    // "microsoft sgc"      1.3.6.1.4.1.311.10.3.3
  NetscapeSgc,     // "netscape sgc"       2.16.840.1.113730.4.1
};

// A parsed usage list: key usages sorted by bit, extended key usages in enum order, no duplicates.
struct Usages {
  std::vector<KeyUsage> key;
  std::vector<ExtKeyUsage> ext;

  bool has(KeyUsage u) const;
  bool has(ExtKeyUsage u) const;
  bool empty() const { return key.empty() && ext.empty(); }
  bool operator==(const Usages&) const = default;
};

// The canonical cert-manager name ("digital signature", "server auth", ...).
std::string_view usage_name(KeyUsage u);
std::string_view usage_name(ExtKeyUsage u);

// Parses cert-manager usage names (exact, lower case; "signing" and "s/mime" are aliases).
// Throws PkiError naming the first unknown entry: `unknown key usage "foo"`.
Usages parse_usages(const std::vector<std::string>& names);

// cert-manager's defaults when `usages` is empty: {"digital signature", "key encipherment"}.
std::vector<std::string> default_usages();

// What cert-manager puts in a certificate for (usages, isCA): the defaults when `names` is
// empty, plus "cert sign" for a CA.
Usages effective_usages(const std::vector<std::string>& names, bool is_ca);

// Canonical names, key usages first: usage_names(parse_usages(x)) normalises a spec list.
std::vector<std::string> usage_names(const Usages& u);

}  // namespace capstan::pki
