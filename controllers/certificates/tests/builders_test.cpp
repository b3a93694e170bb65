// Secret data and annotations, the CSR and CertificateRequest built from a spec, names and
// the revision manager's pruning.
#include "apis/certs/v1/defaults.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/key_manager.h"
#include "controllers/certificates/names.h"
#include "controllers/certificates/policies/match.h"
#include "controllers/certificates/revision_manager.h"
#include "controllers/certificates/tests/test_util.h"

#include <gtest/gtest.h>

namespace capstan::certificates {
namespace {

using namespace std::chrono_literals;
using namespace testing;
using Strings = std::vector<std::string>;

std::string data_of(const json::Value& secret, std::string_view key) {
  return meta::base64_decode(json::get_string(secret, {"data", key})).value_or("<bad base64>");
}

TEST(SecretBuilder, TlsSecretWithChainKeyCaAnnotationsAndLabels) {
  TestCa ca;
  auto crt = certificate(R"({"secretName":"web-tls","commonName":"web","dnsNames":["web.shop.example","www.shop.example"],
      "ipAddresses":["10.0.0.1"],"uris":["spiffe://shop/web"],"emailAddresses":["ops@shop.example"],
      "subject":{"organizations":["Shop, Inc."],"countries":["NL"]},
      "issuerRef":{"name":"ca","kind":"ClusterIssuer","group":"certs.capstan.dev"},
      "secretTemplate":{"labels":{"team":"shop"},"annotations":{"note":"hi","certs.capstan.dev/issuer-name":"spoofed"}}})");
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::RSA, 2048);
  auto leaf = issue_for(crt, key, ca, pki::Clock::now(), 24h);
  IssuedData data{leaf.to_pem() + ca.cert.to_pem(), ca.cert.to_pem(), encode_private_key(key, crt.spec)};
  json::Value s = desired_secret(crt, data, "");
  EXPECT_EQ(json::get_string(s, {"type"}), "kubernetes.io/tls");
  EXPECT_EQ(json::get_string(s, {"metadata", "name"}), "web-tls");
  EXPECT_EQ(json::get_string(s, {"metadata", "namespace"}), "shop");
  EXPECT_EQ(data_of(s, "tls.crt"), leaf.to_pem() + ca.cert.to_pem());
  EXPECT_EQ(data_of(s, "ca.crt"), ca.cert.to_pem());
  EXPECT_NE(data_of(s, "tls.key").find("BEGIN RSA PRIVATE KEY"), std::string::npos);  // PKCS1 by default
  const auto& labels = *json::get_object(s, {"metadata", "labels"});
  EXPECT_EQ(labels.at("controller.certs.capstan.dev/fao"), "true");
  EXPECT_EQ(labels.at("team"), "shop");
  auto ann = [&](std::string_view k) { return std::string(json::get_string(s, {"metadata", "annotations", k})); };
  EXPECT_EQ(ann("certs.capstan.dev/certificate-name"), "web");
  EXPECT_EQ(ann("certs.capstan.dev/issuer-name"), "ca");  // ours win over the template
  EXPECT_EQ(ann("certs.capstan.dev/issuer-kind"), "ClusterIssuer");
  EXPECT_EQ(ann("certs.capstan.dev/issuer-group"), "certs.capstan.dev");
  EXPECT_EQ(ann("certs.capstan.dev/common-name"), "web");
  EXPECT_EQ(ann("certs.capstan.dev/alt-names"), "web.shop.example,www.shop.example");
  EXPECT_EQ(ann("certs.capstan.dev/ip-sans"), "10.0.0.1");
  EXPECT_EQ(ann("certs.capstan.dev/uri-sans"), "spiffe://shop/web");
  EXPECT_EQ(ann("certs.capstan.dev/email-sans"), "ops@shop.example");
  EXPECT_EQ(ann("certs.capstan.dev/subject-organizations"), "\"Shop, Inc.\"");
  EXPECT_EQ(ann("certs.capstan.dev/subject-countries"), "NL");
  EXPECT_EQ(json::find(s, {"metadata", "annotations", "certs.capstan.dev/subject-localities"}), nullptr);  // empty: left out
  EXPECT_EQ(ann("note"), "hi");
}

