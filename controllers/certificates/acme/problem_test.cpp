#include "controllers/certificates/acme/problem.h"
#include "controllers/certificates/acme/resources.h"

#include <gtest/gtest.h>

namespace capstan::certificates::acme {
namespace {

TEST(AcmeProblemTest, ParsesProblemDocumentWithSubproblems) {
  Problem p = parse_problem_body(R"({
    "type": "urn:ietf:params:acme:error:malformed",
    "detail": "Some of the identifiers requested were rejected",
    "status": 400,
    "subproblems": [
      {"type": "urn:ietf:params:acme:error:malformed", "detail": "Invalid underscore in DNS name \"_example.org\"",
       "identifier": {"type": "dns", "value": "_example.org"}},
      {"type": "urn:ietf:params:acme:error:rejectedIdentifier", "detail": "This CA will not issue for \"example.net\"",
       "identifier": {"type": "dns", "value": "example.net"}}
    ]
  })");
  EXPECT_EQ(p.type, errors::kMalformed);
  EXPECT_EQ(p.status, 400);
  ASSERT_EQ(p.subproblems.size(), 2u);
  EXPECT_EQ(p.subproblems[1].type, errors::kRejectedIdentifier);
  ASSERT_TRUE(p.subproblems[1].identifier);
  EXPECT_EQ(p.subproblems[1].identifier->to_string(), "dns:example.net");
}

TEST(AcmeProblemTest, NonProblemBodyKeepsItsStart) {
  Problem p = parse_problem_body("<html>" + std::string(1000, 'x') + "</html>");
  EXPECT_TRUE(p.type.empty());
  EXPECT_EQ(p.detail.rfind("<html>", 0), 0u);
  EXPECT_LT(p.detail.size(), 300u);
  EXPECT_TRUE(parse_problem_body("").detail.empty());
}

TEST(AcmeProblemTest, ErrorCarriesTheRequestContext) {
  Problem p = parse_problem_body(R"({"type":"urn:ietf:params:acme:error:rateLimited","detail":"too many","status":429})");
  AcmeError e(p, 429, {"new_order", "POST", "https://acme.test/new-order"}, std::chrono::seconds(60));
  std::string what = e.what();
  EXPECT_NE(what.find("new_order POST https://acme.test/new-order"), std::string::npos) << what;
  EXPECT_NE(what.find("429"), std::string::npos);
  EXPECT_NE(what.find("rateLimited: too many"), std::string::npos);
  EXPECT_TRUE(e.is("rateLimited"));
  EXPECT_TRUE(e.is(errors::kRateLimited));
  EXPECT_FALSE(e.is("badNonce"));
  EXPECT_FALSE(e.is("urn:ietf:params:acme:error:badNonce"));
  EXPECT_EQ(e.status(), 429);
  EXPECT_EQ(e.retry_after(), std::chrono::seconds(60));
  EXPECT_EQ(e.request().action, "new_order");
}

TEST(AcmeProblemTest, StatusFallsBackToTheDocument) {
  Problem p;
  p.type = std::string(errors::kUnauthorized);
  p.status = 403;
  AcmeError e(p, 0, {"authorization", "POST", "https://acme.test/authz/1"});
  EXPECT_EQ(e.status(), 403);
}

TEST(AcmeProblemTest, ParsesOrdersAndAuthorizations) {
  Order o = parse_order(json::parse(R"({
    "status": "invalid", "expires": "2026-01-01T00:00:00Z",
    "identifiers": [{"type":"dns","value":"a.example"},{"type":"ip","value":"10.0.0.1"}],
    "authorizations": ["https://acme.test/authz/1"],
    "finalize": "https://acme.test/finalize/1",
    "error": {"type":"urn:ietf:params:acme:error:unauthorized","detail":"nope","status":403}
  })").as_object(), "https://acme.test/order/1");
  EXPECT_EQ(o.url, "https://acme.test/order/1");
  EXPECT_EQ(o.status, status::kInvalid);
  ASSERT_EQ(o.identifiers.size(), 2u);
  EXPECT_EQ(o.identifiers[1], Identifier::ip("10.0.0.1"));
  ASSERT_TRUE(o.error);
  EXPECT_EQ(o.error->type, errors::kUnauthorized);

  Authorization a = parse_authorization(json::parse(R"({
    "identifier": {"type":"dns","value":"a.example"}, "status": "pending", "wildcard": true,
    "challenges": [
      {"type":"dns-01","url":"https://acme.test/chal/1","token":"t1","status":"pending"},
      {"type":"http-01","url":"https://acme.test/chal/2","token":"t2","status":"invalid",
       "error":{"type":"urn:ietf:params:acme:error:connection","detail":"refused"}}
    ]
  })").as_object(), "https://acme.test/authz/1");
  EXPECT_TRUE(a.wildcard);
  const Challenge* http = a.find_challenge(kHttp01);
  ASSERT_NE(http, nullptr);
  EXPECT_EQ(http->token, "t2");
  ASSERT_TRUE(http->error);
  EXPECT_EQ(http->error->type, errors::kConnection);
  EXPECT_EQ(a.find_challenge(kTlsAlpn01), nullptr);
}

}  // namespace
}  // namespace capstan::certificates::acme
