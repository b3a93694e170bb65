// DescribeQuorum v1 of the metadata log's partition: the request's exact bytes and the reading
// of a response as Kafka encodes it.
#include "controllers/kafka/cluster_admin.h"
#include "controllers/kafka/quorum.h"
#include "controllers/kafka/tests/hex.h"

#include <gtest/gtest.h>

namespace capstan::kafka {
namespace {

using testing::hex;
using testing::unhex;

const std::string kMetadataTopic = "13" "5f5f636c75737465725f6d65746164617461";  // "__cluster_metadata"

// A replica's state: id (2 hex digits), log end offset, last fetch and last caught-up times (the
// low 4 bytes of each: the fetch time's high bytes are ffffffff, the caught-up time's 00000001), no tags.
std::string replica(const std::string& id, const std::string& leo, const std::string& fetch, const std::string& caught_up) {
  return "000000" + id + "00000000" + leo + "ffffffff" + fetch + "00000001" + caught_up + "00";
}

TEST(KafkaQuorum, TheRequestAsksForTheMetadataLogsPartition) {
  EXPECT_EQ(hex(wire::describe_quorum_request()),
            "02" + kMetadataTopic +  // one topic
                "02" "00000000" "00"  // partition 0, its tags
                "00"                  // the topic's tags
                "00");                // tags
}

TEST(KafkaQuorum, TheResponseGivesTheLeaderAndEveryVotersTimes) {
  const std::string body = unhex("0000"                     // no error
                                 "02" + kMetadataTopic +    //
                                 "02" "00000000" "0000"     // partition 0, no error
                                 "00000001" "00000005"      // leader 1, epoch 5
                                 "0000000000000064"         // high watermark 100
                                 "04" +                     // three voters
                                 replica("00", "00000064", "ffffffff", "8a2c6400") +  //
                                 replica("01", "00000064", "ffffffff", "8a2c6500") +  //
                                 replica("02", "00000060", "ffffffff", "8a2c6000") +  //
                                 "02" + replica("03", "00000064", "ffffffff", "8a2c6500") +  // one observer
                                 "00" "00" "00");
  const QuorumState q = wire::parse_describe_quorum_response(body, "describing the quorum");
  EXPECT_EQ(q.leader_id, 1);
  EXPECT_EQ(q.leader_epoch, 5);
  EXPECT_EQ(q.high_watermark, 100);
  ASSERT_EQ(q.voters.size(), 3u);
  EXPECT_EQ(q.voters[2].id, 2);
  EXPECT_EQ(q.voters[2].log_end_offset, 0x60);
  EXPECT_EQ(q.voters[2].last_fetch_ms, -1) << "ffffffff ffffffff";
  EXPECT_EQ(q.voters[1].last_caught_up_ms, 0x000001'8a2c6500LL);
  ASSERT_EQ(q.observers.size(), 1u);
  EXPECT_EQ(q.observers[0].id, 3);
}

TEST(KafkaQuorum, ErrorsAreThrownAndAnotherPartitionIsMalformed) {
  try {
    wire::parse_describe_quorum_response(unhex("0029"), "describing the quorum");  // NOT_CONTROLLER (41)
    FAIL() << "no error thrown";
  } catch (const AdminError& e) {
    EXPECT_EQ(e.code(), "NOT_CONTROLLER");
    EXPECT_NE(std::string(e.what()).find("describing the quorum"), std::string::npos) << e.what();
  }
  const std::string partition_error = unhex("0000" "02" + kMetadataTopic + "02" "00000000" "0006");  // NOT_LEADER_OR_FOLLOWER
  EXPECT_THROW(wire::parse_describe_quorum_response(partition_error, "q"), AdminError);
  const std::string other_partition = unhex("0000" "02" + kMetadataTopic + "02" "00000001" "0000");
  EXPECT_THROW(wire::parse_describe_quorum_response(other_partition, "q"), AdminError);
  const std::string other_topic = unhex("0000" "02" "0274" "02" "00000000" "0000");
  EXPECT_THROW(wire::parse_describe_quorum_response(other_topic, "q"), AdminError);
  const std::string truncated = unhex("0000" "02" + kMetadataTopic + "02" "00000000" "0000" "00000001");
  EXPECT_THROW(wire::parse_describe_quorum_response(truncated, "q"), AdminError);
}

}  // namespace
}  // namespace capstan::kafka
