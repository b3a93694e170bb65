#include "runtime/webhook/cert_rotator.h"

#include "runtime/client/errors.h"
#include "testing/test_cluster.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/key.h"
#include "runtime/pki/sign.h"
#include "runtime/pki/verify.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace capstan::webhook {
namespace {

const meta::GroupVersionResource kSecrets{"", "v1", "secrets"};
const meta::GroupVersionResource kValidating{"admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations"};

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string secret_data(client::Client& c, std::string_view key) {
  auto s = c.get(kSecrets, "capstan-system", "webhook-cert");
  return *meta::base64_decode(json::get_string(s, {"data", key}));
}

class CertRotatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_.client().create({"", "v1", "namespaces"}, "", json::parse(R"({"metadata":{"name":"capstan-system"}})"));
  }
  CertRotatorOptions options(std::vector<std::string> hosts = {"capstan-webhook-service.capstan-system.svc", "127.0.0.1"}) {
    CertRotatorOptions o;
    o.ns = "capstan-system";
    o.secret_name = "webhook-cert";
    o.hosts = std::move(hosts);
    o.cert_dir = (dir_.path() / "certs").string();
    return o;
  }
  integration::TestCluster cluster_;
  integration::TempDir dir_;
};

TEST_F(CertRotatorTest, MakesTheSecretWritesTheFilesAndAReplicaReusesThem) {
  CertRotator a(cluster_.client(), options());
  a.ensure();
  auto cert = pki::Certificate::parse_pem(read(dir_.path() / "certs/tls.crt"));
  EXPECT_EQ(cert.dns_names(), std::vector<std::string>{"capstan-webhook-service.capstan-system.svc"});
  EXPECT_EQ(cert.ip_addresses(), std::vector<std::string>{"127.0.0.1"});
  auto ca = pki::Certificate::parse_chain(a.ca_bundle());
  ASSERT_EQ(ca.size(), 1u);
  EXPECT_TRUE(ca[0].is_ca());
  EXPECT_TRUE(pki::verify_chain(cert, {}, ca).ok);
  EXPECT_EQ(secret_data(cluster_.client(), "tls.crt"), read(dir_.path() / "certs/tls.crt"));
  EXPECT_EQ(json::get_string(cluster_.client().get(kSecrets, "capstan-system", "webhook-cert"), {"type"}), "kubernetes.io/tls");

  // Another replica (or a restart) finds it usable and keeps it: same CA, same certificate.
  std::string rv = std::string(meta::resource_version_of(cluster_.client().get(kSecrets, "capstan-system", "webhook-cert")));
  CertRotator b(cluster_.client(), options());
  b.ensure();
  EXPECT_EQ(b.ca_bundle(), a.ca_bundle());
  EXPECT_EQ(meta::resource_version_of(cluster_.client().get(kSecrets, "capstan-system", "webhook-cert")), rv);
}

TEST_F(CertRotatorTest, NewHostsOrABrokenSecretGetANewCertificateFromTheSameCa) {
  CertRotator a(cluster_.client(), options());
  a.ensure();
  std::string ca = a.ca_bundle();
  std::string first = read(dir_.path() / "certs/tls.crt");
  CertRotator b(cluster_.client(), options({"other.capstan-system.svc"}));
  b.ensure();
  EXPECT_EQ(b.ca_bundle(), ca) << "the CA is still good: kept, so every caBundle stays valid";
  auto cert = pki::Certificate::parse_pem(read(dir_.path() / "certs/tls.crt"));
  EXPECT_NE(read(dir_.path() / "certs/tls.crt"), first);
  EXPECT_EQ(cert.dns_names(), std::vector<std::string>{"other.capstan-system.svc"});

  // tls.key replaced by garbage: made again.
  auto s = cluster_.client().get(kSecrets, "capstan-system", "webhook-cert");
  s.as_object()["data"].as_object()["tls.key"] = meta::base64_encode("not a key");
  cluster_.client().update(kSecrets, "capstan-system", s);
  b.ensure();
  auto key = pki::PrivateKey::from_pem(secret_data(cluster_.client(), "tls.key"));
  EXPECT_EQ(key.public_key_der(), pki::Certificate::parse_pem(secret_data(cluster_.client(), "tls.crt")).public_key_der());
}

