// IncrementalAlterConfigs v1 of a topic: the request's exact bytes and the response's reading.
#include "controllers/kafka/cluster_admin.h"
#include "controllers/kafka/tests/hex.h"
#include "controllers/kafka/topic_configs.h"

#include <gtest/gtest.h>

namespace capstan::kafka {
namespace {

using testing::hex;
using testing::unhex;

TEST(KafkaTopicConfigs, SetsAndDeletesKeyByKey) {
  EXPECT_EQ(hex(wire::alter_topic_configs_request("t", {{"retention.ms", "1000"}}, {"cleanup.policy"})),
            "02"                                   // one resource
            "02" "0274"                            // TOPIC "t"
            "03"                                   // two operations
            "0d" "726574656e74696f6e2e6d73"        // "retention.ms"
            "00" "0531303030" "00"                 // SET "1000", tags
            "0f" "636c65616e75702e706f6c696379"    // "cleanup.policy"
            "01" "00" "00"                         // DELETE (null value), tags
            "00"                                   // the resource's tags
            "00"                                   // validateOnly false
            "00");                                 // tags
}

TEST(KafkaTopicConfigs, TheTopicsErrorIsThrownAndAResponseOfAnotherResourceIsMalformed) {
  const std::string ok = unhex("00000000" "02" "0000" "00" "02" "0274" "00" "00");
  EXPECT_NO_THROW(wire::check_alter_configs_response(ok, "t", "changing t"));
  // INVALID_CONFIG (40) with the broker's message.
  const std::string refused = unhex("00000000" "02" "0028" "0b" "626164207661756c6521" "02" "0274" "00" "00");
  try {
    wire::check_alter_configs_response(refused, "t", "changing t");
    FAIL() << "no error thrown";
  } catch (const AdminError& e) {
    EXPECT_EQ(e.code(), "INVALID_CONFIG");
    EXPECT_NE(std::string(e.what()).find("bad vaule!"), std::string::npos) << e.what();
  }
  const std::string other = unhex("00000000" "02" "0000" "00" "02" "0275" "00" "00");
  EXPECT_THROW(wire::check_alter_configs_response(other, "t", "changing t"), AdminError);
  const std::string two = unhex("00000000" "03" "0000" "00" "02" "0274" "00" "0000" "00" "02" "0274" "00" "00");
  EXPECT_THROW(wire::check_alter_configs_response(two, "t", "changing t"), AdminError);
  EXPECT_THROW(wire::check_alter_configs_response(unhex("00000000" "02" "00"), "t", "changing t"), AdminError) << "truncated";
}

}  // namespace
}  // namespace capstan::kafka
