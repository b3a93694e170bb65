#include "apiserver/schema/regex.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::schema {
namespace {

bool M(std::string_view re, std::string_view s) {
  std::string err;
  auto p = Pattern::compile(re, &err);
  EXPECT_TRUE(p.has_value()) << re << ": " << err;
  return p && p->match(s);
}

std::string E(std::string_view re) {
  std::string err;
  auto p = Pattern::compile(re, &err);
  EXPECT_FALSE(p.has_value()) << re;
  return err;
}

TEST(SchemaRegex, MatchIsAnUnanchoredSearchLikeGo) {
  EXPECT_TRUE(M("abc", "xxabcxx"));
  EXPECT_FALSE(M("^abc$", "xabc"));
  EXPECT_TRUE(M("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "my-name-1"));
  EXPECT_FALSE(M("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "My-name"));
}

TEST(SchemaRegex, PerlClassesAreAsciiAsInRe2) {
  EXPECT_TRUE(M(R"(^\d+$)", "123"));
  EXPECT_TRUE(M(R"(^[\w.-]+$)", "a_b.c-d"));
  EXPECT_TRUE(M(R"(^\S+\s\S+$)", "a b"));
  EXPECT_FALSE(M(R"(^\s$)", "\v"));  // RE2 \s is [\t\n\f\r ]
  EXPECT_TRUE(M(R"(^\D$)", "x"));
}

TEST(SchemaRegex, DotAndCountsWorkOnCodePoints) {
  EXPECT_TRUE(M("^.{3}$", "\xC3\xA4" "bc"));
  EXPECT_FALSE(M("^.$", "\n"));
  EXPECT_TRUE(M("(?s)^.$", "\n"));
}

TEST(SchemaRegex, FlagsAndGroups) {
  EXPECT_TRUE(M("(?i)^abc$", "AbC"));
  EXPECT_TRUE(M("^a(?i:bc)d$", "aBCd"));
  EXPECT_FALSE(M("^a(?i:bc)d$", "aBCD"));
  EXPECT_TRUE(M("^(?P<name>[a-z]+)-(?:x|y)$", "abc-y"));
  EXPECT_TRUE(M(R"(\Aabc\z)", "abc"));
  EXPECT_TRUE(M("^[[:alpha:]]+[[:digit:]]$", "ab1"));
  EXPECT_TRUE(M(R"(^\Qa.b\E$)", "a.b"));
  EXPECT_FALSE(M(R"(^\Qa.b\E$)", "axb"));
  EXPECT_TRUE(M("^a{,2}$", "a{,2}"));  // not a repeat in RE2: literal
  EXPECT_TRUE(M(R"(^\x41\x{263a}$)", "A\xE2\x98\xBA"));
  EXPECT_TRUE(M(R"(^\pL+$)", "Ab"));
}

TEST(SchemaRegex, LongInputsRunInLinearTimeWithoutRecursion) {
  std::string big(1 << 20, 'a');
  EXPECT_TRUE(M("^[a-z]*$", big));
  EXPECT_TRUE(M("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", big));
  EXPECT_FALSE(M("^(a|aa)*b$", big));  // exponential for a backtracking engine
  EXPECT_TRUE(M("(x+x+)+y|a$", big));
}

TEST(SchemaRegex, MultilineAndWordBoundaries) {
  EXPECT_TRUE(M("(?m)^b$", "a\nb\nc"));
  EXPECT_FALSE(M("^b$", "a\nb\nc"));
  EXPECT_TRUE(M(R"(\bfoo\b)", "a foo b"));
  EXPECT_FALSE(M(R"(\bfoo\b)", "afoob"));
  EXPECT_TRUE(M("(?U)^a+$", "aaa"));
  EXPECT_TRUE(M("^(a*)*$", "aaa"));  // empty loops terminate
  EXPECT_TRUE(M("", "anything"));
  EXPECT_TRUE(M("^$", ""));
  EXPECT_TRUE(M("^[^a]$", "\n"));
  EXPECT_TRUE(M("(?i)^[a-c]+$", "AbC"));
  EXPECT_TRUE(M("^[[:^digit:]]+$", "ab"));
}

TEST(SchemaRegex, QuantityPatternFromKubernetes) {
  const char* q = R"(^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$)";
  EXPECT_TRUE(M(q, "500Mi"));
  EXPECT_TRUE(M(q, "1.5"));
  EXPECT_FALSE(M(q, "5 Mi"));
}

TEST(SchemaRegex, Re2RejectionsUseGoMessages) {
  EXPECT_EQ(E("(abc"), "error parsing regexp: missing closing ): `(abc`");
  EXPECT_EQ(E("abc)"), "error parsing regexp: unexpected ): `abc)`");
  EXPECT_EQ(E("[abc"), "error parsing regexp: missing closing ]: `[abc`");
  EXPECT_EQ(E("a(?=b)"), "error parsing regexp: invalid or unsupported Perl syntax: `(?=`");
  EXPECT_EQ(E("(a)\\1"), "error parsing regexp: invalid escape sequence: `\\1`");
  EXPECT_EQ(E("*a"), "error parsing regexp: missing argument to repetition operator: `*`");
  EXPECT_EQ(E("a**"), "error parsing regexp: invalid nested repetition operator: `**`");
  EXPECT_EQ(E("[z-a]"), "error parsing regexp: invalid character class range: `z-a`");
  EXPECT_EQ(E("a{1001}"), "error parsing regexp: invalid repeat count: `{1001}`");
  EXPECT_EQ(E("\\"), "error parsing regexp: trailing backslash at end of expression: ``");
  EXPECT_EQ(E("\\e"), "error parsing regexp: invalid escape sequence: `\\e`");
}

}  // namespace
}  // namespace capstan::apiserver::schema