TEST_F(CertRotatorTest, AnExpiringCaIsReplacedAndTheOldOneStaysInTheBundle) {
  // A CA with 20 s of life left in 80 s is past two thirds of it: due.
  auto old_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  pki::CertificateTemplate t;
  t.subject.common_name = "old-ca";
  t.is_ca = true;
  t.not_before = std::chrono::system_clock::now() - std::chrono::seconds(60);
  t.not_after = std::chrono::system_clock::now() + std::chrono::seconds(20);
  auto old_ca = pki::sign(t, old_key.public_key(), nullptr, old_key);
  auto served = pki::serving_certificate({"capstan-webhook-service.capstan-system.svc"}, old_ca, old_key, std::chrono::hours(1));
  json::Value secret = json::parse(R"({"metadata":{"name":"webhook-cert"},"type":"kubernetes.io/tls","data":{}})");
  auto& data = secret.as_object()["data"].as_object();
  data["ca.crt"] = meta::base64_encode(old_ca.to_pem());
  data["ca.key"] = meta::base64_encode(old_key.to_pem());
  data["tls.crt"] = meta::base64_encode(served.certificate.to_pem());
  data["tls.key"] = meta::base64_encode(served.key.to_pem());
  cluster_.client().create(kSecrets, "capstan-system", secret);

  CertRotator r(cluster_.client(), options({"capstan-webhook-service.capstan-system.svc"}));
  r.ensure();
  auto bundle = pki::Certificate::parse_chain(r.ca_bundle());
  ASSERT_EQ(bundle.size(), 2u);
  EXPECT_NE(bundle[0].fingerprint_sha256(), old_ca.fingerprint_sha256());
  EXPECT_EQ(bundle[1].fingerprint_sha256(), old_ca.fingerprint_sha256()) << "the old CA stays until it expires";
  // The old CA's serving certificate stays one more check, so every caBundle learns the new
  // CA before a certificate it signed is served; the next check replaces it.
  auto cert = pki::Certificate::parse_pem(read(dir_.path() / "certs/tls.crt"));
  EXPECT_EQ(cert.fingerprint_sha256(), served.certificate.fingerprint_sha256());
  r.ensure();
  cert = pki::Certificate::parse_pem(read(dir_.path() / "certs/tls.crt"));
  EXPECT_TRUE(cert.signed_by(bundle[0]));
  EXPECT_EQ(pki::Certificate::parse_chain(r.ca_bundle()).size(), 2u);
  r.ensure();
  EXPECT_EQ(pki::Certificate::parse_pem(read(dir_.path() / "certs/tls.crt")).fingerprint_sha256(), cert.fingerprint_sha256())
      << "settled: nothing more to renew";
}

TEST_F(CertRotatorTest, InjectsTheBundleWhereAnnotatedAndOnlyThere) {
  CertRotator r(cluster_.client(), options());
  r.ensure();
  auto hook = [](const std::string& name, const std::string& annotation) {
    std::string meta = annotation.empty() ? "" : R"(,"annotations":{"capstan.dev/inject-ca-from-secret":")" + annotation + "\"}";
    return json::parse(R"({"metadata":{"name":")" + name + "\"" + meta + R"(},"webhooks":[
      {"name":"a.example.com","clientConfig":{"url":"https://127.0.0.1:1/a"},"sideEffects":"None","admissionReviewVersions":["v1"]},
      {"name":"b.example.com","clientConfig":{"url":"https://127.0.0.1:1/b"},"sideEffects":"None","admissionReviewVersions":["v1"]}]})");
  };
  cluster_.client().create(kValidating, "", hook("ours", "capstan-system/webhook-cert"));
  cluster_.client().create(kValidating, "", hook("theirs", ""));
  cluster_.client().create(kValidating, "", hook("missing-secret", "capstan-system/nope"));
  EXPECT_EQ(r.inject(), 1);
  std::string b64 = meta::base64_encode(r.ca_bundle());
  auto ours = cluster_.client().get(kValidating, "", "ours");
  for (const auto& h : *json::get_array(ours, {"webhooks"})) EXPECT_EQ(json::get_string(h, {"clientConfig", "caBundle"}), b64);
  auto theirs = cluster_.client().get(kValidating, "", "theirs");
  EXPECT_EQ(json::find((*json::get_array(theirs, {"webhooks"}))[0], {"clientConfig", "caBundle"}), nullptr);
  EXPECT_EQ(r.inject(), 0) << "already current: nothing patched";

  // Another Secret's ca.crt, for a webhook of the user's own.
  json::Value other = json::parse(R"({"metadata":{"name":"their-ca"},"data":{}})");
  other.as_object()["data"].as_object()["ca.crt"] = meta::base64_encode(pki::Certificate::parse_chain(r.ca_bundle())[0].to_pem());
  cluster_.client().create(kSecrets, "default", other);
  cluster_.client().patch(kValidating, "", "theirs", client::PatchType::Merge,
                          json::parse(R"({"metadata":{"annotations":{"capstan.dev/inject-ca-from-secret":"default/their-ca"}}})"));
  EXPECT_EQ(r.inject(), 1);
  EXPECT_FALSE(json::get_string((*json::get_array(cluster_.client().get(kValidating, "", "theirs"), {"webhooks"}))[1],
                                {"clientConfig", "caBundle"})
                   .empty());
}

}  // namespace
}  // namespace capstan::webhook
