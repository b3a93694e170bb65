// The parser itself: tree shapes and canonical printing, precedence, positions in messages,
// and the bounds on input size, nesting and node count.
#include "apis/monitoring/promql/promql.h"

#include <gtest/gtest.h>

namespace capstan::promql {
namespace {

std::string printed(std::string_view expr) {
  auto r = parse(expr);
  EXPECT_TRUE(r.ok()) << expr << ": " << (r.error ? r.error->str(expr) : "");
  return r.ok() ? r.expr->str() : "";
}

TEST(PromQLParser, PrintsTheCanonicalForm) {
  EXPECT_EQ(printed("sum by(job)(rate(http_requests_total{code=~'5..'}[5m]))"),
            R"(sum by (job) (rate(http_requests_total{code=~"5.."}[5m])))");
  EXPECT_EQ(printed("a + ON(b) GROUP_LEFT(c) d"), "a + on (b) group_left (c) d");
  EXPECT_EQ(printed("foo offset -5m @ start()"), "foo @ start() offset -5m");
  EXPECT_EQ(printed("foo[1h30m:1m] @ 100 offset 1d"), "foo[1h30m:1m] @ 100.000 offset 1d");
  EXPECT_EQ(printed("count_values without(a) ('v', x)"), R"(count_values without (a) ("v", x))");
  EXPECT_EQ(printed("{__name__=\"up\"}"), R"({__name__="up"})");
  EXPECT_EQ(printed("- 1"), "-1");
  EXPECT_EQ(printed("0x10 > bool .5"), "16 > bool 0.5");
}

TEST(PromQLParser, PrecedenceAndAssociativity) {
  auto r = parse("a or b and c == d + e * f ^ g ^ h");
  ASSERT_TRUE(r.ok());
  const Node& root = *r.expr;
  EXPECT_EQ(root.op, Tok::kLor);
  EXPECT_EQ(root.children[1]->op, Tok::kLand);
  const Node& pow = *root.children[1]->children[1]->children[1]->children[1]->children[1];
  EXPECT_EQ(pow.op, Tok::kPow);
  EXPECT_EQ(pow.children[1]->op, Tok::kPow) << "^ is right-associative";
  auto minus = parse("-a ^ b * c");
  ASSERT_TRUE(minus.ok());
  EXPECT_EQ(minus.expr->op, Tok::kMul);
  EXPECT_EQ(minus.expr->children[0]->kind, NodeKind::kUnary);
  EXPECT_EQ(minus.expr->children[0]->children[0]->op, Tok::kPow) << "-a^b is -(a^b)";
  auto sub = parse("a - b - c");
  EXPECT_EQ(sub.expr->children[0]->kind, NodeKind::kBinary) << "- is left-associative";
}

TEST(PromQLParser, TypesOfExpressions) {
  EXPECT_EQ(parse("1 + 2").expr->type(), ValueType::kScalar);
  EXPECT_EQ(parse("up * 2").expr->type(), ValueType::kVector);
  EXPECT_EQ(parse("up[5m]").expr->type(), ValueType::kMatrix);
  EXPECT_EQ(parse("rate(up[5m])[1h:]").expr->type(), ValueType::kMatrix);
  EXPECT_EQ(parse("\"s\"").expr->type(), ValueType::kString);
  EXPECT_EQ(parse("scalar(up)").expr->type(), ValueType::kScalar);
}

TEST(PromQLParser, ErrorsNameLineColumnAndReason) {
  EXPECT_EQ(check("rate(foo)"), "1:6: parse error: expected type range vector in call to function \"rate\", got instant vector");
  EXPECT_EQ(check("foo +"), "1:6: parse error: unexpected end of input");
  EXPECT_EQ(check("foo\n  + on(a) group_left(a) bar"), "2:3: parse error: label \"a\" must not occur in ON and GROUP clause at once");
  EXPECT_EQ(check("{a=~\"(\"}"), "1:2: parse error: error parsing regexp: missing closing ): `^(?:()$`");
  EXPECT_EQ(check("up"), "");
}

TEST(PromQLParser, InputsAreBounded) {
  Limits small;
  small.max_bytes = 64;
  EXPECT_EQ(check(std::string(65, 'a'), small), "1:1: parse error: expression is 65 bytes, more than 64");

  std::string nested = std::string(2000, '(') + "1" + std::string(2000, ')');
  EXPECT_EQ(check(nested), "1:1001: parse error: expression nests more than 1000 levels deep");
  std::string unary(5000, '-');
  EXPECT_NE(check(unary + "1").find("nests more than 1000 levels deep"), std::string::npos);
  std::string chain = "a";
  for (int i = 0; i < 1500; ++i) chain += " + a";
  EXPECT_NE(check(chain).find("nests more than 1000 levels deep"), std::string::npos) << "a left-deep tree is deep too";
  std::string pow = "a";
  for (int i = 0; i < 1500; ++i) pow += " ^ a";
  EXPECT_NE(check(pow).find("nests more than 1000 levels deep"), std::string::npos);

  Limits few;
  few.max_nodes = 10;
  EXPECT_NE(check("a + b + c + d + e + f + g", few).find("more than 10 nodes"), std::string::npos);
  std::string wide = "a";
  for (int i = 0; i < 900; ++i) wide += " or a";
  EXPECT_EQ(check(wide), "") << "900 terms nest 900 deep: within the bound";
}

}  // namespace
}  // namespace capstan::promql
