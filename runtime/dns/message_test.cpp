#include "runtime/dns/message.h"

#include <gtest/gtest.h>

namespace capstan::dns {
namespace {

TEST(DnsName, CanonicalFormIsLowerCaseWithoutTheTrailingDot) {
  EXPECT_EQ(canonical_name("_ACME-Challenge.WWW.Example.COM."), "_acme-challenge.www.example.com");
  EXPECT_EQ(canonical_name("."), "");
  EXPECT_EQ(canonical_name("*.example.com"), "*.example.com");
}

TEST(DnsName, BadNamesAreRefusedWithTheReason) {
  EXPECT_THROW(canonical_name("a..b"), DnsError);
  EXPECT_THROW(canonical_name(std::string(64, 'a') + ".com"), DnsError);
  EXPECT_THROW(canonical_name(std::string(254, 'a')), DnsError);
  try {
    canonical_name("bad name.com");
    FAIL();
  } catch (const DnsError& e) {
    EXPECT_NE(std::string(e.what()).find("bad name.com"), std::string::npos);
  }
}

TEST(DnsMessage, AnUpdateRoundTrips) {
  Record add{"_acme-challenge.www.example.com", type::kTXT, klass::kIN, 60, txt_rdata("digest-value"), {}};
  Message m = Message::update("Example.com.", {add});
  EXPECT_EQ(m.opcode(), opcode::kUpdate);
  Message back = Message::decode(m.encode());
  EXPECT_EQ(back.id, m.id);
  EXPECT_EQ(back.opcode(), opcode::kUpdate);
  ASSERT_EQ(back.questions.size(), 1u);
  EXPECT_EQ(back.questions[0].name, "example.com");
  EXPECT_EQ(back.questions[0].type, type::kSOA);
  ASSERT_EQ(back.authority.size(), 1u);
  EXPECT_EQ(back.authority[0].name, add.name);
  EXPECT_EQ(back.authority[0].ttl, 60u);
  EXPECT_EQ(txt_text(back.authority[0].rdata), "digest-value");
}

TEST(DnsMessage, LongTextIsSplitInto255ByteStrings) {
  std::string text(600, 'x');
  std::string rdata = txt_rdata(text);
  EXPECT_EQ(rdata.size(), 603u);
  EXPECT_EQ(static_cast<unsigned char>(rdata[0]), 255);
  EXPECT_EQ(txt_text(rdata), text);
  EXPECT_THROW(txt_text(std::string("\x05" "abc", 4)), DnsError);
}

// An answer as a server compresses it: the answer's owner and the CNAME target point back
// into the question.
TEST(DnsMessage, CompressedNamesDecode) {
  std::string w;
  auto put16 = [&](int v) {
    w.push_back(static_cast<char>(v >> 8));
    w.push_back(static_cast<char>(v & 0xFF));
  };
  put16(0x1234);
  put16(0x8400);  // response, authoritative
  put16(1);
  put16(1);
  put16(0);
  put16(0);
  write_name(w, "_acme-challenge.example.com");
  put16(type::kCNAME);
  put16(klass::kIN);
  w += "\xC0\x0C";  // the question's name
  put16(type::kCNAME);
  put16(klass::kIN);
  w += std::string("\0\0\0\x3c", 4);
  put16(8);
  w += "\x05other";
  w += "\xC0\x1C";  // "example.com" inside the question
  Message m = Message::decode(w);
  EXPECT_TRUE(m.response());
  EXPECT_TRUE(m.authoritative());
  ASSERT_EQ(m.answers.size(), 1u);
  EXPECT_EQ(m.answers[0].name, "_acme-challenge.example.com");
  EXPECT_EQ(m.answers[0].target, "other.example.com");
}

TEST(DnsMessage, HostileAnswersThrowInsteadOfLooping) {
  std::string header("\x00\x01\x84\x00\x00\x01\x00\x00\x00\x00\x00\x00", 12);
  // A name pointing at itself.
  EXPECT_THROW(Message::decode(header + std::string("\xC0\x0C\x00\x06\x00\x01", 6)), DnsError);
  // A label running past the end.
  EXPECT_THROW(Message::decode(header + std::string("\x3F" "abc", 4)), DnsError);
  // A header claiming more records than allowed.
  std::string many("\x00\x01\x84\x00\xFF\xFF\x00\x00\x00\x00\x00\x00", 12);
  EXPECT_THROW(Message::decode(many), DnsError);
  // Truncated header.
  EXPECT_THROW(Message::decode(std::string("\x00\x01\x84", 3)), DnsError);
}

TEST(DnsMessage, RcodeNames) {
  EXPECT_EQ(rcode_name(rcode::kRefused), "REFUSED");
  EXPECT_EQ(rcode_name(rcode::kNotAuth), "NOTAUTH");
  EXPECT_EQ(rcode_name(rcode::kBadSig), "BADSIG");
  EXPECT_EQ(rcode_name(42), "RCODE42");
}

}  // namespace
}  // namespace capstan::dns
