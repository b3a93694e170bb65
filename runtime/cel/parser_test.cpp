#include "runtime/cel/test_util.h"

#include <gtest/gtest.h>

namespace capstan::cel {
namespace {

using testing::compile_error;
using testing::run;

TEST(CelParser, Literals) {
  EXPECT_EQ(run("1"), "1");
  EXPECT_EQ(run("-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(run("9223372036854775807"), "9223372036854775807");
  EXPECT_EQ(run("18446744073709551615u"), "18446744073709551615");
  EXPECT_EQ(run("0x1F"), "31");
  EXPECT_EQ(run("1.5"), "1.5E0");
  EXPECT_EQ(run("1e3"), "1E3");
  EXPECT_EQ(run(".5"), "5E-1");
  EXPECT_EQ(run("true"), "true");
  EXPECT_EQ(run("null"), "null");
  EXPECT_EQ(run("'a\\tb'"), "\"a\\tb\"");
  EXPECT_EQ(run("\"\\u00e9\\x41\\101\""), "\"\xC3\xA9" "AA\"");
  EXPECT_EQ(run("r'a\\tb'"), "\"a\\\\tb\"");
  EXPECT_EQ(run("'''a'b'''"), "\"a'b\"");
  EXPECT_EQ(run("b'ab'.size()"), "2");
  EXPECT_EQ(run("[1, 'a', [true]]"), "[1,\"a\",[true]]");
  EXPECT_EQ(run("{'a': 1, 'b': [2],}"), "{\"a\":1,\"b\":[2]}");
  EXPECT_EQ(run("[1, 2,]"), "[1,2]");
}

TEST(CelParser, LiteralErrors) {
  EXPECT_NE(compile_error("9223372036854775808"), "");
  EXPECT_NE(compile_error("18446744073709551616u"), "");
  EXPECT_NE(compile_error("'unterminated"), "");
  EXPECT_NE(compile_error("'bad \\q escape'"), "");
  EXPECT_NE(compile_error("'a\nb'"), "");
  EXPECT_NE(compile_error("007"), "");
  EXPECT_NE(compile_error("1 +"), "");
  EXPECT_NE(compile_error("(1"), "");
  EXPECT_NE(compile_error("1 2"), "");
  EXPECT_NE(compile_error("a $ b"), "");
  EXPECT_NE(compile_error(""), "");
}

TEST(CelParser, Precedence) {
  EXPECT_EQ(run("1 + 2 * 3"), "7");
  EXPECT_EQ(run("(1 + 2) * 3"), "9");
  EXPECT_EQ(run("10 - 4 - 3"), "3");
  EXPECT_EQ(run("100 / 10 / 5"), "2");
  EXPECT_EQ(run("7 % 4 * 2"), "6");
  EXPECT_EQ(run("-2 * 3"), "-6");
  EXPECT_EQ(run("!true || true"), "true");
  EXPECT_EQ(run("true || false && false"), "true");
  EXPECT_EQ(run("1 < 2 == true"), "true");
  EXPECT_EQ(run("1 + 1 == 2 && 2 in [2]"), "true");
  EXPECT_EQ(run("true ? 1 : 2 + 10"), "1");
  EXPECT_EQ(run("false ? 1 : true ? 2 : 3"), "2");
  EXPECT_EQ(run("false || true ? 'a' : 'b'"), "\"a\"");
  EXPECT_EQ(run("--1"), "1");
  EXPECT_EQ(run("!!true"), "true");
  EXPECT_EQ(run("-(1)"), "-1");
  EXPECT_EQ(run("[1, 2][1] + 1"), "3");
  EXPECT_EQ(run("{'a': {'b': 5}}.a.b"), "5");
  EXPECT_EQ(run("'abc'.size() * 2"), "6");
}

TEST(CelParser, ReservedAndUnsupportedSyntax) {
  EXPECT_NE(compile_error("self.a ?? 1"), "");
  EXPECT_NE(compile_error("while"), "");
  EXPECT_NE(compile_error("self.namespace").find("reserved"), std::string::npos);
  EXPECT_NE(compile_error("self.?a").find("optional"), std::string::npos);
  EXPECT_NE(compile_error("Foo{a: 1}").find("message construction"), std::string::npos);
  EXPECT_NE(compile_error(".self").find("leading-dot"), std::string::npos);
}

TEST(CelParser, PositionsInErrors) {
  EXPECT_EQ(compile_error("1 +\n  )"), "syntax error at 2:3: unexpected ')'");
}

TEST(CelChecker, UndeclaredAndUnsupported) {
  EXPECT_EQ(compile_error("foo == 1"), "undeclared reference to 'foo'");
  EXPECT_EQ(compile_error("self.x.quantity()"), "function 'quantity' is not supported by this CEL implementation");
  EXPECT_EQ(compile_error("isURL(self)"), "function 'isURL' is not supported by this CEL implementation");
  EXPECT_EQ(compile_error("frobnicate(1)"), "undeclared reference to 'frobnicate' (no such function)");
  EXPECT_EQ(compile_error("'a'.startsWith()"), "function 'startsWith' takes 1 argument(s), not 0");
  EXPECT_EQ(compile_error("startsWith('a', 'b')"), "function 'startsWith' cannot be called without a receiver");
  EXPECT_NE(compile_error("self.matches('(')").find("invalid regular expression"), std::string::npos);
  EXPECT_NE(compile_error("self.all(k, v, true)").find("two-variable"), std::string::npos);
  EXPECT_NE(compile_error("self.all(1, true)").find("simple identifier"), std::string::npos);
  EXPECT_NE(compile_error("has(self)").find("has()"), std::string::npos);
  EXPECT_EQ(compile_error("self.all(x, x > 0) && x == 1"), "undeclared reference to 'x'");
}

TEST(CelChecker, ReferencesVariables) {
  Env env{.variables = {"self", "oldSelf"}};
  auto a = compile("self == oldSelf", env);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a.program->references("oldSelf"));
  auto b = compile("self.all(oldSelf, oldSelf > 0)", env);
  ASSERT_TRUE(b.ok());
  EXPECT_FALSE(b.program->references("oldSelf"));
}

}  // namespace
}  // namespace capstan::cel
