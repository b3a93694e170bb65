// Zone finding and CNAME following against a fake server: what is asked, and which answers count.
#include "runtime/dns/zone_lookup.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace capstan::dns {
namespace {

// Answers from a table of (name, type) -> records; NXDOMAIN with `nx_authority` otherwise.
struct FakeServer {
  std::map<std::pair<std::string, std::uint16_t>, std::vector<Record>> records;
  std::vector<Record> nx_authority;
  std::vector<std::string> asked;

  Ask ask() {
    return [this](std::string_view name, std::uint16_t t) {
      asked.emplace_back(name);
      Message m;
      m.flags = 0x8000;
      auto it = records.find({std::string(name), t});
      if (it != records.end()) m.answers = it->second;
      else {
        m.flags |= rcode::kNXDomain;
        m.authority = nx_authority;
      }
      return m;
    };
  }
};

Record soa(std::string owner) { return Record{std::move(owner), type::kSOA, klass::kIN, 60, {}, {}}; }
Record cname(std::string owner, std::string target) { return Record{std::move(owner), type::kCNAME, klass::kIN, 60, {}, std::move(target)}; }

TEST(DnsZoneLookup, TheNearestAncestorWithAnSoaIsTheZone) {
  FakeServer s;
  s.records[{"example.com", type::kSOA}] = {soa("example.com")};
  ZoneSearch z = find_zone(s.ask(), "_acme-challenge.WWW.example.com.", false);
  EXPECT_EQ(z.zone, "example.com");
  EXPECT_EQ(s.asked, (std::vector<std::string>{"_acme-challenge.www.example.com", "www.example.com", "example.com"}));
}

TEST(DnsZoneLookup, TheRootCountsOnlyWhenAskedTo) {
  FakeServer s;
  s.nx_authority = {soa("")};  // a resolver's answer for a name that does not exist
  EXPECT_EQ(find_zone(s.ask(), "a.test", false).zone, std::nullopt);
  EXPECT_EQ(s.asked, (std::vector<std::string>{"a.test", "test"}));
  s.asked.clear();
  EXPECT_EQ(find_zone(s.ask(), "a.test", true).zone, "");
  EXPECT_EQ(s.asked, (std::vector<std::string>{"a.test"}));
}

TEST(DnsZoneLookup, CnamesAreFollowedToTheirEnd) {
  FakeServer s;
  s.records[{"_acme-challenge.example.com", type::kCNAME}] = {cname("_acme-challenge.example.com", "a.challenges.test")};
  s.records[{"a.challenges.test", type::kCNAME}] = {cname("a.challenges.test", "b.challenges.test")};
  EXPECT_EQ(follow_cnames(s.ask(), "_acme-challenge.example.com"), "b.challenges.test");
  EXPECT_EQ(follow_cnames(s.ask(), "plain.example.com"), "plain.example.com");
  s.records[{"loop.test", type::kCNAME}] = {cname("loop.test", "loop.test")};
  EXPECT_THROW(follow_cnames(s.ask(), "loop.test"), DnsError);
}

}  // namespace
}  // namespace capstan::dns
