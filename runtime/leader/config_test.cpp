#include "runtime/leader/config.h"
#include "runtime/leader/lease_lock.h"

#include <gtest/gtest.h>

#include <regex>

namespace capstan::leader {
namespace {

using namespace std::chrono_literals;

Config valid() {
  Config c;
  c.lease_namespace = "default";
  c.lease_name = "test";
  c.identity = "me";
  return c;
}

std::string error_of(const Config& c) {
  try {
    validate(c);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(LeaderConfigTest, DefaultsAreClientGos) {
  Config c;
  EXPECT_EQ(c.lease_duration, 15s);
  EXPECT_EQ(c.renew_deadline, 10s);
  EXPECT_EQ(c.retry_period, 2s);
  EXPECT_TRUE(c.release_on_cancel);
  c.lease_namespace = "ns";
  c.lease_name = "n";
  c.identity = "x";
  EXPECT_NO_THROW(validate(c));
}

TEST(LeaderConfigTest, LeaseDurationMustExceedRenewDeadline) {
  Config c = valid();
  c.lease_duration = 10s;
  c.renew_deadline = 10s;
  std::string e = error_of(c);
  EXPECT_NE(e.find("lease_duration (10000ms) must be greater than renew_deadline (10000ms)"), std::string::npos) << e;
}

TEST(LeaderConfigTest, RenewDeadlineMustExceedJitteredRetryPeriod) {
  Config c = valid();
  c.renew_deadline = 2400ms;  // == 1.2 * 2s
  std::string e = error_of(c);
  EXPECT_NE(e.find("renew_deadline (2400ms) must be greater than retry_period*1.2 (retry_period 2000ms)"), std::string::npos) << e;
  c.renew_deadline = 2401ms;
  EXPECT_EQ(error_of(c), "");
}

TEST(LeaderConfigTest, RejectsSubSecondLeasesAndMissingNames) {
  Config c = valid();
  c.lease_duration = 900ms;
  c.renew_deadline = 600ms;
  c.retry_period = 200ms;
  EXPECT_NE(error_of(c).find("at least 1s"), std::string::npos);
  c = valid();
  c.retry_period = 0ms;
  EXPECT_NE(error_of(c).find("retry_period"), std::string::npos);
  c = valid();
  c.lease_name.clear();
  EXPECT_NE(error_of(c).find("lease_name"), std::string::npos);
  c = valid();
  c.lease_namespace.clear();
  EXPECT_NE(error_of(c).find("lease_namespace"), std::string::npos);
  c = valid();
  c.identity.clear();
  EXPECT_NE(error_of(c).find("identity"), std::string::npos);
}

TEST(LeaderConfigTest, DefaultIdentityIsHostnameUnderscoreUuid) {
  std::string a = default_identity(), b = default_identity();
  EXPECT_NE(a, b);
  std::regex re(".+_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  EXPECT_TRUE(std::regex_match(a, re)) << a;
}

TEST(LeaderLeaseRecordTest, SpecRoundTripsWithMicroseconds) {
  Record r;
  r.holder_identity = "a";
  r.lease_duration_seconds = 15;
  r.acquire_time = meta::parse_rfc3339("2026-01-02T03:04:05.123456Z").value();
  r.renew_time = meta::parse_rfc3339("2026-01-02T03:04:07.000001Z").value();
  r.leader_transitions = 3;
  json::Value spec = record_to_spec(r);
  EXPECT_EQ(json::get_string(spec, {"acquireTime"}), "2026-01-02T03:04:05.123456Z");
  EXPECT_EQ(json::get_string(spec, {"renewTime"}), "2026-01-02T03:04:07.000001Z");
  EXPECT_EQ(json::get_int(spec, {"leaseDurationSeconds"}), 15);
  EXPECT_EQ(json::get_int(spec, {"leaseTransitions"}), 3);
  Record back = record_from_spec(spec);
  EXPECT_EQ(back.holder_identity, "a");
  EXPECT_EQ(back.acquire_time, r.acquire_time);
  EXPECT_EQ(back.renew_time, r.renew_time);
  EXPECT_EQ(back.leader_transitions, 3);

  // A released lease keeps an explicit empty holder.
  Record released;
  released.lease_duration_seconds = 1;
  EXPECT_EQ(json::serialize(record_to_spec(released).at("holderIdentity")), "\"\"");
  EXPECT_EQ(record_from_spec(json::Object{}).holder_identity, "");
}

}  // namespace
}  // namespace capstan::leader