TEST(SecretBuilder, EncodingsAndExistingType) {
  auto pkcs8 = certificate(R"({"secretName":"s","issuerRef":{"name":"i"},"privateKey":{"encoding":"PKCS8"}})");
  auto ec = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  EXPECT_NE(encode_private_key(ec, pkcs8.spec).find("BEGIN PRIVATE KEY"), std::string::npos);
  auto pkcs1 = certificate(R"({"secretName":"s","issuerRef":{"name":"i"}})");
  EXPECT_NE(encode_private_key(ec, pkcs1.spec).find("BEGIN EC PRIVATE KEY"), std::string::npos);
  auto ed = pki::PrivateKey::generate(pki::KeyAlgorithm::Ed25519);
  EXPECT_NE(encode_private_key(ed, pkcs1.spec).find("BEGIN PRIVATE KEY"), std::string::npos);
  json::Value s = desired_secret(pkcs1, {"x", "", "k"}, "Opaque");
  EXPECT_EQ(json::get_string(s, {"type"}), "Opaque");
  EXPECT_EQ(json::find(s, {"data", "ca.crt"}), nullptr);  // no CA (ACME): no ca.crt
  // Without a parsable leaf the annotations describe the issuer only.
  EXPECT_EQ(json::get_string(s, {"metadata", "annotations", "certs.capstan.dev/issuer-kind"}), "Issuer");
  EXPECT_EQ(json::find(s, {"metadata", "annotations", "certs.capstan.dev/common-name"}), nullptr);
}

TEST(SecretBuilder, CsvJoinEscapesLikeGo) {
  EXPECT_EQ(join_csv({"a", "b"}), "a,b");
  EXPECT_EQ(join_csv({"a,b", "say \"hi\"", " lead", ""}), "\"a,b\",\"say \"\"hi\"\"\",\" lead\",");
}

TEST(RequestBuilder, CsrMatchesTheSpec) {
  for (const char* alg : {"RSA", "ECDSA", "Ed25519"}) {
    auto crt = certificate(std::string(R"({"secretName":"s","issuerRef":{"name":"i"},"commonName":"api",
        "dnsNames":["api.example","api2.example"],"ipAddresses":["192.0.2.7","2001:db8::1"],"uris":["spiffe://x/api"],
        "emailAddresses":["a@example.com"],"subject":{"organizations":["Org"],"organizationalUnits":["OU"],"countries":["DE"],
        "localities":["Berlin"],"provinces":["BE"],"streetAddresses":["Street 1"],"postalCodes":["10115"],"serialNumber":"42"},
        "usages":["server auth","client auth","digital signature"],"privateKey":{"algorithm":")") + alg + "\"}}");
    auto key = choose_new_key(crt, nullptr, nullptr);
    EXPECT_EQ(pki::algorithm_name(key.algorithm()), alg);
    auto csr = pki::CertificateRequest::parse(build_csr(crt.spec, key));
    EXPECT_TRUE(csr.verify_signature());
    EXPECT_TRUE(key.matches(csr.public_key()));
    EXPECT_EQ(policies::csr_matches_spec(csr, crt.spec), Strings{}) << alg;
    const auto& f = csr.fields();
    EXPECT_EQ(f.subject.common_name, "api");
    EXPECT_EQ(f.subject.organizations, Strings{"Org"});
    EXPECT_EQ(f.subject.serial_number, "42");
    EXPECT_EQ(policies::normalise_usages(f.usages), policies::normalise_usages({"server auth", "client auth", "digital signature"}));
    EXPECT_FALSE(f.is_ca);
  }
  auto ca = certificate(R"({"secretName":"s","issuerRef":{"name":"i"},"commonName":"root","isCA":true,"encodeUsagesInRequest":false})");
  auto csr = pki::CertificateRequest::parse(build_csr(ca.spec, pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA)));
  EXPECT_TRUE(csr.fields().is_ca);
  EXPECT_TRUE(csr.fields().usages.empty());
}

TEST(RequestBuilder, KeyDefaultsAndRotation) {
  auto crt = certificate(R"({"secretName":"s","issuerRef":{"name":"i"}})");
  auto key = choose_new_key(crt, nullptr, nullptr);
  EXPECT_EQ(key.algorithm(), pki::KeyAlgorithm::RSA);
  EXPECT_EQ(key.size(), 2048);
  auto big = certificate(R"({"secretName":"s","issuerRef":{"name":"i"},"privateKey":{"algorithm":"ECDSA","size":384}})");
  EXPECT_EQ(choose_new_key(big, nullptr, nullptr).size(), 384);

  // rotationPolicy Never reuses the Secret's key when it fits; Always never does.
  TestCa ca;
  auto never = certificate(
      R"({"secretName":"s","dnsNames":["a.example"],"issuerRef":{"name":"i"},"privateKey":{"algorithm":"ECDSA","rotationPolicy":"Never"}})");
  auto existing = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  auto secret = secret_for(never, existing, issue_for(never, existing, ca, pki::Clock::now(), 1h), ca);
  bool reused = false;
  EXPECT_TRUE(choose_new_key(never, &secret, &reused) == existing);
  EXPECT_TRUE(reused);
  auto always = certificate(R"({"secretName":"s","issuerRef":{"name":"i"},"privateKey":{"algorithm":"ECDSA"}})");
  EXPECT_FALSE(choose_new_key(always, &secret, &reused) == existing);
  EXPECT_FALSE(reused);
  auto never_rsa = certificate(R"({"secretName":"s","issuerRef":{"name":"i"},"privateKey":{"rotationPolicy":"Never"}})");
  EXPECT_FALSE(choose_new_key(never_rsa, &secret, &reused) == existing);  // does not fit the spec
}

