// The ACL requests' encoding (DescribeAcls, CreateAcls and DeleteAcls v3) and their responses'
// decoding, transactional ids included (librdkafka 2.0 cannot name them).
#include "controllers/kafka/acls.h"
#include "controllers/kafka/cluster_admin.h"
#include "controllers/kafka/tests/hex.h"
#include "controllers/kafka/wire.h"

#include <gtest/gtest.h>

namespace capstan::kafka {
namespace {

using testing::hex;
using testing::unhex;

const AclBinding kTxWrite{"transactionalId", "tx-", "prefix", "User:bo", "*", "Write", "allow"};
const AclBinding kTxDescribe{"transactionalId", "tx-", "prefix", "User:bo", "*", "Describe", "allow"};
const AclBinding kTopicDeny{"topic", "t", "literal", "User:bo", "*", "Read", "deny"};
const AclBinding kCluster{"cluster", "kafka-cluster", "literal", "User:bo", "10.0.0.1", "IdempotentWrite", "allow"};

// The message of the AdminError `call` throws, after its code; "" when it throws none.
template <class F>
std::string admin_error(F&& call) {
  try {
    call();
  } catch (const AdminError& e) {
    return e.code() + " " + e.what();
  }
  return "";
}

TEST(KafkaAcls, DescribeAsksForEveryBindingOfThePrincipal) {
  EXPECT_EQ(hex(wire::describe_acls_request("User:bo")),
            "01"                      // resource type ANY
            "00"                      // any name (null)
            "01"                      // pattern type ANY
            "08" "557365723a626f"     // principal "User:bo"
            "00"                      // any host (null)
            "01"                      // operation ANY
            "01"                      // permission ANY
            "00");
}

TEST(KafkaAcls, CreateAndDeleteCarryKafkasCodesOfEachBinding) {
  const std::string bindings =
      "03"                                       // two
      "05" "0474782d" "04"                       // TRANSACTIONAL_ID "tx-" PREFIXED
      "08" "557365723a626f" "022a"               // "User:bo", host "*"
      "04" "03" "00"                             // WRITE ALLOW
      "02" "0274" "03"                           // TOPIC "t" LITERAL
      "08" "557365723a626f" "022a"
      "03" "02" "00"                             // READ DENY
      "00";
  EXPECT_EQ(hex(wire::create_acls_request({kTxWrite, kTopicDeny})), bindings);
  // A filter of exact values matches exactly the binding (never a prefixed one by a literal).
  EXPECT_EQ(hex(wire::delete_acls_request({kTxWrite, kTopicDeny})), bindings);
  EXPECT_EQ(hex(wire::create_acls_request({kCluster})),
            "02" "04" "0e6b61666b612d636c7573746572" "03"  // CLUSTER "kafka-cluster" LITERAL
            "08" "557365723a626f" "0931302e302e302e31"        // host "10.0.0.1"
            "0c" "03" "00"                                     // IDEMPOTENT_WRITE ALLOW
            "00");
}

TEST(KafkaAcls, AWordKafkaHasNoCodeForIsRefusedNamingTheBinding) {
  AclBinding b = kTxWrite;
  b.operation = "Read";  // a word it has, just not one Kafka allows on transactional ids: the broker's to say
  EXPECT_NO_THROW(wire::create_acls_request({b}));
  b.operation = "Fly";
  EXPECT_EQ(admin_error([&] { wire::create_acls_request({b}); }),
            "_INVALID_ARG the ACL allow Fly on transactionalId tx- (prefix) for User:bo: Kafka has no operation named Fly");
  b = kTxWrite;
  b.resource_type = "delegationToken";
  EXPECT_NE(admin_error([&] { wire::delete_acls_request({b}); }).find("Kafka has no resource type named delegationToken"), std::string::npos);
}

TEST(KafkaAcls, DescribeReadsTransactionalIdsAndLeavesOutWhatStrimzisWordsCannotName) {
  const std::string body = unhex(
      "00000000" "0000" "00"                    // no throttle, no error, null message
      "03"                                      // two resources
      "05" "0474782d" "04"                      // TRANSACTIONAL_ID "tx-" PREFIXED
      "03"                                      //   two ACLs
      "08557365723a626f" "022a" "04" "03" "00"  //   User:bo * WRITE ALLOW
      "08557365723a626f" "022a" "08" "03" "00"  //   User:bo * DESCRIBE ALLOW
      "00"
      "07" "03626f" "03"                        // USER "bo" LITERAL: no word for it
      "02"
      "08557365723a626f" "022a" "02" "03" "00"
      "00"
      "00");
  EXPECT_EQ(wire::parse_describe_acls_response(body, "describing"), (std::set<AclBinding>{kTxWrite, kTxDescribe}));

  const std::string tokens = unhex(
      "00000000" "0000" "00" "02"
      "02" "0274" "03" "02" "08557365723a626f" "022a" "0d" "03" "00" "00"  // CREATE_TOKENS on a topic: no word for it
      "00");
  EXPECT_TRUE(wire::parse_describe_acls_response(tokens, "describing").empty());
}

TEST(KafkaAcls, DescribeErrorsAndMalformedResponsesThrow) {
  wire::Writer refused;
  refused.int32(0).int16(54).compact_string("No Authorizer is configured.").compact_array_size(0).no_tags();
  EXPECT_EQ(admin_error([&] { wire::parse_describe_acls_response(refused.bytes(), "describing the ACLs of User:bo"); }),
            "SECURITY_DISABLED describing the ACLs of User:bo: SECURITY_DISABLED: No Authorizer is configured.");

  // An array that claims more than the response holds ends at the response's end.
  const std::string claims = unhex("00000000" "0000" "00" "e907");  // 1000 resources
  EXPECT_EQ(admin_error([&] { wire::parse_describe_acls_response(claims, "describing"); }).substr(0, 9), "_BAD_MSG ");

  // More bindings than any user has: refused, not collected.
  wire::Writer many;
  many.int32(0).int16(0).uvarint(0).compact_array_size(1);
  many.int8(2).compact_string("t").int8(3).compact_array_size(wire::kMaxDescribedAcls + 1);
  for (std::size_t i = 0; i <= wire::kMaxDescribedAcls; ++i) many.compact_string("a").compact_string("*").int8(3).int8(3).no_tags();
  many.no_tags().no_tags();
  EXPECT_EQ(admin_error([&] { wire::parse_describe_acls_response(many.bytes(), "describing"); }),
            "_BAD_MSG malformed Kafka response: describing: more than 65536 ACLs");
}

TEST(KafkaAcls, CreateResultsNameTheBindingRefused) {
  const std::string ok = unhex("00000000" "03" "0000" "00" "00" "0000" "00" "00" "00");
  EXPECT_NO_THROW(wire::check_create_acls_response(ok, {kTxWrite, kTopicDeny}, "creating"));

  wire::Writer refused;
  refused.int32(0).compact_array_size(2);
  refused.int16(0).uvarint(0).no_tags();
  refused.int16(42).compact_string("Invalid operation").no_tags();  // INVALID_REQUEST
  refused.no_tags();
  EXPECT_EQ(admin_error([&] { wire::check_create_acls_response(refused.bytes(), {kTxWrite, kTopicDeny}, "creating ACLs in k:9091"); }),
            "INVALID_REQUEST creating ACLs in k:9091: deny Read on topic t (literal) for User:bo: INVALID_REQUEST: Invalid operation");

  // One result for two bindings: not the answer to this request.
  const std::string short_answer = unhex("00000000" "02" "0000" "00" "00" "00");
  EXPECT_EQ(admin_error([&] { wire::check_create_acls_response(short_answer, {kTxWrite, kTopicDeny}, "creating"); }),
            "_BAD_MSG malformed Kafka response: creating: 1 results for 2 ACLs");
}

TEST(KafkaAcls, DeleteResultsNameTheFilterOrTheMatchedBindingRefused) {
  const std::string deleted = unhex(
      "00000000"
      "02"                                                         // one filter result
      "0000" "00"                                                  // no error
      "02"                                                         // one matched binding
      "0000" "00" "05" "0474782d" "04" "08557365723a626f" "022a" "04" "03" "00"
      "00"
      "00");
  EXPECT_NO_THROW(wire::check_delete_acls_response(deleted, {kTxWrite}, "deleting"));

  const std::string nothing_matched = unhex("00000000" "02" "0000" "00" "01" "00" "00");
  EXPECT_NO_THROW(wire::check_delete_acls_response(nothing_matched, {kTxWrite}, "deleting")) << "a binding already gone is no error";

  wire::Writer matched_refused;
  matched_refused.int32(0).compact_array_size(1).int16(0).uvarint(0).compact_array_size(1);
  matched_refused.int16(31).compact_string("denied").int8(5).compact_string("tx-").int8(4).compact_string("User:bo").compact_string("*");
  matched_refused.int8(8).int8(3).no_tags().no_tags().no_tags();  // CLUSTER_AUTHORIZATION_FAILED on DESCRIBE
  EXPECT_EQ(admin_error([&] { wire::check_delete_acls_response(matched_refused.bytes(), {kTxDescribe}, "deleting"); }),
            "CLUSTER_AUTHORIZATION_FAILED deleting: allow Describe on transactionalId tx- (prefix) for User:bo: CLUSTER_AUTHORIZATION_FAILED: denied");

  wire::Writer filter_refused;
  filter_refused.int32(0).compact_array_size(1).int16(54).uvarint(0).compact_array_size(0).no_tags().no_tags();
  EXPECT_EQ(admin_error([&] { wire::check_delete_acls_response(filter_refused.bytes(), {kTopicDeny}, "deleting"); }),
            "SECURITY_DISABLED deleting: deny Read on topic t (literal) for User:bo: SECURITY_DISABLED");
}

}  // namespace
}  // namespace capstan::kafka
