#include "controllers/kafka/quorum.h"

#include "controllers/kafka/cluster_admin.h"
#include "controllers/kafka/wire.h"

namespace capstan::kafka::wire {
namespace {

constexpr std::string_view kMetadataTopic = "__cluster_metadata";

[[noreturn]] void malformed(const std::string& what, const std::string& why) {
  throw AdminError("_BAD_MSG", "malformed Kafka response: " + what + ": " + why);
}

std::vector<QuorumReplica> replicas(Reader& r) {
  std::vector<QuorumReplica> out(r.compact_array_size());
  for (auto& replica : out) {
    replica.id = r.int32();
    replica.log_end_offset = r.int64();
    replica.last_fetch_ms = r.int64();
    replica.last_caught_up_ms = r.int64();
    r.skip_tags();
  }
  return out;
}

}  // namespace

std::string describe_quorum_request() {
  Writer w;
  w.compact_array_size(1).compact_string(kMetadataTopic);
  w.compact_array_size(1).int32(0).no_tags();  // partition 0, its tags
  w.no_tags();                                  // the topic's
  w.no_tags();
  return w.bytes();
}

QuorumState parse_describe_quorum_response(std::string_view body, const std::string& what) {
  Reader r(body);
  throw_if_error(r.int16(), std::nullopt, what);
  if (const std::size_t topics = r.compact_array_size(); topics != 1) malformed(what, std::to_string(topics) + " topics for one");
  if (const std::string topic = r.compact_string(); topic != kMetadataTopic) malformed(what, "the answer is of topic " + topic);
  if (const std::size_t partitions = r.compact_array_size(); partitions != 1) malformed(what, std::to_string(partitions) + " partitions for one");
  if (const std::int32_t partition = r.int32(); partition != 0) malformed(what, "the answer is of partition " + std::to_string(partition));
  throw_if_error(r.int16(), std::nullopt, what);
  QuorumState q;
  q.leader_id = r.int32();
  q.leader_epoch = r.int32();
  q.high_watermark = r.int64();
  q.voters = replicas(r);
  q.observers = replicas(r);
  r.skip_tags();  // the partition's (HighWatermarkUpdateTimeMs)
  r.skip_tags();  // the topic's
  r.skip_tags();
  return q;
}

}  // namespace capstan::kafka::wire
