#include "apiserver/builtin/names.h"
#include "apiserver/builtin/test_util.h"

#include <gtest/gtest.h>

#include <random>
#include <regex>

namespace capstan::apiserver::builtin {
namespace {

using testing::Errors;
using testing::errors_of;
using testing::kNamePartMsg;
using testing::kSubdomainMsg;
using testing::kLabelMsg;
using M = names::Messages;


TEST(Names, Dns1123LabelReportsLengthAndFormatOrDots) {
  EXPECT_EQ(names::dns1123_label("web-1"), M{});
  EXPECT_EQ(names::dns1123_label("C_1"), M{kLabelMsg});
  EXPECT_EQ(names::dns1123_label("a.b"), M{"must not contain dots"});
  EXPECT_EQ(names::dns1123_label(std::string(64, 'a')), M{"must be no more than 63 characters"});
  EXPECT_EQ(names::dns1123_label(std::string(64, 'A')), (M{"must be no more than 63 characters", kLabelMsg}));
}

TEST(Names, QualifiedNameChecksPrefixAndNameParts) {
  EXPECT_EQ(names::qualified_name("example.com/My_Name.1"), M{});
  EXPECT_EQ(names::qualified_name("bad key!"), M{kNamePartMsg});
  EXPECT_EQ(names::qualified_name("/x"), M{"prefix part must be non-empty"});
  EXPECT_EQ(names::qualified_name("Ex.com/x"), M{"prefix part " + kSubdomainMsg});
  EXPECT_EQ(names::qualified_name("a/"), (M{"name part must be non-empty", kNamePartMsg}));
  EXPECT_EQ(names::qualified_name(std::string(64, 'a')), M{"name part must be no more than 63 bytes"});
  auto many = names::qualified_name("a/b/c");
  ASSERT_EQ(many.size(), 1u);
  EXPECT_EQ(many[0],
            "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
            "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
            "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. "
            "'example.com/MyName')");
}

TEST(Names, ConfigMapKeys) {
  EXPECT_EQ(meta::names::config_map_key("key.name_1-x"), M{});
  EXPECT_EQ(meta::names::config_map_key(".."), M{"must not be '..'"});
  EXPECT_EQ(meta::names::config_map_key("..x"), M{"must not start with '..'"});
  EXPECT_EQ(meta::names::config_map_key("a b"),
            M{"a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or "
              "'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"});
}

TEST(Names, PortNamesAndNumbers) {
  EXPECT_EQ(names::port_name("http-alt"), M{});
  EXPECT_EQ(names::port_name("8080"), M{"must contain at least one letter (a-z)"});
  EXPECT_EQ(names::port_name("-a--B"), (M{"must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
                                          "must not contain consecutive hyphens", "must not begin or end with a hyphen"}));
  EXPECT_EQ(names::port_name("abcdefghijklmnop"), M{"must be no more than 15 characters"});
  EXPECT_EQ(names::port_number(0), M{"must be between 1 and 65535, inclusive"});
  EXPECT_EQ(names::port_number(65536), M{"must be between 1 and 65535, inclusive"});
  EXPECT_EQ(names::port_number(65535), M{});
}

TEST(Names, GenerateNamePrefixMasksATrailingDash) {
  // A prefix may end in '-': the generated suffix follows it.
  EXPECT_EQ(names::name_errors("web-", "subdomain", true), M{});
  EXPECT_EQ(names::name_errors("web-", "subdomain", false), M{kSubdomainMsg});
  EXPECT_EQ(names::name_errors("Bad_", "subdomain", true), M{kSubdomainMsg});
  EXPECT_EQ(names::name_errors("svc-", "dns1035", true), M{});
  EXPECT_EQ(names::name_errors("..", "path", false), M{"may not be '..'"});
  EXPECT_EQ(names::name_errors("a/b%", "path", false), (M{"may not contain '/'", "may not contain '%'"}));
}

TEST(Names, ValidateNameNamesTheFieldAndQuotesTheValue) {
  EXPECT_EQ(errors_of(validate_name("", "subdomain")), Errors{"metadata.name: Required value: name or generateName is required"});
  EXPECT_EQ(errors_of(validate_name("Bad_", "subdomain", true)),
            Errors{"metadata.generateName: Invalid value: \"Bad_\": " + kSubdomainMsg});
}

// The hand-written matchers of the name formats accept exactly what the regular expressions
// apimachinery quotes accept: every string of up to 4 characters over an alphabet with each
// character class the formats tell apart, and random longer ones.
TEST(NameFormats, TheMatchersAgreeWithTheirRegularExpressions) {
  const std::string alphabet = "a9Z-._/ ";
  std::vector<std::string> inputs{""};
  for (std::size_t len = 1, first = 0; len <= 4; ++len) {
    const std::size_t last = inputs.size();
    for (std::size_t i = first; i < last; ++i)
      for (char c : alphabet) inputs.push_back(inputs[i] + c);
    first = last;
  }
  std::mt19937 rng(42);
  for (int i = 0; i < 2000; ++i) {
    std::string s(1 + rng() % 40, 'a');
    for (auto& c : s) c = alphabet[rng() % alphabet.size()];
    inputs.push_back(s);
  }
  for (const auto& [expression, matches] : meta::names::formats()) {
    const std::regex re(std::string("^") + expression + "$");
    for (const auto& s : inputs) ASSERT_EQ(matches(s), std::regex_match(s, re)) << expression << " on '" << s << "'";
  }
}

}  // namespace
}  // namespace capstan::apiserver::builtin
