// TSIG (RFC 8945): HMAC signatures on DNS messages with a shared secret, as BIND's
// `allow-update { key ...; }` requires for dynamic updates. Signs requests and verifies the
// server's signed answer to them (full-length MACs only).
#pragma once

#include "runtime/dns/message.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::dns {

enum class TsigAlgorithm { kHmacMd5, kHmacSha1, kHmacSha256, kHmacSha512 };

// cert-manager's spelling in an Issuer's rfc2136.tsigAlgorithm ("HMACMD5", "HMACSHA1",
// "HMACSHA256", "HMACSHA512", any case); nullopt for anything else.
std::optional<TsigAlgorithm> parse_tsig_algorithm(std::string_view name);
// The algorithm's name in a TSIG record ("hmac-sha256", "hmac-md5.sig-alg.reg.int").
std::string_view tsig_algorithm_name(TsigAlgorithm a);

struct TsigKey {
  std::string name;  // the key's name as the server knows it (canonical form)
  TsigAlgorithm algorithm = TsigAlgorithm::kHmacMd5;
  std::string secret;  // raw bytes (BIND's key files hold them base64-encoded)
};

inline constexpr std::uint16_t kTsigFudge = 300;

struct Signed {
  std::string wire;  // the message with its TSIG record appended
  std::string mac;   // needed to verify the answer
};

// Signs the encoded message `wire` at `now` (seconds since the epoch).
Signed tsig_sign(std::string_view wire, const TsigKey& key, std::int64_t now);

// Checks the answer `wire` (decoded as `answer`) to a request signed with `request_mac`: its
// last record is a TSIG from `key` whose MAC matches, whose error is zero and whose time is
// within the fudge of `now`. Throws DnsError naming what is wrong (BADSIG, BADKEY, BADTIME
// reported by the server included).
void tsig_verify(std::string_view wire, const Message& answer, const TsigKey& key, std::string_view request_mac,
                 std::int64_t now);

}  // namespace capstan::dns
