// The SCRAM credential requests' encoding and the salted password (against Python's hashlib).
#include "controllers/kafka/cluster_admin.h"
#include "controllers/kafka/scram.h"
#include "controllers/kafka/tests/hex.h"
#include "controllers/kafka/wire.h"

#include <gtest/gtest.h>

#include <cctype>

namespace capstan::kafka {
namespace {

using testing::hex;

TEST(KafkaWire, VarintsAndCompactStringsAreEncodedAsKafkaDoes) {
  wire::Writer w;
  w.uvarint(0).uvarint(127).uvarint(128).uvarint(300).compact_string("ab").compact_string("").int16(-2).int32(0x01020304);
  EXPECT_EQ(hex(w.bytes()), "007f8001ac02036162" "01" "fffe" "01020304");
  wire::Reader r(w.bytes());
  EXPECT_EQ(r.uvarint(), 0u);
  EXPECT_EQ(r.uvarint(), 127u);
  EXPECT_EQ(r.uvarint(), 128u);
  EXPECT_EQ(r.uvarint(), 300u);
  EXPECT_EQ(r.compact_string(), "ab");
  EXPECT_EQ(r.compact_string(), "");
  EXPECT_EQ(r.int16(), -2);
  EXPECT_EQ(r.int32(), 0x01020304);
  EXPECT_TRUE(r.done());
}

TEST(KafkaWire, ATruncatedOrOversizedResponseIsAnErrorNotARead) {
  const std::string says_four_holds_two("\x05" "ab", 3), never_ends(6, '\xff');
  wire::Reader short_string(says_four_holds_two);
  EXPECT_THROW(short_string.compact_string(), AdminError);
  wire::Reader endless(never_ends);  // a varint longer than 5 bytes
  EXPECT_THROW(endless.uvarint(), AdminError);
  wire::Writer huge;
  huge.compact_array_size(std::size_t{1} << 30);
  wire::Reader r(huge.bytes());
  try {
    r.compact_array_size();
    FAIL() << "an array of 2^30 elements was accepted";
  } catch (const AdminError& e) {
    EXPECT_EQ(e.code(), "_BAD_MSG");
  }
}

TEST(KafkaScram, TheSaltedPasswordIsPbkdf2HmacSha512) {
  const auto c = scram_sha512_credential("pencil", "QSXCR+Q6sek8bf92", 4096);
  EXPECT_EQ(hex(c.salted_password),
            "b3a3c6c9dd254c41930fdfcce26b4296ad330afd8d6ac10987a654de61285df9209247b7e37a30a24d300d5966529297229f88d7a3cbdd3cfbdf60ee87ad80f2");
  const auto a = scram_sha512_credential("pencil"), b = scram_sha512_credential("pencil");
  EXPECT_EQ(a.salt.size(), 32u);
  EXPECT_NE(a.salt, b.salt);
  EXPECT_NE(a.salted_password, b.salted_password);
  EXPECT_EQ(a.iterations, kScramIterations);
}

TEST(KafkaScram, GeneratedPasswordsAreLettersAndDigitsAndDiffer) {
  const auto p = random_password(), q = random_password();
  EXPECT_EQ(p.size(), kGeneratedPasswordLength);
  for (char c : p) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c))) << p;
  EXPECT_NE(p, q);
  EXPECT_EQ(scram_jaas_config("bob", "pw"), "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"bob\" password=\"pw\";");
}

TEST(KafkaScram, AnAlterRequestCarriesDeletionsThenUpsertsOfSha512) {
  ScramCredential c{"s", "p", 4096};
  EXPECT_EQ(hex(wire::alter_scram_request({{"ann", c}}, {"bo"})),
            "02" "03626f" "02" "00"                                      // deletions: [bo SCRAM-SHA-512]
            "02" "04616e6e" "02" "00001000" "0273" "0270" "00"          // upserts: [ann SHA-512 4096 salt pw]
            "00");
  EXPECT_EQ(hex(wire::describe_scram_request({"ann"})), "02" "04616e6e" "00" "00");
}

std::string describe_response(std::int16_t error, const std::vector<std::tuple<std::string, std::int16_t, std::int8_t>>& users) {
  wire::Writer w;
  w.int32(0).int16(error).compact_string("").compact_array_size(users.size());
  for (const auto& [name, code, mechanism] : users) {
    w.compact_string(name).int16(code).uvarint(0);  // null message
    if (mechanism) w.compact_array_size(1).int8(mechanism).int32(4096).no_tags();
    else w.compact_array_size(0);
    w.no_tags();
  }
  w.no_tags();
  return w.bytes();
}

TEST(KafkaScram, DescribeListsTheUsersWithASha512CredentialAndRaisesRealErrors) {
  const auto found = wire::parse_describe_scram_response(describe_response(0, {{"ann", 0, 2}, {"bo", 91, 0}, {"cy", 0, 1}}), "describing");
  EXPECT_EQ(found, std::vector<std::string>{"ann"});  // bo has none (RESOURCE_NOT_FOUND), cy only SCRAM-SHA-256
  try {
    wire::parse_describe_scram_response(describe_response(31, {}), "describing");
    FAIL() << "a cluster authorization failure was not raised";
  } catch (const AdminError& e) {
    EXPECT_EQ(e.code(), "CLUSTER_AUTHORIZATION_FAILED");
    EXPECT_NE(std::string(e.what()).find("describing"), std::string::npos);
  }
}

TEST(KafkaScram, DeletingACredentialAlreadyGoneIsNoErrorButAFailedUpsertIs) {
  wire::Writer gone;
  gone.int32(0).compact_array_size(1).compact_string("bo").int16(91).uvarint(0).no_tags().no_tags();
  EXPECT_NO_THROW(wire::check_alter_scram_response(gone.bytes(), {"bo"}, "deleting"));
  EXPECT_THROW(wire::check_alter_scram_response(gone.bytes(), {}, "setting"), AdminError);
}

}  // namespace
}  // namespace capstan::kafka
