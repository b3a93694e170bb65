// The DNS-01 webhook solver's wire contract (cert-manager's ChallengePayload) and how its
// answers and the resolver configuration are read.
#include "controllers/certificates/issuers/acme_dns01_webhook.h"
#include "controllers/certificates/issuers/dns01_resolvers.h"

#include <gtest/gtest.h>

namespace capstan::certificates {
namespace {

v1::WebhookProvider provider() {
  v1::WebhookProvider p;
  p.group_name = "acme.example.com";
  p.solver_name = "my-dns";
  p.config = json::parse(R"({"apiKeySecretRef":{"name":"k","key":"token"},"ttl":60})", "config");
  return p;
}

WebhookChallenge challenge() {
  WebhookChallenge c;
  c.uid = "0b1c2d3e-0000-4000-8000-000000000001";
  c.action = "Present";
  c.dns_name = "shop.example.test";
  c.key = "digest";
  c.resource_namespace = "capstan-system";
  c.resolved_fqdn = "_acme-challenge.shop.example.test.";
  c.resolved_zone = "example.test.";
  return c;
}

TEST(Dns01Webhook, PayloadIsCertManagersChallengePayload) {
  EXPECT_EQ(webhook_solver_path(provider()), "/apis/acme.example.com/v1alpha1/my-dns");
  json::Value want = json::parse(R"({"apiVersion":"webhook.acme.cert-manager.io/v1alpha1","kind":"ChallengePayload",
      "request":{"uid":"0b1c2d3e-0000-4000-8000-000000000001","action":"Present","type":"dns-01","dnsName":"shop.example.test",
                 "key":"digest","resourceNamespace":"capstan-system","resolvedFQDN":"_acme-challenge.shop.example.test.",
                 "resolvedZone":"example.test.","allowAmbientCredentials":false,
                 "config":{"apiKeySecretRef":{"name":"k","key":"token"},"ttl":60}}})", "want");
  EXPECT_EQ(challenge_payload(challenge(), provider()), want);
  auto no_config = provider();
  no_config.config.reset();
  EXPECT_EQ(json::find(challenge_payload(challenge(), no_config), {"request", "config"}), nullptr);
}

std::string error_of(std::string_view body) {
  try {
    check_challenge_answer(body, challenge(), provider());
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(Dns01Webhook, AnswersAreReadAsCertManagerDoes) {
  EXPECT_EQ(error_of(R"({"apiVersion":"webhook.acme.cert-manager.io/v1alpha1","kind":"ChallengePayload",
                         "response":{"uid":"0b1c2d3e-0000-4000-8000-000000000001","success":true}})"),
            "");
  const std::string what = "Present of the TXT record _acme-challenge.shop.example.test. by the webhook solver \"my-dns\" of group "
                           "\"acme.example.com\"";
  EXPECT_EQ(error_of(R"({"response":{"success":false,"status":{"message":"zone example.test not in account"}}})"),
            what + " failed: zone example.test not in account");
  EXPECT_EQ(error_of(R"({"response":{"uid":"0b1c2d3e-0000-4000-8000-000000000001"}})"), what + " failed: no reason given");
  EXPECT_EQ(error_of(R"({"response":{"uid":"other","success":true}})"),
            what + ": the answer's response.uid \"other\" is not the request's");
  EXPECT_EQ(error_of("{}"), what + ": the answer has no response");
  EXPECT_EQ(error_of("<html>"), what + ": the answer is not a JSON ChallengePayload");
  EXPECT_EQ(error_of(std::string(kMaxChallengeResponseBytes + 1, ' ')), what + ": the answer is over 1048576 bytes");
}

TEST(Dns01Webhook, ResolvConfNameservers) {
  EXPECT_EQ(resolv_conf_nameservers("# generated\nsearch cluster.local\nnameserver 10.96.0.10\nnameserver fe80::1%eth0\n"
                                    "options ndots:5\nnameserver 1.1.1.1\nnameserver 8.8.8.8\n"),
            (std::vector<std::string>{"10.96.0.10:53", "[fe80::1]:53", "1.1.1.1:53"}));
  EXPECT_TRUE(resolv_conf_nameservers("search x\n").empty());
  Dns01Resolvers r({"127.0.0.1:5353", "[::1]"}, std::chrono::seconds(1));
  ASSERT_EQ(r.servers().size(), 2u);
  EXPECT_EQ(r.servers()[0].to_string(), "127.0.0.1:5353");
  EXPECT_EQ(r.servers()[1].to_string(), "[::1]:53");
}

}  // namespace
}  // namespace capstan::certificates
