#include "runtime/dns/tsig.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <gtest/gtest.h>

namespace capstan::dns {
namespace {

void put16(std::string& out, std::uint16_t v) {
  out.push_back(static_cast<char>(v >> 8));
  out.push_back(static_cast<char>(v & 0xFF));
}
void put48(std::string& out, std::int64_t v) {
  for (int shift = 40; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xFF));
}

TsigKey key() { return TsigKey{"capstan-test", TsigAlgorithm::kHmacSha256, std::string(32, '\x42')}; }

// What a server does to sign its answer (RFC 8945 §5.3): the request's MAC, the answer,
// then the TSIG variables, written out here independently of tsig.cpp.
std::string sign_answer(std::string answer, const TsigKey& k, std::string_view request_mac, std::int64_t time, std::uint16_t error) {
  std::string vars;
  write_name(vars, k.name);
  put16(vars, klass::kANY);
  vars.append(4, '\0');
  write_name(vars, tsig_algorithm_name(k.algorithm));
  put48(vars, time);
  put16(vars, kTsigFudge);
  put16(vars, error);
  put16(vars, 0);
  std::string input;
  put16(input, static_cast<std::uint16_t>(request_mac.size()));
  input += request_mac;
  input += answer + vars;
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), k.secret.data(), static_cast<int>(k.secret.size()), reinterpret_cast<const unsigned char*>(input.data()),
       input.size(), mac, &len);
  std::string rdata;
  write_name(rdata, tsig_algorithm_name(k.algorithm));
  put48(rdata, time);
  put16(rdata, kTsigFudge);
  put16(rdata, static_cast<std::uint16_t>(len));
  rdata.append(reinterpret_cast<const char*>(mac), len);
  rdata.append(answer.substr(0, 2));
  put16(rdata, error);
  put16(rdata, 0);
  answer[11] = static_cast<char>(answer[11] + 1);
  write_name(answer, k.name);
  put16(answer, type::kTSIG);
  put16(answer, klass::kANY);
  answer.append(4, '\0');
  put16(answer, static_cast<std::uint16_t>(rdata.size()));
  return answer + rdata;
}

std::string plain_answer(std::uint16_t id) {
  Message a;
  a.id = id;
  a.flags = 0x8000 | (opcode::kUpdate << 11);
  a.questions.push_back(Question{"example.test", type::kSOA, klass::kIN});
  return a.encode();
}

TEST(Tsig, AlgorithmsUseCertManagersSpelling) {
  EXPECT_EQ(parse_tsig_algorithm("HMACSHA256"), TsigAlgorithm::kHmacSha256);
  EXPECT_EQ(parse_tsig_algorithm("hmacmd5"), TsigAlgorithm::kHmacMd5);
  EXPECT_EQ(parse_tsig_algorithm("HMACSHA512"), TsigAlgorithm::kHmacSha512);
  EXPECT_FALSE(parse_tsig_algorithm("hmac-sha256"));
  EXPECT_EQ(tsig_algorithm_name(TsigAlgorithm::kHmacMd5), "hmac-md5.sig-alg.reg.int");
}

TEST(Tsig, ASignedRequestCarriesTheRecordLast) {
  Message m = Message::update("example.test", {Record{"a.example.test", type::kTXT, klass::kIN, 60, txt_rdata("v"), {}}});
  std::string wire = m.encode();
  Signed s = tsig_sign(wire, key(), 1'700'000'000);
  EXPECT_EQ(s.mac.size(), 32u);
  Message back = Message::decode(s.wire);
  ASSERT_EQ(back.additional.size(), 1u);
  EXPECT_EQ(back.additional[0].name, "capstan-test");
  EXPECT_EQ(back.additional[0].type, type::kTSIG);
  EXPECT_EQ(back.additional[0].klass, klass::kANY);
  EXPECT_EQ(s.wire.substr(12, wire.size() - 12), wire.substr(12));
  // Another time, another MAC.
  EXPECT_NE(tsig_sign(wire, key(), 1'700'000'001).mac, s.mac);
}

TEST(Tsig, AServersSignedAnswerVerifies) {
  Signed request = tsig_sign(plain_answer(7), key(), 1'700'000'000);
  std::string answer = sign_answer(plain_answer(7), key(), request.mac, 1'700'000'002, 0);
  Message decoded = Message::decode(answer);
  EXPECT_NO_THROW(tsig_verify(answer, decoded, key(), request.mac, 1'700'000'003));
}

TEST(Tsig, ForgedStaleOrRefusedAnswersAreRejected) {
  Signed request = tsig_sign(plain_answer(7), key(), 1'700'000'000);
  std::string answer = sign_answer(plain_answer(7), key(), request.mac, 1'700'000'000, 0);
  // A flipped rcode bit after signing.
  std::string forged = answer;
  forged[3] = static_cast<char>(forged[3] | 0x05);
  EXPECT_THROW(tsig_verify(forged, Message::decode(forged), key(), request.mac, 1'700'000'000), DnsError);
  // Signed for another request.
  EXPECT_THROW(tsig_verify(answer, Message::decode(answer), key(), std::string(32, 'x'), 1'700'000'000), DnsError);
  // Outside the fudge.
  EXPECT_THROW(tsig_verify(answer, Message::decode(answer), key(), request.mac, 1'700'000'000 + 301), DnsError);
  // Another key.
  TsigKey other = key();
  other.secret = std::string(32, '\x43');
  EXPECT_THROW(tsig_verify(answer, Message::decode(answer), other, request.mac, 1'700'000'000), DnsError);
  // The server says BADSIG.
  std::string badsig = sign_answer(plain_answer(7), key(), request.mac, 1'700'000'000, rcode::kBadSig);
  try {
    tsig_verify(badsig, Message::decode(badsig), key(), request.mac, 1'700'000'000);
    FAIL();
  } catch (const DnsError& e) {
    EXPECT_NE(std::string(e.what()).find("BADSIG"), std::string::npos) << e.what();
  }
  // No signature at all.
  std::string plain = plain_answer(7);
  EXPECT_THROW(tsig_verify(plain, Message::decode(plain), key(), request.mac, 1'700'000'000), DnsError);
}

}  // namespace
}  // namespace capstan::dns
