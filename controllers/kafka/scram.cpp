#include "controllers/kafka/scram.h"

#include "controllers/kafka/cluster_admin.h"
#include "controllers/kafka/wire.h"
#include "runtime/pki/random.h"

#include <openssl/evp.h>

#include <algorithm>
#include <stdexcept>

namespace capstan::kafka {
namespace {

constexpr std::int8_t kScramSha512 = 2;           // Kafka's ScramMechanism
constexpr std::int16_t kResourceNotFound = 91;    // a user without that credential
constexpr std::size_t kSaltBytes = 32;

}  // namespace

ScramCredential scram_sha512_credential(std::string_view password, std::int32_t iterations) {
  return scram_sha512_credential(password, pki::random_bytes(kSaltBytes), iterations);
}

ScramCredential scram_sha512_credential(std::string_view password, std::string salt, std::int32_t iterations) {
  ScramCredential c;
  c.iterations = iterations;
  c.salt = std::move(salt);
  c.salted_password.resize(64);
  if (PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()), reinterpret_cast<const unsigned char*>(c.salt.data()),
                        static_cast<int>(c.salt.size()), iterations, EVP_sha512(), static_cast<int>(c.salted_password.size()),
                        reinterpret_cast<unsigned char*>(c.salted_password.data())) != 1)
    throw std::runtime_error("PBKDF2-HMAC-SHA-512 failed");
  return c;
}

std::string random_password(std::size_t length) {
  static constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::string out;
  while (out.size() < length)
    for (unsigned char b : pki::random_bytes(length))
      if (b < 248 && out.size() < length) out.push_back(kAlphabet[b % kAlphabet.size()]);  // 248 = 4 * 62: no bias
  return out;
}

std::string scram_jaas_config(std::string_view user, std::string_view password) {
  return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + std::string(user) + "\" password=\"" +
         std::string(password) + "\";";
}

namespace wire {

std::string describe_scram_request(const std::vector<std::string>& users) {
  Writer w;
  w.compact_array_size(users.size());
  for (const auto& u : users) w.compact_string(u).no_tags();
  w.no_tags();
  return w.bytes();
}

std::vector<std::string> parse_describe_scram_response(std::string_view body, const std::string& what) {
  Reader r(body);
  r.int32();  // throttle time
  const std::int16_t error = r.int16();
  throw_if_error(error, r.compact_nullable_string(), what);
  std::vector<std::string> out;
  for (std::size_t i = 0, n = r.compact_array_size(); i < n; ++i) {
    std::string user = r.compact_string();
    const std::int16_t user_error = r.int16();
    auto message = r.compact_nullable_string();
    if (user_error != kResourceNotFound) throw_if_error(user_error, message, what + " (user " + user + ")");
    bool sha512 = false;
    for (std::size_t j = 0, m = r.compact_array_size(); j < m; ++j) {
      sha512 |= r.int8() == kScramSha512;
      r.int32();  // iterations
      r.skip_tags();
    }
    r.skip_tags();
    if (sha512) out.push_back(std::move(user));
  }
  return out;
}

std::string alter_scram_request(const std::vector<std::pair<std::string, ScramCredential>>& upserts, const std::vector<std::string>& deletions) {
  Writer w;
  w.compact_array_size(deletions.size());
  for (const auto& u : deletions) w.compact_string(u).int8(kScramSha512).no_tags();
  w.compact_array_size(upserts.size());
  for (const auto& [u, c] : upserts)
    w.compact_string(u).int8(kScramSha512).int32(c.iterations).compact_string(c.salt).compact_string(c.salted_password).no_tags();
  w.no_tags();
  return w.bytes();
}

void check_alter_scram_response(std::string_view body, const std::vector<std::string>& deletions, const std::string& what) {
  Reader r(body);
  r.int32();  // throttle time
  for (std::size_t i = 0, n = r.compact_array_size(); i < n; ++i) {
    const std::string user = r.compact_string();
    const std::int16_t error = r.int16();
    auto message = r.compact_nullable_string();
    r.skip_tags();
    const bool deleted = std::find(deletions.begin(), deletions.end(), user) != deletions.end();
    if (!(deleted && error == kResourceNotFound)) throw_if_error(error, message, what + " (user " + user + ")");
  }
}

}  // namespace wire
}  // namespace capstan::kafka
