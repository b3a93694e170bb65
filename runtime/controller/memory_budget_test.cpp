// The per-reconcile memory budget: allocations on the scope's thread are counted net of frees,
// one past the budget throws MemoryBudgetExceeded once, other threads are not counted, and a
// nested scope leaves what it kept to the enclosing one.
#include "runtime/controller/memory_budget.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace capstan::controller {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// Allocates through operator new where the optimiser cannot drop it.
std::unique_ptr<char[]> block(std::size_t n) {
  auto p = std::unique_ptr<char[]>(new char[n]);
  p[0] = 1;
  p[n - 1] = 1;
  return p;
}

TEST(MemoryBudget, CountsWhatTheThreadHoldsNetOfFrees) {
  if (!MemoryBudget::enforced()) GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
  MemoryBudget::Scope scope(0);
  auto a = block(4 * kMiB);
  EXPECT_GE(scope.live(), static_cast<std::int64_t>(4 * kMiB));
  a.reset();
  EXPECT_LT(scope.live(), static_cast<std::int64_t>(kMiB));
  EXPECT_GE(scope.peak(), static_cast<std::int64_t>(4 * kMiB));
  EXPECT_FALSE(scope.exceeded());
}

TEST(MemoryBudget, AnAllocationPastTheBudgetThrowsAndLeavesTheThreadUsable) {
  if (!MemoryBudget::enforced()) GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
  std::vector<std::unique_ptr<char[]>> kept;
  {
    MemoryBudget::Scope scope(8 * kMiB);
    EXPECT_THROW(
        {
          for (int i = 0; i < 64; ++i) kept.push_back(block(kMiB));
        },
        MemoryBudgetExceeded);
    EXPECT_TRUE(scope.exceeded());
    EXPECT_LE(kept.size(), 8u);
    EXPECT_GE(kept.size(), 6u);
    // Unwinding and error handling may allocate a little past the budget...
    EXPECT_NO_THROW(kept.push_back(block(kMiB)));
    // ...but not without end.
    EXPECT_THROW(kept.push_back(block(16 * kMiB)), std::bad_alloc);
    kept.clear();
  }
  // Outside the scope nothing is limited.
  EXPECT_NO_THROW(block(64 * kMiB));
}

TEST(MemoryBudget, OtherThreadsAreNotCounted) {
  if (!MemoryBudget::enforced()) GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
  MemoryBudget::Scope scope(4 * kMiB);
  std::thread t([] {
    auto big = block(32 * kMiB);  // another thread: no scope, no budget
  });
  t.join();
  EXPECT_FALSE(scope.exceeded());
  EXPECT_LT(scope.live(), static_cast<std::int64_t>(kMiB));
}

TEST(MemoryBudget, ANestedScopeHandsWhatItKeptToTheEnclosingOne) {
  if (!MemoryBudget::enforced()) GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
  MemoryBudget::Scope outer(0);
  std::unique_ptr<char[]> kept;
  {
    MemoryBudget::Scope inner(2 * kMiB);
    EXPECT_THROW(block(3 * kMiB), MemoryBudgetExceeded);
    kept = block(kMiB);
  }
  EXPECT_FALSE(outer.exceeded()) << "the inner budget tripped, not the outer one";
  EXPECT_GE(outer.live(), static_cast<std::int64_t>(kMiB));
}

}  // namespace
}  // namespace capstan::controller
