#include "runtime/meta/selector.h"

#include <gtest/gtest.h>

namespace capstan::meta {
namespace {

TEST(LabelSelector, ParseAndMatch) {
  auto s = LabelSelector::parse("app=web,tier!=db,env in (prod, staging),zone notin (z1),team,!legacy");
  Labels l{{"app", "web"}, {"tier", "front"}, {"env", "prod"}, {"zone", "z2"}, {"team", "a"}};
  EXPECT_TRUE(s.matches(l));
  l["legacy"] = "1";
  EXPECT_FALSE(s.matches(l));
  l.erase("legacy");
  l["env"] = "dev";
  EXPECT_FALSE(s.matches(l));
  EXPECT_EQ(s.str(), "app=web,tier!=db,env in (prod,staging),zone notin (z1),team,!legacy");
  EXPECT_EQ(LabelSelector::parse("a==b").str(), "a=b");
}

TEST(LabelSelector, EmptyMatchesAll) {
  EXPECT_TRUE(LabelSelector::parse("").matches(Labels{}));
  EXPECT_TRUE(LabelSelector::from_json(nullptr).matches(Labels{{"a", "b"}}));
}

TEST(LabelSelector, Errors) {
  EXPECT_THROW(LabelSelector::parse("a in b"), SelectorError);
  EXPECT_THROW(LabelSelector::parse("a=b c"), SelectorError);
  EXPECT_THROW(LabelSelector::parse(",,"), SelectorError);
}

TEST(LabelSelector, FromJson) {
  auto v = json::parse(R"({"matchLabels":{"a":"b"},"matchExpressions":[{"key":"c","operator":"In","values":["x","y"]},{"key":"d","operator":"DoesNotExist"}]})");
  auto s = LabelSelector::from_json(&v);
  EXPECT_TRUE(s.matches(Labels{{"a", "b"}, {"c", "y"}}));
  EXPECT_FALSE(s.matches(Labels{{"a", "b"}, {"c", "y"}, {"d", "1"}}));
  auto bad = json::parse(R"({"matchExpressions":[{"key":"c","operator":"Near"}]})");
  EXPECT_THROW(LabelSelector::from_json(&bad), SelectorError);
}

// The messages kube-apiserver 1.37 answers for bad ?labelSelector= values (seen in the
// differential suite), and what labels.Parse accepts besides the common forms.
std::string parse_error(std::string_view text) {
  try {
    LabelSelector::parse(text);
  } catch (const SelectorError& e) {
    return e.what();
  }
  return "";
}

TEST(LabelSelector, ErrorsAreApimachinerysWords) {
  EXPECT_EQ(parse_error("env===prod"), "unable to parse requirement: found '=', expected: identifier");
  EXPECT_EQ(parse_error("a b"), "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
  EXPECT_EQ(parse_error("env in prod"), "unable to parse requirement: found 'prod' expected: '('");
  EXPECT_EQ(parse_error("!"), "unable to parse requirement: found '', expected: identifier");
  EXPECT_EQ(parse_error("a=b c"), "found 'c', expected: ',' or 'end of string'");
  EXPECT_EQ(parse_error("a=b,"), "found '', expected: identifier after ','");
  EXPECT_EQ(parse_error(")"), "found ')', expected: !, identifier, or 'end of string'");
  EXPECT_EQ(parse_error("a in (x y)"), "unable to parse requirement: found 'y', expected: ',' or ')'");
  EXPECT_EQ(parse_error("-a=b"), "unable to parse requirement: : Invalid value: \"-a\": name part must consist of alphanumeric "
                                 "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
                                 "'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                                 "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
  EXPECT_EQ(parse_error("a>x"), "unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer");
}

TEST(LabelSelector, KeywordsAreValuesInValuePositionsAndGtLtCompareNumbers) {
  auto s = LabelSelector::parse("mode in (in,notin), n>3, m<10, !gone");
  EXPECT_TRUE(s.matches(Labels{{"mode", "in"}, {"n", "4"}, {"m", "9"}}));
  EXPECT_FALSE(s.matches(Labels{{"mode", "in"}, {"n", "3"}, {"m", "9"}}));
  EXPECT_FALSE(s.matches(Labels{{"mode", "notin"}, {"n", "4"}, {"m", "x"}}));
  EXPECT_FALSE(s.matches(Labels{{"mode", "in"}, {"n", "4"}, {"m", "9"}, {"gone", ""}}));
  EXPECT_TRUE(LabelSelector::parse("a in ()").matches(Labels{{"a", ""}}));
  EXPECT_TRUE(LabelSelector::parse("a=").matches(Labels{{"a", ""}}));
}

TEST(FieldSelector, ParseAndMatch) {
  auto s = FieldSelector::parse("metadata.name=a,metadata.namespace!=kube-system");
  auto get = [](std::string_view f) -> std::optional<std::string> {
    if (f == "metadata.name") return "a";
    if (f == "metadata.namespace") return "default";
    return std::nullopt;
  };
  EXPECT_TRUE(s.matches(get));
  EXPECT_FALSE(FieldSelector::parse("metadata.name=b").matches(get));
  EXPECT_THROW(FieldSelector::parse("metadata.name"), SelectorError);
}

// Found by runtime/meta/fuzz/selector_fuzz.cpp: field selectors were split like label
// selectors, so a ')' made every later comma part of the value, and str() did not escape.
// Now as fields.ParseSelector: no parentheses, `\\`, `\,` and `\=` escapes in values.
TEST(FieldSelector, SplitsAndEscapesAsUpstream) {
  auto s = FieldSelector::parse("metadata.name=a)b,status.phase!=Running");
  ASSERT_EQ(s.terms().size(), 2u);
  EXPECT_EQ(s.terms()[0].value, "a)b");
  EXPECT_FALSE(s.terms()[1].equal);

  auto e = FieldSelector::parse(R"(metadata.name=a\,b\=c\\d,spec.nodeName==n1,)");
  ASSERT_EQ(e.terms().size(), 2u);
  EXPECT_EQ(e.terms()[0].value, R"(a,b=c\d)");
  EXPECT_EQ(e.str(), R"(metadata.name=a\,b\=c\\d,spec.nodeName=n1)");
  EXPECT_EQ(FieldSelector::parse(e.str()).str(), e.str());

  // The first operator splits the term: "a=b!=c" is field a, value "b!=c" (an unescaped '=').
  auto error = [](std::string_view text) {
    try {
      FieldSelector::parse(text);
    } catch (const SelectorError& err) {
      return std::string(err.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("a=b!=c"), "invalid field selector: unescaped character in value: =");
  EXPECT_EQ(error(R"(a=b\x)"), R"(invalid field selector: invalid escape sequence: \x)");
  EXPECT_EQ(error("a=b\\"), R"(invalid field selector: invalid escape sequence: \)");
  EXPECT_EQ(error("metadata.name"), "invalid selector: 'metadata.name'; can't understand 'metadata.name'");

  // Terms are not trimmed (upstream does not): "a!\f=b" is field "a!\f", printed as read.
  auto spaced = FieldSelector::parse("a!\f=b, c = d");
  ASSERT_EQ(spaced.terms().size(), 2u);
  EXPECT_EQ(spaced.terms()[0].field, "a!\f");
  EXPECT_EQ(spaced.terms()[1].field, " c ");
  EXPECT_EQ(spaced.terms()[1].value, " d");
  EXPECT_EQ(FieldSelector::parse(spaced.str()).str(), spaced.str());
  EXPECT_EQ(FieldSelector::parse(",\fs=x").terms()[0].field, "\fs");
  EXPECT_THROW(FieldSelector::parse(" "), SelectorError);
}

}  // namespace
}  // namespace capstan::meta
