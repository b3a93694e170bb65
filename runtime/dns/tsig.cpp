#include "runtime/dns/tsig.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cstdlib>

namespace capstan::dns {
namespace {

void put16(std::string& out, std::uint16_t v) {
  out.push_back(static_cast<char>(v >> 8));
  out.push_back(static_cast<char>(v & 0xFF));
}
void put48(std::string& out, std::int64_t v) {
  for (int shift = 40; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xFF));
}

const EVP_MD* digest(TsigAlgorithm a) {
  switch (a) {
    case TsigAlgorithm::kHmacMd5: return EVP_md5();
    case TsigAlgorithm::kHmacSha1: return EVP_sha1();
    case TsigAlgorithm::kHmacSha256: return EVP_sha256();
    case TsigAlgorithm::kHmacSha512: return EVP_sha512();
  }
  return EVP_sha256();
}

std::string hmac(const TsigKey& key, std::string_view data) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!HMAC(digest(key.algorithm), key.secret.data(), static_cast<int>(key.secret.size()),
            reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &len))
    throw DnsError("TSIG: HMAC failed");
  return std::string(reinterpret_cast<const char*>(mac), len);
}

// The TSIG variables (RFC 8945 §4.3.3) that follow the message in the MAC's input.
std::string variables(const TsigKey& key, std::int64_t time_signed, std::uint16_t fudge, std::uint16_t error,
                      std::string_view other) {
  std::string v;
  write_name(v, key.name);
  put16(v, klass::kANY);
  v.append(4, '\0');  // TTL 0
  write_name(v, tsig_algorithm_name(key.algorithm));
  put48(v, time_signed);
  put16(v, fudge);
  put16(v, error);
  put16(v, static_cast<std::uint16_t>(other.size()));
  v.append(other);
  return v;
}

struct TsigFields {
  std::string algorithm;
  std::int64_t time_signed = 0;
  std::uint16_t fudge = 0;
  std::string mac;
  std::uint16_t original_id = 0;
  std::uint16_t error = 0;
  std::string other;
};

std::uint16_t get16(std::string_view b, std::size_t& at) {
  if (at + 2 > b.size()) throw DnsError("TSIG record truncated");
  auto v = static_cast<std::uint16_t>((static_cast<unsigned char>(b[at]) << 8) | static_cast<unsigned char>(b[at + 1]));
  at += 2;
  return v;
}

TsigFields parse(std::string_view rdata) {
  TsigFields f;
  std::size_t at = 0;
  f.algorithm = read_name(rdata, at);  // never compressed (RFC 8945 §4.2)
  for (int i = 0; i < 3; ++i) f.time_signed = (f.time_signed << 16) | get16(rdata, at);
  f.fudge = get16(rdata, at);
  std::uint16_t mac_size = get16(rdata, at);
  if (at + mac_size > rdata.size()) throw DnsError("TSIG record truncated in its MAC");
  f.mac = std::string(rdata.substr(at, mac_size));
  at += mac_size;
  f.original_id = get16(rdata, at);
  f.error = get16(rdata, at);
  std::uint16_t other_len = get16(rdata, at);
  if (at + other_len != rdata.size()) throw DnsError("TSIG record: other data does not end the record");
  f.other = std::string(rdata.substr(at, other_len));
  return f;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

std::optional<TsigAlgorithm> parse_tsig_algorithm(std::string_view name) {
  std::string n;
  for (char c : name) n.push_back(static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c));
  if (n == "HMACMD5") return TsigAlgorithm::kHmacMd5;
  if (n == "HMACSHA1") return TsigAlgorithm::kHmacSha1;
  if (n == "HMACSHA256") return TsigAlgorithm::kHmacSha256;
  if (n == "HMACSHA512") return TsigAlgorithm::kHmacSha512;
  return std::nullopt;
}

std::string_view tsig_algorithm_name(TsigAlgorithm a) {
  switch (a) {
    case TsigAlgorithm::kHmacMd5: return "hmac-md5.sig-alg.reg.int";
    case TsigAlgorithm::kHmacSha1: return "hmac-sha1";
    case TsigAlgorithm::kHmacSha256: return "hmac-sha256";
    case TsigAlgorithm::kHmacSha512: return "hmac-sha512";
  }
  return "hmac-sha256";
}

Signed tsig_sign(std::string_view wire, const TsigKey& key, std::int64_t now) {
  if (wire.size() < 12) throw DnsError("TSIG: message shorter than its header");
  Signed s;
  s.mac = hmac(key, std::string(wire) + variables(key, now, kTsigFudge, 0, {}));
  std::string rdata;
  write_name(rdata, tsig_algorithm_name(key.algorithm));
  put48(rdata, now);
  put16(rdata, kTsigFudge);
  put16(rdata, static_cast<std::uint16_t>(s.mac.size()));
  rdata += s.mac;
  rdata.append(wire.substr(0, 2));  // original id
  put16(rdata, 0);                  // error
  put16(rdata, 0);                  // other len
  s.wire = std::string(wire);
  auto arcount = static_cast<std::uint16_t>(((static_cast<unsigned char>(wire[10]) << 8) | static_cast<unsigned char>(wire[11])) + 1);
  s.wire[10] = static_cast<char>(arcount >> 8);
  s.wire[11] = static_cast<char>(arcount & 0xFF);
  write_name(s.wire, key.name);
  put16(s.wire, type::kTSIG);
  put16(s.wire, klass::kANY);
  s.wire.append(4, '\0');
  put16(s.wire, static_cast<std::uint16_t>(rdata.size()));
  s.wire += rdata;
  return s;
}

void tsig_verify(std::string_view wire, const Message& answer, const TsigKey& key, std::string_view request_mac,
                 std::int64_t now) {
  if (answer.additional.empty() || answer.additional.back().type != type::kTSIG)
    throw DnsError("the answer carries no TSIG signature (rcode " + rcode_name(answer.rcode()) + ")");
  const Record& rr = answer.additional.back();
  if (rr.name != key.name) throw DnsError("the answer is signed with key \"" + rr.name + "\", not \"" + key.name + "\"");
  TsigFields f = parse(rr.rdata);
  if (f.error != 0) throw DnsError("the server refused the TSIG signature: " + rcode_name(f.error) + " (key \"" + key.name + "\")");
  if (f.algorithm != tsig_algorithm_name(key.algorithm))
    throw DnsError("the answer is signed with " + f.algorithm + ", not " + std::string(tsig_algorithm_name(key.algorithm)));
  // The answer as it was before the TSIG record: original id, one additional record fewer.
  std::string unsigned_answer(wire.substr(0, answer.last_additional_offset));
  unsigned_answer[0] = static_cast<char>(f.original_id >> 8);
  unsigned_answer[1] = static_cast<char>(f.original_id & 0xFF);
  auto arcount = static_cast<std::uint16_t>(answer.additional.size() - 1);
  unsigned_answer[10] = static_cast<char>(arcount >> 8);
  unsigned_answer[11] = static_cast<char>(arcount & 0xFF);
  std::string input;
  put16(input, static_cast<std::uint16_t>(request_mac.size()));
  input.append(request_mac);
  input += unsigned_answer;
  input += variables(key, f.time_signed, f.fudge, f.error, f.other);
  if (!constant_time_equal(hmac(key, input), f.mac)) throw DnsError("the answer's TSIG signature does not verify (key \"" + key.name + "\")");
  if (std::llabs(now - f.time_signed) > f.fudge)
    throw DnsError("the answer's TSIG time is " + std::to_string(now - f.time_signed) + " s away from ours (fudge " +
                   std::to_string(f.fudge) + " s)");
}

}  // namespace capstan::dns
