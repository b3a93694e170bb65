// approver-policy's evaluation (approval/evaluator.h): wildcards, the allowed and constraints
// evaluators with their messages, selection, and the decision over applicable policies.
#include "controllers/certificates/approval/evaluator.h"
#include "controllers/certificates/approval/wildcard.h"

#include "apis/certs/v1/certificate_request_policy.h"
#include "runtime/json/yaml.h"
#include "runtime/pki/csr.h"
#include "runtime/pki/key.h"

#include <gtest/gtest.h>

namespace capstan::certificates::approval {
namespace {

using Strings = std::vector<std::string>;
using namespace std::chrono_literals;

v1::CertificateRequestPolicySpec policy(std::string_view spec_yaml) {
  return v1::CertificateRequestPolicySpec::from_json(json::from_yaml(spec_yaml, "policy spec"));
}

RequestAttributes web() {
  RequestAttributes r;
  r.common_names = {"web.shop.example"};
  r.dns_names = {"web.shop.example", "api.shop.example"};
  r.usages = {"digital signature", "server auth"};
  r.duration = 24h;
  r.key_algorithm = "ECDSA";
  r.key_size = 256;
  return r;
}

constexpr std::string_view kWebPolicy = R"(
allowed:
  commonName: {value: "*.shop.example"}
  dnsNames: {values: ["*.shop.example"]}
  usages: ["digital signature", "server auth", "client auth"]
constraints: {maxDuration: 720h, privateKey: {algorithm: ECDSA}}
selector: {issuerRef: {}}
)";

TEST(ApprovalWildcard, MatchesAsApproverPolicy) {
  EXPECT_TRUE(wildcard_matches("*", ""));
  EXPECT_TRUE(wildcard_matches("*", "anything"));
  EXPECT_TRUE(wildcard_matches("", ""));
  EXPECT_FALSE(wildcard_matches("", "x"));
  EXPECT_TRUE(wildcard_matches("*.example.com", "a.b.example.com")) << "a '*' spans dots, unlike a DNS wildcard";
  EXPECT_FALSE(wildcard_matches("*.example.com", "example.com"));
  EXPECT_TRUE(wildcard_matches("*foo", "foo"));
  EXPECT_TRUE(wildcard_matches("a*b*c", "aXbYc"));
  EXPECT_TRUE(wildcard_matches("a*b*c", "abc"));
  EXPECT_FALSE(wildcard_matches("a*b*c", "acb"));
  EXPECT_TRUE(wildcard_matches("spiffe://shop/*", "spiffe://shop/ns/web"));
  EXPECT_FALSE(wildcard_matches("web", "web2"));
  EXPECT_TRUE(wildcard_matches("日本*", "日本語"));
  // No exponential blow-up on a pathological pattern.
  EXPECT_FALSE(wildcard_matches(std::string(40, '*') + "a*a*a*a*a*a*a*a*b", std::string(3000, 'a')));
  EXPECT_TRUE(wildcard_subset({"a*", "b"}, {"ax", "b"}));
  EXPECT_FALSE(wildcard_subset({"a*"}, {"ax", "b"}));
  EXPECT_TRUE(wildcard_subset({}, {}));
}

TEST(ApprovalEvaluate, PermitsASubsetOfWhatIsAllowed) {
  EXPECT_EQ(evaluate(policy(kWebPolicy), web()), Strings{});
  auto fewer = web();
  fewer.dns_names = {"api.shop.example"};
  fewer.usages.clear();
  EXPECT_EQ(evaluate(policy(kWebPolicy), fewer), Strings{});
}

TEST(ApprovalEvaluate, NamesWhatIsNotAllowed) {
  auto r = web();
  r.dns_names.push_back("evil.example");
  EXPECT_EQ(evaluate(policy(kWebPolicy), r),
            Strings{R"(spec.allowed.dnsNames.values: Invalid value: []string{"web.shop.example", "api.shop.example", "evil.example"}: *.shop.example)"});
  // Several errors of one evaluator are aggregated in brackets; the constraints evaluator adds
  // its own message.
  r.common_names = {"root"};
  r.is_ca = true;
  r.duration = 2000h;
  r.key_algorithm = "RSA";
  r.key_size = 2048;
  EXPECT_EQ(evaluate(policy(kWebPolicy), r),
            (Strings{R"([spec.allowed.commonName.value: Invalid value: "root": *.shop.example, )"
                     R"(spec.allowed.dnsNames.values: Invalid value: []string{"web.shop.example", "api.shop.example", "evil.example"}: *.shop.example, )"
                     R"(spec.allowed.isCA: Invalid value: true: nil])",
                     R"([spec.constraints.maxDuration: Invalid value: "2000h0m0s": 720h0m0s, spec.constraints.privateKey.algorithm: Invalid value: "RSA": ECDSA])"}));
}

TEST(ApprovalEvaluate, AttributesNotAllowedMustBeAbsent) {
  // An empty `allowed` permits only a request with nothing in it.
  auto p = policy("selector: {issuerRef: {}}");
  RequestAttributes bare;
  bare.key_algorithm = "ECDSA";
  bare.key_size = 256;
  EXPECT_EQ(evaluate(p, bare), Strings{});
  auto r = bare;
  r.ip_addresses = {"10.0.0.1"};
  EXPECT_EQ(evaluate(p, r), Strings{R"(spec.allowed.ipAddresses: Invalid value: []string{"10.0.0.1"}: no allowed values)"});
  r = bare;
  r.common_names = {"x"};
  EXPECT_EQ(evaluate(p, r), Strings{R"(spec.allowed.commonName: Invalid value: "x": no allowed value)"});
  r = bare;
  r.usages = {"server auth"};
  EXPECT_EQ(evaluate(p, r), Strings{R"(spec.allowed.usages: Invalid value: []string{"server auth"}: nil)"});
  r = bare;
  r.is_ca = true;
  EXPECT_EQ(evaluate(policy("allowed: {isCA: false}\nselector: {issuerRef: {}}"), r),
            Strings{"spec.allowed.isCA: Invalid value: true: false"});
  EXPECT_EQ(evaluate(policy("allowed: {isCA: true}\nselector: {issuerRef: {}}"), r), Strings{});
}

TEST(ApprovalEvaluate, RequiredAttributes) {
  auto p = policy(R"(
allowed:
  commonName: {value: "*", required: true}
  emailAddresses: {values: ["*@shop.example"], required: true}
  uris: {values: ["spiffe://shop/*"]}
selector: {issuerRef: {}}
)");
  RequestAttributes r;
  r.key_algorithm = "ECDSA";
  EXPECT_EQ(evaluate(p, r), Strings{"[spec.allowed.commonName.required: Required value: true, "
                                    "spec.allowed.emailAddresses.required: Required value: true]"});
  r.common_names = {"me"};
  r.email_addresses = {"me@shop.example"};
  r.uris = {"spiffe://shop/ns/me"};
  EXPECT_EQ(evaluate(p, r), Strings{});
  r.email_addresses = {"me@elsewhere.example"};
  EXPECT_EQ(evaluate(p, r),
            Strings{R"(spec.allowed.emailAddresses.values: Invalid value: []string{"me@elsewhere.example"}: *@shop.example)"});
}

TEST(ApprovalEvaluate, DurationAndKeyConstraints) {
  auto p = policy(R"(
allowed: {dnsNames: {values: ["*"]}}
constraints: {minDuration: 1h, maxDuration: 48h, privateKey: {algorithm: RSA, minSize: 3072, maxSize: 4096}}
selector: {issuerRef: {}}
)");
  RequestAttributes r;
  r.dns_names = {"x"};
  r.duration = 24h;
  r.key_algorithm = "RSA";
  r.key_size = 3072;
  EXPECT_EQ(evaluate(p, r), Strings{});
  r.key_size = 2048;
  EXPECT_EQ(evaluate(p, r), Strings{R"(spec.constraints.privateKey.minSize: Invalid value: "2048": 3072)"});
  r.key_size = 8192;
  EXPECT_EQ(evaluate(p, r), Strings{R"(spec.constraints.privateKey.maxSize: Invalid value: "8192": 4096)"});
  r.key_size = 4096;
  r.duration = 30min;
  EXPECT_EQ(evaluate(p, r), Strings{R"(spec.constraints.minDuration: Invalid value: "30m0s": 1h0m0s)"});
  // A request without a duration cannot show it is within bounds.
  r.duration.reset();
  EXPECT_EQ(evaluate(p, r), Strings{R"([spec.constraints.maxDuration: Invalid value: "<none>": 48h0m0s, )"
                                    R"(spec.constraints.minDuration: Invalid value: "<none>": 1h0m0s])"});
  // Ed25519 keys have no size: a minimum refuses them.
  r.duration = 2h;
  r.key_algorithm = "Ed25519";
  r.key_size = -1;
  EXPECT_EQ(evaluate(policy("allowed: {dnsNames: {values: ['*']}}\nconstraints: {privateKey: {minSize: 256}}\nselector: {issuerRef: {}}"), r),
            Strings{R"(spec.constraints.privateKey.minSize: Invalid value: "-1": 256)"});
}

TEST(ApprovalEvaluate, AttributesComeFromTheCsrAndSpec) {
  pki::CertificateTemplate t;
  t.subject.common_name = "web.shop.example";
  t.dns_names = {"web.shop.example"};
  t.ip_addresses = {"10.0.0.1"};
  t.uris = {"spiffe://shop/web"};
  t.email_addresses = {"ops@shop.example"};
  v1::CertificateRequest cr;
  cr.spec.request = pki::CertificateRequest::create(t, pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 384));
  cr.spec.duration = 5h;
  cr.spec.is_ca = true;
  cr.spec.usages = {"server auth"};
  auto a = attributes_of(cr);
  EXPECT_EQ(a.common_names, Strings{"web.shop.example"});
  EXPECT_EQ(a.dns_names, Strings{"web.shop.example"});
  EXPECT_EQ(a.ip_addresses, Strings{"10.0.0.1"});
  EXPECT_EQ(a.uris, Strings{"spiffe://shop/web"});
  EXPECT_EQ(a.email_addresses, Strings{"ops@shop.example"});
  EXPECT_TRUE(a.is_ca);
  EXPECT_EQ(a.usages, Strings{"server auth"});
  EXPECT_EQ(a.duration, 5h);
  EXPECT_EQ(a.key_algorithm, "ECDSA");
  EXPECT_EQ(a.key_size, 384);
  cr.spec.request = "not a CSR";
  EXPECT_ANY_THROW(attributes_of(cr));
}

