// SCRAM-SHA-512 credentials of Kafka users (Strimzi's `authentication: scram-sha-512`): the
// salted password Kafka stores (RFC 5802's Hi(): PBKDF2-HMAC-SHA-512 over a random salt), the
// passwords the user operator generates, the JAAS line clients use, and the Kafka protocol
// requests that describe, set and delete credentials (DescribeUserScramCredentials and
// AlterUserScramCredentials v0, which librdkafka 2.0 lacks).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capstan::kafka {

inline constexpr std::int32_t kScramIterations = 4096;  // Kafka's minimum for SCRAM-SHA-512, Strimzi's choice
inline constexpr std::size_t kGeneratedPasswordLength = 32;  // Strimzi's default

struct ScramCredential {
  std::string salt, salted_password;
  std::int32_t iterations = kScramIterations;
};

// A new credential for `password`, with a fresh 32-byte salt.
ScramCredential scram_sha512_credential(std::string_view password, std::int32_t iterations = kScramIterations);
// The credential for `password` with `salt`.
ScramCredential scram_sha512_credential(std::string_view password, std::string salt, std::int32_t iterations);
// `length` letters and digits from the system's CSPRNG.
std::string random_password(std::size_t length = kGeneratedPasswordLength);
// The `sasl.jaas.config` a Java client sets, as Strimzi's user Secret carries it.
std::string scram_jaas_config(std::string_view user, std::string_view password);

namespace wire {

inline constexpr std::int16_t kDescribeUserScramCredentials = 50;
inline constexpr std::int16_t kAlterUserScramCredentials = 51;

std::string describe_scram_request(const std::vector<std::string>& users);
// Of the users asked about, those with a SCRAM-SHA-512 credential; a user with none is no
// error; any other error throws AdminError naming it.
std::vector<std::string> parse_describe_scram_response(std::string_view body, const std::string& what);

std::string alter_scram_request(const std::vector<std::pair<std::string, ScramCredential>>& upserts, const std::vector<std::string>& deletions);
// Throws AdminError on the first user's error, except a deletion of a credential already gone.
void check_alter_scram_response(std::string_view body, const std::vector<std::string>& deletions, const std::string& what);

}  // namespace wire
}  // namespace capstan::kafka
