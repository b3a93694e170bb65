// Local signing (SelfSigned, CA), chain bundling, the CA key pair check, ACME solver
// selection and the HTTP-01 solver objects.
#include "controllers/certificates/acme/jwk.h"
#include "controllers/certificates/issuers/acme_dns01.h"
#include "controllers/certificates/issuers/acme_http01.h"
#include "controllers/certificates/issuers/solver_selection.h"
#include "controllers/certificates/issuers/ca.h"
#include "controllers/certificates/issuers/signing.h"
#include "controllers/certificates/policies/match.h"
#include "controllers/certificates/requests/outcome.h"
#include "runtime/pki/dn.h"
#include "controllers/certificates/tests/test_util.h"

#include "runtime/metrics/registry.h"

#include <gtest/gtest.h>

namespace capstan::certificates {
namespace {

using namespace std::chrono_literals;
using namespace testing;

TEST(Signing, RequestDurationIsCaAndUsagesComeFromTheRequest) {
  TestCa ca;
  auto crt = certificate(R"({"secretName":"s","issuerRef":{"name":"ca"},"dnsNames":["a.example"],"duration":"3h",
      "usages":["server auth"]})");
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  auto cr = request_for(crt, key);
  auto now = std::chrono::floor<std::chrono::seconds>(meta::Clock::now());
  auto leaf = sign_request(cr, &ca.cert, ca.key, now);
  EXPECT_EQ(leaf.not_before(), now);
  EXPECT_EQ(leaf.not_after(), now + 3h);
  EXPECT_EQ(leaf.dns_names(), std::vector<std::string>{"a.example"});
  EXPECT_EQ(leaf.usages(), std::vector<std::string>{"server auth"});
  EXPECT_TRUE(leaf.signed_by(ca.cert));
  EXPECT_FALSE(leaf.is_ca());
  // Self-signed: the request's own key.
  auto self = sign_request(cr, nullptr, key, now);
  EXPECT_TRUE(self.is_self_signed());
  EXPECT_THROW(sign_request(cr, nullptr, pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA), now), pki::PkiError);
}

