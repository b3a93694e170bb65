// Hostile inputs: every one must end quickly with a clear error, never a crash or a long run.
#include "runtime/cel/test_util.h"

#include <gtest/gtest.h>

namespace capstan::cel {
namespace {

using testing::compile_error;
using testing::run;

TEST(CelLimits, DeepNestingIsRefused) {
  std::string parens = std::string(10000, '(') + "1" + std::string(10000, ')');
  EXPECT_NE(compile_error(parens).find("nested too deeply"), std::string::npos);
  std::string lists = std::string(5000, '[') + std::string(5000, ']');
  EXPECT_NE(compile_error(lists).find("nested too deeply"), std::string::npos);
  std::string nots = std::string(5000, '!') + "true";
  EXPECT_NE(compile_error(nots).find("nested too deeply"), std::string::npos);
  std::string chain = "1";
  for (int i = 0; i < 200; ++i) chain += " + 1";
  EXPECT_NE(compile_error(chain).find("nested too deeply"), std::string::npos);
  std::string selects = "self";
  for (int i = 0; i < 200; ++i) selects += ".a";
  EXPECT_NE(compile_error(selects).find("nested too deeply"), std::string::npos);
}

TEST(CelLimits, LongLogicalChainsStayShallow) {
  // && and || chains are balanced, so 1000 conjuncts are 11 levels deep.
  std::string conj = "true";
  for (int i = 0; i < 1000; ++i) conj += " && true";
  EXPECT_EQ(run(conj), "true");
}

TEST(CelLimits, LengthIsBounded) {
  std::string big = "'" + std::string(40000, 'a') + "'";
  EXPECT_NE(compile_error(big).find("more than the limit"), std::string::npos);
  EXPECT_NE(compile_error("1" + std::string(30, '0')).find("out of range"), std::string::npos);
}

TEST(CelLimits, CostBudgetStopsRunawayEvaluation) {
  // 100^3 iterations: refused by the budget rather than run.
  std::string l = "[" + std::string("0") + std::string(99 * 2, ' ') + "]";
  std::string hundred = "[";
  for (int i = 0; i < 100; ++i) hundred += (i ? ",0" : "0");
  hundred += "]";
  std::string expr = hundred + ".all(a, " + hundred + ".all(b, " + hundred + ".all(c, " + hundred + ".all(d, true))))";
  EXPECT_EQ(run(expr), "error: operation cancelled: actual cost limit exceeded");
  // An error inside || must not hide the budget being exhausted.
  EXPECT_EQ(run("true || " + expr), "true");
  EXPECT_EQ(run(expr + " || true"), "error: operation cancelled: actual cost limit exceeded");
  EXPECT_EQ(run("[1, 2, 3].all(x, x > 0)", "null", 5), "error: operation cancelled: actual cost limit exceeded");
}

TEST(CelLimits, StringGrowthIsCharged) {
  // Each map() iteration concatenates a 1 MiB string: the size is charged, so it stops early.
  std::string big(1 << 20, 'x');
  std::string hundred = "[";
  for (int i = 0; i < 1000; ++i) hundred += (i ? ",0" : "0");
  hundred += "]";
  EXPECT_EQ(run(hundred + ".map(i, self + self + self).size()", json::serialize(json::Value(json::String(big)))),
            "error: operation cancelled: actual cost limit exceeded");
}

TEST(CelLimits, DeepDocumentsAreErrorsNotCrashes) {
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += "[";
  for (int i = 0; i < 200; ++i) deep += "]";
  EXPECT_TRUE(Value::from_json(json::parse(deep)).is_error());
}

}  // namespace
}  // namespace capstan::cel