TEST(ApprovalSelect, IssuerRefAndNamespace) {
  const v1::IssuerReference ca{"shop-ca", "Issuer", "certs.capstan.dev"};
  const std::map<std::string, std::string> prod{{"env", "prod"}}, none;
  auto sel = [](std::string_view yaml) { return v1::PolicySelector::from_json(json::from_yaml(yaml, "selector"), "spec.selector"); };
  EXPECT_TRUE(selects(sel("issuerRef: {}"), ca, "shop", none));
  EXPECT_TRUE(selects(sel("issuerRef: {name: 'shop-*', kind: Issuer, group: certs.capstan.dev}"), ca, "shop", none));
  EXPECT_FALSE(selects(sel("issuerRef: {kind: ClusterIssuer}"), ca, "shop", none));
  EXPECT_FALSE(selects(sel("issuerRef: {group: cert-manager.io}"), ca, "shop", none));
  EXPECT_TRUE(selects(sel("namespace: {matchNames: [dev, 'sh*']}"), ca, "shop", none));
  EXPECT_FALSE(selects(sel("namespace: {matchNames: [dev]}"), ca, "shop", none));
  EXPECT_TRUE(selects(sel("namespace: {matchLabels: {env: prod}}"), ca, "shop", prod));
  EXPECT_FALSE(selects(sel("namespace: {matchLabels: {env: prod}}"), ca, "shop", none));
  EXPECT_FALSE(selects(sel("{issuerRef: {name: other}, namespace: {}}"), ca, "shop", none)) << "both must match";
}