// literalSubject, otherNames, nameConstraints and signatureAlgorithm from the spec through the
// CSR to the signed certificate; re-issuance when any of them changes.
TEST(Signing, LiteralSubjectOtherNamesNameConstraintsAndSignatureAlgorithm) {
  TestCa ca;
  auto crt = certificate(R"({"secretName":"s","issuerRef":{"name":"ca"},"isCA":true,
      "literalSubject":"CN=Shop Sub CA+UID=7,O=Acme\\, Inc.,1.2.840.113549.1.9.1=pki@shop.example,C=DE",
      "otherNames":[{"oid":"1.3.6.1.4.1.311.20.2.3","utf8Value":"ca@shop.example"}],
      "nameConstraints":{"critical":true,"permitted":{"dnsDomains":["shop.example"],"ipRanges":["10.1.0.0/16"]},
                         "excluded":{"emailAddresses":["evil.example"]}},
      "privateKey":{"algorithm":"ECDSA","size":256},"signatureAlgorithm":"ECDSAWithSHA384"})");
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
  auto cr = request_for(crt, key);
  auto csr = pki::CertificateRequest::parse(cr.spec.request);
  EXPECT_EQ(csr.signature_hash(), pki::SignatureHash::SHA384);
  // DER sorts the attributes of a multi-valued RDN (a SET OF): UID's encoding sorts first.
  EXPECT_EQ(pki::format_distinguished_name(csr.subject_sequence()),
            "UID=7+CN=Shop Sub CA,O=Acme\\, Inc.,1.2.840.113549.1.9.1=pki@shop.example,C=DE");
  EXPECT_EQ(policies::request_matches_spec(cr, crt.spec), std::vector<std::string>{});

  auto now = std::chrono::floor<std::chrono::seconds>(meta::Clock::now());
  for (bool self_signed : {false, true}) {
    auto cert = self_signed ? sign_request(cr, nullptr, key, now) : sign_request(cr, &ca.cert, ca.key, now);
    EXPECT_EQ(cert.subject_sequence(), csr.subject_sequence());
    EXPECT_EQ(cert.subject().common_name, "Shop Sub CA");
    EXPECT_EQ(cert.other_names(), (std::vector<pki::OtherName>{{"1.3.6.1.4.1.311.20.2.3", "ca@shop.example"}}));
    ASSERT_TRUE(cert.name_constraints());
    EXPECT_TRUE(cert.name_constraints()->critical);
    EXPECT_EQ(cert.name_constraints()->permitted.ip_ranges, std::vector<std::string>{"10.1.0.0/16"});
    EXPECT_EQ(cert.name_constraints()->excluded.email_addresses, std::vector<std::string>{"evil.example"});
    // SelfSigned signs as the CSR asks; the CA issuer with its own key's default (P-256: SHA-256).
    EXPECT_EQ(cert.signature_algorithm(), self_signed ? "ecdsa-with-SHA384" : "ecdsa-with-SHA256");
  }

  auto changed = [&](std::string_view field, const json::Value& value) {
    json::Value spec = crt.spec.to_json();
    if (value.is_null()) spec.get_object().erase(field);
    else spec.get_object()[field] = value;
    return policies::request_matches_spec(cr, v1::CertificateSpec::from_json(spec));
  };
  using S = std::vector<std::string>;
  EXPECT_EQ(changed("literalSubject", json::Value("CN=Shop Sub CA+UID=7,O=Acme,C=DE")), S{"spec.literalSubject"});
  EXPECT_EQ(changed("literalSubject", json::Value("UID=7+cn=Shop Sub CA,O=Acme\\, Inc.,1.2.840.113549.1.9.1=pki@shop.example,C=DE")),
            S{}) << "attributes of a multi-valued RDN are a set; keywords any case";
  EXPECT_EQ(changed("otherNames", json::parse(R"([{"oid":"1.3.6.1.4.1.311.20.2.3","utf8Value":"other@shop.example"}])")),
            S{"spec.otherNames"});
  EXPECT_EQ(changed("otherNames", json::Value()), S{"spec.otherNames"});
  EXPECT_EQ(changed("signatureAlgorithm", json::Value("ECDSAWithSHA512")), S{"spec.signatureAlgorithm"});
  EXPECT_EQ(changed("signatureAlgorithm", json::Value()), S{"spec.signatureAlgorithm"}) << "the default for P-256 is SHA-256";
  EXPECT_EQ(changed("nameConstraints", json::parse(R"({"critical":true,"permitted":{"dnsDomains":["shop.example"],
      "ipRanges":["10.1.2.3/16"]},"excluded":{"emailAddresses":["evil.example"]}})")),
            S{}) << "the same network written with host bits";
  EXPECT_EQ(changed("nameConstraints", json::parse(R"({"critical":false,"permitted":{"dnsDomains":["shop.example"],
      "ipRanges":["10.1.0.0/16"]},"excluded":{"emailAddresses":["evil.example"]}})")),
            S{"spec.nameConstraints"});
  EXPECT_EQ(changed("nameConstraints", json::Value()), S{"spec.nameConstraints"});
}

TEST(Signing, BundleDropsASelfSignedRootFromTheChain) {
  TestCa root;
  auto inter_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  pki::CertificateTemplate t;
  t.subject.common_name = "intermediate";
  t.is_ca = true;
  auto inter = pki::sign(t, inter_key.public_key(), &root.cert, root.key, 24h);
  auto leaf_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  pki::CertificateTemplate lt;
  lt.dns_names = {"leaf.example"};
  auto leaf = pki::sign(lt, leaf_key.public_key(), &inter, inter_key, 1h);

  auto direct = bundle(leaf, {root.cert});
  EXPECT_EQ(direct.chain_pem, leaf.to_pem());
  EXPECT_EQ(direct.ca_pem, root.cert.to_pem());
  // An intermediate CA whose Secret holds only itself: chain = leaf + intermediate, ca = intermediate.
  auto via = bundle(leaf, {inter});
  EXPECT_EQ(via.chain_pem, leaf.to_pem() + inter.to_pem());
  EXPECT_EQ(via.ca_pem, inter.to_pem());
  // ... and with its root in tls.crt: the root is the CA, not part of the chain.
  auto full = bundle(leaf, {inter, root.cert});
  EXPECT_EQ(full.chain_pem, leaf.to_pem() + inter.to_pem());
  EXPECT_EQ(full.ca_pem, root.cert.to_pem());
}

TEST(CaIssuer, KeyPairMustParseAndMatch) {
  TestCa ca;
  SecretView s;
  s.data["tls.crt"] = ca.cert.to_pem();
  s.data["tls.key"] = ca.key.to_pem();
  EXPECT_NO_THROW(parse_ca_key_pair(s));
  s.data["tls.key"] = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA).to_pem();
  EXPECT_THROW(parse_ca_key_pair(s), pki::PkiError);
  s.data.erase("tls.crt");
  EXPECT_THROW(parse_ca_key_pair(s), pki::PkiError);
}

