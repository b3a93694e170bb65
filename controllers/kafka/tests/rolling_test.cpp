// Which node may restart now (rolling.h): brokers by their partitions, controllers by the quorum.
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

// Three voters, leader 1; voter 2 last caught up `lag_ms` before the leader.
QuorumState quorum(std::int64_t lag_ms) {
  QuorumState q;
  q.leader_id = 1;
  q.voters = {{0, 100, 9'990, 10'000}, {1, 100, -1, 10'000}, {2, 90, 9'990, 10'000 - lag_ms}};
  return q;
}

TEST(KafkaRolling, AControllerWaitsWhileItsRestartWouldLeaveTooFewVotersCaughtUp) {
  // All caught up: any of them may restart, the leader too (it is ordered last, not held back).
  for (std::int32_t node : {0, 1, 2}) EXPECT_EQ(controller_roll_blocker(node, quorum(0), 2000), "") << node;
  // Voter 2 is 5 s behind (it was rolled before and is catching up): without 0, only the leader
  // is caught up, one of three.
  EXPECT_EQ(controller_roll_blocker(0, quorum(5000), 2000),
            "without it, 1 of 3 controller quorum voters would be caught up with the leader 1 (a majority is 2; behind: [2])");
  EXPECT_NE(controller_roll_blocker(1, quorum(5000), 2000), "") << "the leader, likewise";
  EXPECT_EQ(controller_roll_blocker(2, quorum(5000), 2000), "") << "the lagging voter itself takes nothing away";
  EXPECT_EQ(controller_roll_blocker(0, quorum(1999), 2000), "") << "within the fetch timeout is caught up";
  EXPECT_NE(controller_roll_blocker(0, quorum(1999), 1000), "");
  QuorumState unknown = quorum(0);
  unknown.voters[2].last_caught_up_ms = -1;  // never fetched
  EXPECT_NE(controller_roll_blocker(0, unknown, 2000), "");
}

TEST(KafkaRolling, AQuorumWithoutALeaderWaitsAndOneThatCannotStayAvailableDoesNot) {
  QuorumState leaderless = quorum(0);
  leaderless.leader_id = -1;
  EXPECT_EQ(controller_roll_blocker(0, leaderless, 2000), "the controller quorum has no leader");
  // One or two voters lose their majority whichever restarts: no order helps, nothing waits.
  QuorumState one;
  one.leader_id = 0;
  one.voters = {{0, 5, -1, 100}};
  EXPECT_EQ(controller_roll_blocker(0, one, 2000), "");
  QuorumState two = one;
  two.voters.push_back({1, 0, -1, -1});
  EXPECT_EQ(controller_roll_blocker(1, two, 2000), "");
  EXPECT_EQ(controller_roll_blocker(0, two, 2000), "");
}

}  // namespace
}  // namespace capstan::kafka
