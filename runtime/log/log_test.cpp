// The log line formats: JSON objects with ts, level, msg and every field; text lines with
// key=value pairs, quoting values that need it.
#include "runtime/log/log.h"

#include <boost/json/parse.hpp>
#include <gtest/gtest.h>

#include <sstream>

namespace capstan::log {
namespace {

// The lines written to stderr while `fn` runs with `format`.
std::vector<std::string> captured(Format format, int verbosity, const std::function<void()>& fn) {
  init(format, verbosity);
  ::testing::internal::CaptureStderr();
  fn();
  std::string out = ::testing::internal::GetCapturedStderr();
  init(Format::Text, 0);
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

TEST(Log, JsonLinesCarryTheLoggersAndTheCallsFields) {
  Logger reconcile{{"controller", "certificates"}, {"namespace", "shop"}, {"name", "web"}, {"reconcileID", "0b8e-42"}};
  auto lines = captured(Format::Json, 0, [&] { reconcile.info("issuing \"web\"", {{"attempt", 2}, {"ready", "false"}}); });
  ASSERT_EQ(lines.size(), 1u);
  auto v = boost::json::parse(lines[0]).as_object();
  EXPECT_EQ(v.at("msg").as_string(), "issuing \"web\"");
  EXPECT_EQ(v.at("level").as_string(), "info");
  EXPECT_EQ(v.at("controller").as_string(), "certificates");
  EXPECT_EQ(v.at("namespace").as_string(), "shop");
  EXPECT_EQ(v.at("name").as_string(), "web");
  EXPECT_EQ(v.at("reconcileID").as_string(), "0b8e-42");
  EXPECT_EQ(v.at("attempt").as_string(), "2");
  EXPECT_EQ(v.at("ready").as_string(), "false");
  EXPECT_EQ(v.at("ts").as_string().size(), std::string("2024-01-02T03:04:05.678Z").size());
}

TEST(Log, WithAddsFieldsAndVerbosityFiltersLevels) {
  Logger base{{"controller", "issuers"}};
  Logger more = base.with({{"name", "ca"}});
  auto lines = captured(Format::Json, 0, [&] {
    more.debug("hidden at -v=0");
    more.warn("shown");
  });
  ASSERT_EQ(lines.size(), 1u);
  auto v = boost::json::parse(lines[0]).as_object();
  EXPECT_EQ(v.at("level").as_string(), "warn");
  EXPECT_EQ(v.at("controller").as_string(), "issuers");
  EXPECT_EQ(v.at("name").as_string(), "ca");
  auto debug = captured(Format::Json, 1, [&] { more.debug("shown at -v=1"); });
  EXPECT_EQ(debug.size(), 1u);
}

TEST(Log, TextLinesQuoteValuesThatNeedIt) {
  auto lines = captured(Format::Text, 0, [] { info("stopping", {{"reason", "signal received"}, {"signal", 15}}); });
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find(" info stopping reason=\"signal received\" signal=15"), std::string::npos) << lines[0];
}

TEST(Log, UnknownFormatsAreRejected) {
  EXPECT_EQ(parse_format("json"), Format::Json);
  EXPECT_THROW(parse_format("xml"), std::invalid_argument);
}

}  // namespace
}  // namespace capstan::log