TEST(Outcome, StatusOfEachOutcome) {
  auto now = meta::parse_rfc3339("2026-03-01T10:00:00Z").value();
  v1::CertificateRequestStatus st;
  EXPECT_TRUE(apply_outcome(st, SignOutcome::pending("SecretMissing", "Referenced secret x/y not found"), now));
  EXPECT_EQ(st.condition("Ready")->reason, "Pending");
  EXPECT_FALSE(apply_outcome(st, SignOutcome::pending("SecretMissing", "Referenced secret x/y not found"), now + 1s));
  EXPECT_TRUE(apply_outcome(st, SignOutcome::issued("CERT", "CA"), now));
  EXPECT_EQ(st.condition("Ready")->status, "True");
  EXPECT_EQ(st.condition("Ready")->reason, "Issued");
  EXPECT_EQ(st.condition("Ready")->message, "Certificate fetched from issuer successfully");
  EXPECT_EQ(st.certificate, "CERT");
  v1::CertificateRequestStatus failed;
  apply_outcome(failed, SignOutcome::failed("SigningError", "Error signing certificate: boom"), now);
  EXPECT_EQ(failed.condition("Ready")->reason, "Failed");
  EXPECT_EQ(failed.failure_time, now);
}

v1::AcmeIssuer acme_issuer(std::string_view solvers) {
  json::Value spec = J(R"({"server":"https://acme.example/dir","privateKeySecretRef":{"name":"k"}})");
  spec.get_object()["solvers"] = J(solvers);
  return v1::AcmeIssuer::from_json(spec);
}

std::string chosen_class(const std::optional<v1::AcmeChallengeSolver>& s) {
  if (!s || !s->http01 || !s->http01->ingress) return "<none>";
  return s->http01->ingress->class_.value_or("");
}

const std::vector<std::string> kHttpOnly = {"http-01"};
const std::vector<std::string> kBoth = {"http-01", "dns-01", "tls-alpn-01"};
const std::vector<std::string> kDnsOnly = {"dns-01"};  // what a CA offers for a wildcard name

std::string chosen_nameserver(const std::optional<v1::AcmeChallengeSolver>& s) {
  if (!s || !s->dns01 || !s->dns01->rfc2136) return "<none>";
  return s->dns01->rfc2136->nameserver;
}

TEST(AcmeSolvers, MostSpecificSelectorWins) {
  auto a = acme_issuer(R"([
      {"http01":{"ingress":{"class":"default"}}},
      {"selector":{"dnsZones":["example.com"]},"http01":{"ingress":{"class":"zone"}}},
      {"selector":{"dnsZones":["shop.example.com"]},"http01":{"ingress":{"class":"subzone"}}},
      {"selector":{"dnsNames":["exact.example.com"]},"http01":{"ingress":{"class":"name"}}},
      {"selector":{"matchLabels":{"team":"a"}},"http01":{"ingress":{"class":"labels"}}},
      {"selector":{"dnsZones":["dns.example"]},"dns01":{"rfc2136":{"nameserver":"10.0.0.53"}}}])");
  EXPECT_EQ(chosen_class(select_solver(a, "other.org", {}, kHttpOnly)), "default");
  EXPECT_EQ(chosen_class(select_solver(a, "www.example.com", {}, kHttpOnly)), "zone");
  EXPECT_EQ(chosen_class(select_solver(a, "www.shop.example.com", {}, kHttpOnly)), "subzone");
  EXPECT_EQ(chosen_class(select_solver(a, "exact.example.com", {}, kHttpOnly)), "name");
  EXPECT_EQ(chosen_class(select_solver(a, "other.org", {{"team", "a"}}, kHttpOnly)), "labels");
  // The DNS-01 solver's zone wins only where the CA offers dns-01.
  EXPECT_EQ(chosen_class(select_solver(a, "x.dns.example", {}, kHttpOnly)), "default");
  EXPECT_EQ(chosen_nameserver(select_solver(a, "x.dns.example", {}, kBoth)), "10.0.0.53");
  // A wildcard name is offered dns-01 only: no HTTP-01 solver can take it.
  EXPECT_EQ(select_solver(a, "*.www.example.com", {}, kDnsOnly), std::nullopt);
  EXPECT_EQ(chosen_nameserver(select_solver(a, "*.dns.example", {}, kDnsOnly)), "10.0.0.53");
  auto only_dns = acme_issuer(R"([{"dns01":{"rfc2136":{"nameserver":"10.0.0.53"}}}])");
  EXPECT_EQ(select_solver(only_dns, "a.example", {}, kHttpOnly), std::nullopt);
  EXPECT_EQ(solver_type(*select_solver(only_dns, "*.a.example", {}, kDnsOnly)), "dns-01");
}

