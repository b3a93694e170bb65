// RFC 2136 updates against a real BIND: our TSIG signature is accepted, BIND's signed answers
// verify, and a wrong key is refused with the server's reason.
#include "runtime/dns/rfc2136.h"

#include "runtime/meta/base64.h"
#include "testing/bind.h"

#include <gtest/gtest.h>

namespace capstan::dns {
namespace {

class Rfc2136Bind : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!e2e::bind_available()) GTEST_SKIP() << "named and dig are installed by scripts/deps.sh";
    e2e::BindOptions o;
    o.zones = {"example.test", "other.test"};
    o.records["example.test"] = {"_acme-challenge.app IN CNAME _acme-challenge.app.other.test.",
                                 "_acme-challenge.loop IN CNAME _acme-challenge.loop.example.test."};
    bind_ = new e2e::BindServer(o);
  }
  static void TearDownTestSuite() {
    delete bind_;
    bind_ = nullptr;
  }
  void SetUp() override {
    if (!bind_) GTEST_SKIP();
  }
  static Rfc2136 client(std::string secret = {}) {
    Rfc2136Options o;
    o.server = net::split_host_port(bind_->address(), "53");
    o.key = TsigKey{bind_->key_name(), TsigAlgorithm::kHmacSha256,
                    secret.empty() ? *meta::base64_decode(bind_->key_secret_base64()) : secret};
    o.timeout = std::chrono::seconds(5);
    return Rfc2136(o);
  }
  static e2e::BindServer* bind_;
};
e2e::BindServer* Rfc2136Bind::bind_ = nullptr;

TEST_F(Rfc2136Bind, FindsTheZoneOfADeepName) {
  EXPECT_EQ(client().find_zone("_acme-challenge.www.deep.example.test"), "example.test");
  EXPECT_EQ(client().find_zone("other.test."), "other.test");
  try {
    client().find_zone("_acme-challenge.example.org");
    FAIL();
  } catch (const DnsError& e) {
    EXPECT_NE(std::string(e.what()).find("not authoritative"), std::string::npos) << e.what();
  }
}

TEST_F(Rfc2136Bind, AddsAndRemovesOneTxtValueAmongOthers) {
  auto ns = client();
  const std::string name = "_acme-challenge.www.example.test";
  ns.add_txt("example.test", name, "first-digest");
  ns.add_txt("example.test", name, "second-digest");
  ns.add_txt("example.test", name, "second-digest");  // idempotent
  auto values = ns.txt(name);
  std::sort(values.begin(), values.end());
  EXPECT_EQ(values, (std::vector<std::string>{"first-digest", "second-digest"}));
  EXPECT_NE(bind_->dig(name, "TXT").find("\"first-digest\""), std::string::npos);
  ns.remove_txt("example.test", name, "first-digest");
  EXPECT_EQ(ns.txt(name), std::vector<std::string>{"second-digest"});
  ns.remove_txt("example.test", name, "first-digest");  // already gone: fine
  ns.remove_txt("example.test", name, "second-digest");
  EXPECT_TRUE(ns.txt(name).empty());
}

TEST_F(Rfc2136Bind, AWrongSecretIsRefusedWithTheServersReason) {
  try {
    client(std::string(32, '\x01')).add_txt("example.test", "_acme-challenge.example.test", "x");
    FAIL();
  } catch (const DnsError& e) {
    EXPECT_NE(std::string(e.what()).find("BADSIG"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("example.test"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(client().txt("_acme-challenge.example.test").empty());
}

TEST_F(Rfc2136Bind, AnUnsignedUpdateIsRefused) {
  Rfc2136Options o;
  o.server = net::split_host_port(bind_->address(), "53");
  try {
    Rfc2136(o).add_txt("example.test", "_acme-challenge.example.test", "x");
    FAIL();
  } catch (const DnsError& e) {
    EXPECT_NE(std::string(e.what()).find("REFUSED"), std::string::npos) << e.what();
  }
}

TEST_F(Rfc2136Bind, FollowsCnames) {
  auto ns = client();
  EXPECT_EQ(ns.follow_cnames("_acme-challenge.app.example.test"), "_acme-challenge.app.other.test");
  // No alias: the name itself.
  EXPECT_EQ(ns.follow_cnames("_acme-challenge.www.example.test"), "_acme-challenge.www.example.test");
  EXPECT_THROW(ns.follow_cnames("_acme-challenge.loop.example.test"), DnsError);
}

TEST_F(Rfc2136Bind, AnUnreachableServerIsNamed) {
  Rfc2136Options o;
  o.server = net::split_host_port("127.0.0.1:1", "53");
  o.timeout = std::chrono::seconds(2);
  try {
    Rfc2136(o).txt("example.test");
    FAIL();
  } catch (const DnsError& e) {
    EXPECT_NE(std::string(e.what()).find("127.0.0.1:1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace capstan::dns