TEST(ApprovalReview, DecidesAsApproverPolicy) {
  const auto allow_web = policy(kWebPolicy);
  const auto only_api = policy("allowed: {dnsNames: {values: [api.shop.example]}}\nselector: {issuerRef: {}}");
  const auto r = web();
  // None applicable, or none ready: no decision.
  EXPECT_EQ(review({}, r).decision, Decision::kUnprocessed);
  EXPECT_EQ(review({{"web", &allow_web, false, true}}, r).decision, Decision::kUnprocessed);
  // One permitting policy approves, whatever the others say.
  auto approved = review({{"b-api", &only_api, true, true}, {"a-web", &allow_web, true, true}}, r);
  EXPECT_EQ(approved.decision, Decision::kApproved);
  EXPECT_EQ(approved.message, R"(Approved by CertificateRequestPolicy: "a-web")");
  // None permitting: denied, each policy named (in name order) with what it did not allow.
  const auto strict = policy("allowed: {dnsNames: {values: [api.shop.example]}, commonName: {value: api.shop.example}}\n"
                             "selector: {issuerRef: {}}");
  auto denied = review({{"z-api", &only_api, true, true}, {"m-strict", &strict, true, true}}, r);
  EXPECT_EQ(denied.decision, Decision::kDenied);
  EXPECT_EQ(denied.message,
            R"(No policy approved this request: [m-strict: [spec.allowed.commonName.value: Invalid value: "web.shop.example": api.shop.example, )"
            R"(spec.allowed.dnsNames.values: Invalid value: []string{"web.shop.example", "api.shop.example"}: api.shop.example, )"
            R"(spec.allowed.usages: Invalid value: []string{"digital signature", "server auth"}: nil]] )"
            R"([z-api: [spec.allowed.commonName: Invalid value: "web.shop.example": no allowed value, )"
            R"(spec.allowed.dnsNames.values: Invalid value: []string{"web.shop.example", "api.shop.example"}: api.shop.example, )"
            R"(spec.allowed.usages: Invalid value: []string{"digital signature", "server auth"}: nil]])");
  // A policy not yet reconciled may still approve: no denial meanwhile.
  auto pending = review({{"z-api", &only_api, true, true}, {"new", &allow_web, false, false}}, r);
  EXPECT_EQ(pending.decision, Decision::kUnprocessed);
  EXPECT_NE(pending.message.find("refusing to deny"), std::string::npos);
}

TEST(ApprovalReview, DeniedMessageIsBounded) {
  const auto only_api = policy("allowed: {dnsNames: {values: [api.shop.example]}}\nselector: {issuerRef: {}}");
  auto r = web();
  for (int i = 0; i < 500; ++i) r.dns_names.push_back("host-" + std::to_string(i) + ".shop.example");
  std::vector<Applicable> many;
  std::vector<std::string> names;
  for (int i = 0; i < 20; ++i) many.push_back({"policy-" + std::to_string(i), &only_api, true, true});
  auto denied = review(many, r);
  EXPECT_EQ(denied.decision, Decision::kDenied);
  EXPECT_LE(denied.message.size(), kMaxMessageBytes);
  EXPECT_TRUE(denied.message.ends_with("(truncated)")) << denied.message.substr(denied.message.size() - 40);
  EXPECT_TRUE(denied.message.starts_with("No policy approved this request: [policy-0: "));
}

}  // namespace
}  // namespace capstan::certificates::approval