TEST(AcmeSolvers, Http01SelfCheckFetchesTheTokenAsTheCaWill) {
  metrics::Registry registry;
  acme::Http01Solver solver({.address = "127.0.0.1", .port = 0}, &registry);
  solver.start();
  solver.add("tok", "tok.thumb", "shop.example");
  EXPECT_EQ(http01_self_check(solver.address(), "shop.example", "tok", "tok.thumb"), std::nullopt);
  // Another host: the solver does not answer it, and the reason says what was fetched.
  auto wrong_host = http01_self_check(solver.address(), "other.example", "tok", "tok.thumb");
  ASSERT_TRUE(wrong_host);
  EXPECT_EQ(*wrong_host, "wrong status code '404', expected '200' (GET http://other.example/.well-known/acme-challenge/tok)");
  solver.add("tok", "tok.other", "shop.example");
  auto wrong_body = http01_self_check(solver.address(), "shop.example", "tok", "tok.thumb");
  ASSERT_TRUE(wrong_body);
  EXPECT_NE(wrong_body->find("tok.other"), std::string::npos) << *wrong_body;
  solver.stop();
  auto down = http01_self_check(solver.address(), "shop.example", "tok", "tok.thumb");
  ASSERT_TRUE(down);
  EXPECT_NE(down->find("GET http://shop.example/.well-known/acme-challenge/tok"), std::string::npos) << *down;
}

TEST(AcmeSolvers, PublishedTokensAreReadBackBounded) {
  json::Value cr = json::parse(R"({"metadata":{"annotations":{"acme.capstan.dev/http01-tokens":
      "{\"t1\":{\"keyAuthorization\":\"t1.ka\",\"domain\":\"a.example\"}}"}}})");
  auto tokens = published_tokens(cr);
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0].token, "t1");
  EXPECT_EQ(tokens[0].key_authorization, "t1.ka");
  EXPECT_EQ(tokens[0].domain, "a.example");
  EXPECT_TRUE(published_tokens(json::parse(R"({"metadata":{"annotations":{"acme.capstan.dev/http01-tokens":"not json"}}})")).empty());
  EXPECT_TRUE(published_tokens(json::parse(R"({"metadata":{}})")).empty());
  json::Object many;
  for (int i = 0; i < 101; ++i) many["t" + std::to_string(i)] = json::Object{{"keyAuthorization", "ka"}};
  json::Value big = json::Object{{"metadata", json::Object{{"annotations", json::Object{{"acme.capstan.dev/http01-tokens",
                                                                                         json::serialize(json::Value(many))}}}}}};
  EXPECT_TRUE(published_tokens(big).empty());
}

TEST(AcmeSolvers, OnlyTokensOfTheIssuersAccountAreServedFromTheAnnotation) {
  using P = acme::Http01Solver::Published;
  std::vector<P> tokens{{"t1", "t1.THUMB", "a.example"}, {"t2", "t2.OTHER", "a.example"}, {"t3", "t1.THUMB", ""},
                        {"t4", "t4.xTHUMB", ""}};
  auto kept = tokens_of_account(tokens, "THUMB");
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].token, "t1");
  EXPECT_TRUE(tokens_of_account(tokens, "").empty());
}

