// Decryption of age files (age-encryption.org/v1, https://age-encryption.org/v1) with X25519
// identities, as SOPS stores its data key for age recipients and as Flux reads `*.agekey`
// entries of a Kustomization's decryption Secret. Only what decryption needs: identities are
// parsed, never generated; files are opened, never sealed (the tests seal with the real `age`
// and `sops`).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::gitops::sops {

struct AgeIdentity {
  std::string secret;     // the 32-byte X25519 scalar
  std::string recipient;  // its public key as "age1..." (Bech32), for messages
};

// Bounds: an identity file of at most 1 MiB and 1,000 identities; an age file of at most 5 MiB
// (Flux's limit for an encrypted file) and 100 stanzas.
inline constexpr std::size_t kMaxIdentityFileBytes = 1 << 20;
inline constexpr std::size_t kMaxIdentities = 1000;
inline constexpr std::size_t kMaxAgeFileBytes = 5 << 20;
inline constexpr std::size_t kMaxStanzas = 100;

// An identity file: "AGE-SECRET-KEY-1..." lines; blank lines and '#' comments are skipped.
// Throws DecryptError naming the line (never its content) when one is not an X25519 identity.
std::vector<AgeIdentity> parse_age_identities(std::string_view text);

// The recipient ("age1...") of a 32-byte X25519 public key.
std::string age_recipient(std::string_view public_key);

// Decrypts an age file, binary or ASCII-armored ("-----BEGIN AGE ENCRYPTED FILE-----"), with the
// first identity that opens one of its X25519 stanzas; the header MAC and every payload chunk
// are authenticated. Throws DecryptError: malformed header, "no identity matched" (naming the
// recipients tried), a bad MAC, a truncated or tampered payload.
std::string age_decrypt(std::string_view file, const std::vector<AgeIdentity>& identities);

}  // namespace capstan::gitops::sops
