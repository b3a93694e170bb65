// The client quota requests' encoding (DescribeClientQuotas and AlterClientQuotas v1).
#include "controllers/kafka/cluster_admin.h"
#include "controllers/kafka/quotas.h"
#include "controllers/kafka/tests/hex.h"
#include "controllers/kafka/wire.h"

#include <gtest/gtest.h>

namespace capstan::kafka {
namespace {

using testing::hex;

TEST(KafkaQuotas, RequestsNameTheUserEntityAloneAndCarryIeeeDoubles) {
  EXPECT_EQ(hex(wire::describe_user_quotas_request("bo")),
            "02" "0575736572" "00" "03626f" "00"  // [user exact "bo"]
            "01"                                  // strict
            "00");
  EXPECT_EQ(hex(wire::alter_user_quotas_request("bo", {{"a", 2.5}}, {"b"})),
            "02"                                         // one entry
            "02" "0575736572" "03626f" "00"              // entity [user=bo]
            "03" "0261" "4004000000000000" "00" "00"     // set a = 2.5
            "0262" "0000000000000000" "01" "00"          // remove b
            "00"
            "00"                                         // not validate-only
            "00");
}

TEST(KafkaQuotas, DescribeReadsTheUsersOwnEntityNotItsClientIdPairs) {
  wire::Writer w;
  w.int32(0).int16(0).uvarint(0).compact_array_size(2);
  w.compact_array_size(1).compact_string("user").compact_string("bo").no_tags();  // user=bo
  w.compact_array_size(2).compact_string("producer_byte_rate").float64(1024).no_tags().compact_string("request_percentage").float64(55).no_tags();
  w.no_tags();
  w.compact_array_size(2).compact_string("user").compact_string("bo").no_tags().compact_string("client-id").compact_string("x").no_tags();
  w.compact_array_size(1).compact_string("producer_byte_rate").float64(1).no_tags();
  w.no_tags();
  w.no_tags();
  EXPECT_EQ(wire::parse_describe_quotas_response(w.bytes(), "bo", "describing"),
            (Quotas{{"producer_byte_rate", 1024}, {"request_percentage", 55}}));

  wire::Writer denied;
  denied.int32(0).int16(31).compact_string("no").uvarint(0).no_tags();
  try {
    wire::parse_describe_quotas_response(denied.bytes(), "bo", "describing");
    FAIL() << "an authorization failure was not raised";
  } catch (const AdminError& e) {
    EXPECT_EQ(e.code(), "CLUSTER_AUTHORIZATION_FAILED");
  }
}

TEST(KafkaQuotas, AnAlterResponseErrorIsRaised) {
  wire::Writer w;
  w.int32(0).compact_array_size(1).int16(42).compact_string("bad quota").compact_array_size(1).compact_string("user").compact_string("bo").no_tags();
  w.no_tags().no_tags();
  EXPECT_THROW(wire::check_alter_quotas_response(w.bytes(), "altering"), AdminError);
}

}  // namespace
}  // namespace capstan::kafka