TEST(AcmeSolvers, Dns01RecordName) {
  EXPECT_EQ(dns01_record_name("WWW.Example.com"), "_acme-challenge.www.example.com");
  EXPECT_EQ(dns01_record_name("*.example.com"), "_acme-challenge.example.com");
  // RFC 8555 §8.4: base64url(SHA-256("token.thumbprint")), 43 characters, no padding.
  EXPECT_EQ(acme::dns01_txt_value("abc"), "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
}

TEST(AcmeSolvers, ServiceAndIngressForAChallenge) {
  SolverObjectsInput in;
  in.ns = "shop";
  in.request_name = "web-1";
  in.request_uid = "4a1f0c2e-0000-4000-8000-000000000001";
  in.domain = "web.shop.example";
  in.token = "-tok_en123";
  in.ingress.ingress_class_name = "nginx";
  in.target_host = "capstan-acme-solver.capstan-system.svc.cluster.local";
  auto svc = solver_service(in);
  EXPECT_EQ(json::get_string(svc, {"metadata", "generateName"}), "cm-acme-http-solver-");
  EXPECT_EQ(json::get_string(svc, {"spec", "type"}), "ExternalName");
  EXPECT_EQ(json::get_string(svc, {"spec", "externalName"}), in.target_host);
  EXPECT_EQ(json::get_string(svc, {"metadata", "labels", "acme.certs.capstan.dev/http01-solver"}), "true");
  EXPECT_EQ(json::get_string(json::get_array(svc, {"metadata", "ownerReferences"})->at(0), {"uid"}), in.request_uid);
  std::string token_label = token_label_value(in.token);
  EXPECT_EQ(token_label.size(), 16u);  // a valid label value whatever the token's characters
  auto ing = solver_ingress(in, "cm-acme-http-solver-abcde");
  EXPECT_EQ(json::get_string(ing, {"metadata", "generateName"}), "cm-acme-http-solver-");
  EXPECT_EQ(json::get_string(ing, {"spec", "ingressClassName"}), "nginx");
  const auto& rule = json::get_array(ing, {"spec", "rules"})->at(0);
  EXPECT_EQ(json::get_string(rule, {"host"}), "web.shop.example");
  const auto& path = json::get_array(rule, {"http", "paths"})->at(0);
  EXPECT_EQ(json::get_string(path, {"path"}), "/.well-known/acme-challenge/-tok_en123");
  EXPECT_EQ(json::get_string(path, {"backend", "service", "name"}), "cm-acme-http-solver-abcde");
  EXPECT_EQ(json::get_int(path, {"backend", "service", "port", "number"}), 80);
  in.ingress.ingress_class_name.reset();
  in.ingress.class_ = "traefik";
  auto legacy = solver_ingress(in, "svc");
  EXPECT_EQ(json::get_string(legacy, {"metadata", "annotations", "kubernetes.io/ingress.class"}), "traefik");
  EXPECT_EQ(json::find(legacy, {"spec", "ingressClassName"}), nullptr);
}

// Edit in place (http01.ingress.name): the challenge path joins the rule of its host in the
// user's Ingress (a rule of its own when there is none), once; taking it out restores the
// Ingress and leaves other paths, and a rule that held only challenges goes.
TEST(AcmeSolvers, EditInPlaceAddsAndRemovesOnlyTheChallengePath) {
  SolverObjectsInput in;
  in.domain = "web.shop.example";
  in.token = "tok";
  in.target_port = 8089;
  const json::Value user = json::parse(R"({"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"web"},
      "spec":{"ingressClassName":"gce","rules":[{"host":"web.shop.example","http":{"paths":[
        {"path":"/","pathType":"Prefix","backend":{"service":{"name":"web","port":{"number":80}}}}]}}]}})");
  json::Value edited = with_challenge_path(user, in, "cm-acme-http-solver-x");
  const auto* paths = json::get_array(edited, {"spec", "rules"})->at(0).get_object().at("http").get_object().if_contains("paths");
  ASSERT_TRUE(paths && paths->is_array());
  ASSERT_EQ(paths->get_array().size(), 2u);
  EXPECT_EQ(json::get_string(paths->get_array()[1], {"path"}), "/.well-known/acme-challenge/tok");
  EXPECT_EQ(json::get_string(paths->get_array()[1], {"backend", "service", "name"}), "cm-acme-http-solver-x");
  EXPECT_EQ(with_challenge_path(edited, in, "cm-acme-http-solver-x"), edited);  // once

  in.domain = "other.shop.example";
  edited = with_challenge_path(edited, in, "cm-acme-http-solver-y");
  ASSERT_EQ(json::get_array(edited, {"spec", "rules"})->size(), 2u);
  EXPECT_EQ(json::get_string(json::get_array(edited, {"spec", "rules"})->at(1), {"host"}), "other.shop.example");

  json::Value partly = edited;
  EXPECT_TRUE(remove_solver_paths(partly, {"cm-acme-http-solver-y"}));
  EXPECT_EQ(json::get_array(partly, {"spec", "rules"})->size(), 1u);
  EXPECT_TRUE(remove_solver_paths(partly, {"cm-acme-http-solver-x"}));
  EXPECT_EQ(partly, user);
  EXPECT_FALSE(remove_solver_paths(partly, {"cm-acme-http-solver-x", "web"}));  // "/" routes to web but is no challenge
}

}  // namespace
}  // namespace capstan::certificates
