// Java KeyStore (JKS) files, as cert-manager writes keystore.jks and truststore.jks and as
// keytool and every JDK read them: the big-endian format of sun.security.provider.JavaKeyStore
// (magic 0xFEEDFEED, version 2), private keys protected by the JDK's KeyProtector (SHA-1 key
// stream, OID 1.3.6.1.4.1.42.2.17.1.1), the file's integrity SHA-1 keyed by the password and
// "Mighty Aphrodite". Passwords and aliases are UTF-8 here and UTF-16 (Java chars) in the file;
// aliases are lower-cased as the JDK stores them.
#pragma once

#include "runtime/pki/certificate.h"
#include "runtime/pki/key.h"

#include <string>
#include <string_view>
#include <vector>

namespace capstan::pki {

struct JksTrustedEntry {
  std::string alias;
  Certificate certificate;
};

struct JksContents {
  std::string key_alias;                  // empty when the store has no private key entry
  PrivateKey key;
  std::vector<Certificate> chain;         // the key's certificate first
  std::vector<JksTrustedEntry> trusted;   // in file order
};

// Writes a key store with at most one private key entry (`key_alias`, `key`, `chain`; none when
// `key` is empty) and the trusted certificate entries, each entry dated `created`. Throws
// PkiError when the key does not match chain[0] or an alias is empty, repeated or too long.
std::string encode_jks(const JksContents& contents, std::string_view password, TimePoint created);

// Reads a JKS file (at most 1 MiB, 1024 entries, 64 certificates per chain). Throws PkiError for
// a wrong password (the integrity check fails), a truncated or malformed file, or a protected
// key whose checksum does not match.
JksContents decode_jks(std::string_view data, std::string_view password);

}  // namespace capstan::pki
