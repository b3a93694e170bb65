// Which broker may restart now (rolling.h).
#include "controllers/kafka/rolling.h"

#include <gtest/gtest.h>

namespace capstan::kafka {
namespace {

TEST(KafkaRolling, ABrokerWaitsWhileAPartitionItKeepsInSyncIsUnderReplicated) {
  // Broker 0 was rolled and has not caught up on orders-1: 1 and 2 keep it available.
  const std::vector<PartitionReplicas> partitions{
      {"orders", 0, {0, 1, 2}, {0, 1, 2}},
      {"orders", 1, {1, 2, 0}, {1, 2}},
      {"audit", 0, {2, 0}, {2, 0}},
  };
  EXPECT_EQ(roll_blocker(1, partitions), "1 partition it keeps in sync is under-replicated: orders-1 (in sync [1,2] of replicas [1,2,0])");
  EXPECT_EQ(roll_blocker(2, partitions), roll_blocker(1, partitions));  // the same partition holds 2 back
  // Broker 0 is not in sync there: its restart takes nothing away, it may roll.
  EXPECT_EQ(roll_blocker(0, partitions), "");
  // Once it caught up, anyone may.
  const std::vector<PartitionReplicas> caught_up{{"orders", 0, {0, 1, 2}, {0, 1, 2}}, {"orders", 1, {1, 2, 0}, {2, 0, 1}}};
  for (std::int32_t b : {0, 1, 2, 7}) EXPECT_EQ(roll_blocker(b, caught_up), "") << b;
}

TEST(KafkaRolling, OneReplicaPartitionsAreNoReasonToWaitAndTheMessageIsBounded) {
  EXPECT_EQ(roll_blocker(3, {{"scratch", 0, {3}, {3}}}), "");
  std::vector<PartitionReplicas> many;
  for (int p = 0; p < 5; ++p) many.push_back({"t", p, {0, 1}, {1}});
  EXPECT_EQ(roll_blocker(1, many),
            "5 partitions it keeps in sync are under-replicated: t-0 (in sync [1] of replicas [0,1]), t-1 (in sync [1] of replicas [0,1]), "
            "t-2 (in sync [1] of replicas [0,1]), and 2 more");
  EXPECT_EQ(roll_blocker(1, {}), "");
}

}  // namespace
}  // namespace capstan::kafka
