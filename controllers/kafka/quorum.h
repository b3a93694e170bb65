// The KRaft controller quorum as its leader sees it: DescribeQuorum v1 (KIP-836) of our own
// encoding, which a broker forwards to the active controller (what Kafka's
// Admin.describeMetadataQuorum reads; librdkafka 2.0 has no call for it). Strimzi's roller reads
// it to restart the active controller last and to hold back a controller whose restart would
// leave fewer than a majority of the voters caught up (rolling.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::kafka {

struct QuorumReplica {
  std::int32_t id = -1;
  std::int64_t log_end_offset = -1;
  std::int64_t last_fetch_ms = -1;       // the leader's wall clock at the replica's last fetch; -1 for the leader, or unknown
  std::int64_t last_caught_up_ms = -1;   // the leader's append time of what it last fetched; the leader's is now
};

struct QuorumState {
  std::int32_t leader_id = -1;  // -1: no leader known
  std::int32_t leader_epoch = -1;
  std::int64_t high_watermark = -1;
  std::vector<QuorumReplica> voters;
  std::vector<QuorumReplica> observers;  // the brokers that only replicate the metadata log
};

namespace wire {

inline constexpr std::int16_t kDescribeQuorum = 55;
inline constexpr std::int16_t kDescribeQuorumVersion = 1;

// The request for the metadata log's partition (__cluster_metadata-0).
std::string describe_quorum_request();
// The quorum the response reports; throws AdminError on its error (top level or the partition's)
// or a response that is not the metadata partition's, naming `what`.
QuorumState parse_describe_quorum_response(std::string_view body, const std::string& what);

}  // namespace wire
}  // namespace capstan::kafka