TEST(RequestBuilder, RequestObject) {
  auto crt_json = certificate_json(R"({"secretName":"s","issuerRef":{"name":"ca"},"dnsNames":["a.example"],"isCA":false})");
  crt_json.get_object()["metadata"].get_object()["labels"] = json::Object{{"app", "web"}};
  auto crt = v1::Certificate::from_json(crt_json);
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  json::Value cr = desired_request(crt, crt_json, 3, "web-3-key", build_csr(crt.spec, key));
  EXPECT_EQ(json::get_string(cr, {"metadata", "name"}), "web-3");
  EXPECT_EQ(json::get_string(cr, {"metadata", "annotations", "certs.capstan.dev/certificate-revision"}), "3");
  EXPECT_EQ(json::get_string(cr, {"metadata", "annotations", "certs.capstan.dev/private-key-secret-name"}), "web-3-key");
  EXPECT_EQ(json::get_string(cr, {"metadata", "annotations", "certs.capstan.dev/certificate-name"}), "web");
  EXPECT_EQ(json::get_string(cr, {"metadata", "labels", "app"}), "web");
  const auto& owner = json::get_array(cr, {"metadata", "ownerReferences"})->at(0);
  EXPECT_EQ(json::get_string(owner, {"kind"}), "Certificate");
  EXPECT_EQ(json::get_string(owner, {"uid"}), "uid-web");
  EXPECT_TRUE(json::get_bool(owner, {"controller"}));
  EXPECT_EQ(json::get_string(cr, {"spec", "issuerRef", "kind"}), "Issuer");
  EXPECT_EQ(json::get_string(cr, {"spec", "issuerRef", "group"}), "certs.capstan.dev");
  EXPECT_EQ(json::get_string(cr, {"spec", "duration"}), "2160h0m0s");
  auto typed = v1::CertificateRequest::from_json(cr);
  EXPECT_EQ(typed.spec.usages, (Strings{"digital signature", "key encipherment"}));
  EXPECT_EQ(policies::request_matches_spec(typed, crt.spec), Strings{});
  EXPECT_EQ(request_revision(cr), 3);
}

TEST(Names, RevisionNamesAndLengthBound) {
  EXPECT_EQ(request_name("web", 2), "web-2");
  EXPECT_EQ(next_key_secret_name("web", 2), "web-2-key");
  std::string longname(250, 'a');
  auto n = request_name(longname, 12);
  EXPECT_LE(n.size(), 253u);
  EXPECT_TRUE(n.ends_with("-12"));
  EXPECT_NE(request_name(longname, 12), request_name(std::string(249, 'a') + "b", 12));
}

TEST(RevisionManager, KeepsTheNewestIssuedRevisions) {
  auto cr = [](const std::string& name, std::optional<int> rev) {
    json::Value v = J(R"({"metadata":{"name":"x"}})");
    v.get_object()["metadata"].get_object()["name"] = name;
    if (rev) v.get_object()["metadata"].get_object()["annotations"] = json::Object{{"certs.capstan.dev/certificate-revision", std::to_string(*rev)}};
    return v;
  };
  std::vector<json::Value> rs = {cr("w-1", 1), cr("w-3", 3), cr("w-2", 2), cr("w-4", 4), cr("other", std::nullopt)};
  EXPECT_EQ(requests_to_prune(rs, 3, 1), (Strings{"w-1", "w-2"}));  // w-4 is being issued: kept
  EXPECT_EQ(requests_to_prune(rs, 3, 2), (Strings{"w-1"}));
  EXPECT_EQ(requests_to_prune(rs, 3, 5), Strings{});
  EXPECT_EQ(requests_to_prune(rs, 1, 1), Strings{});
}

}  // namespace
}  // namespace capstan::certificates
