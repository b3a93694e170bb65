// Issuance end to end against the in-process API server: a SelfSigned ClusterIssuer issues a
// CA, a CA Issuer signs leaves of every key algorithm (checked with the real `openssl verify`),
// an intermediate CA issues leaves whose chain carries it, and 40 Certificates are issued
// together without a conflict storm.
#include "controllers/certificates/constants.h"
#include "controllers/certificates/tests/harness.h"
#include "runtime/meta/object.h"
#include "runtime/pki/pki.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace capstan::certificates {
namespace {

using namespace testing;
using Strings = std::vector<std::string>;

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return "popen failed";
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  int rc = ::pclose(p);
  return out + "[rc=" + std::to_string(WEXITSTATUS(rc)) + "]";
}

bool have_openssl() { return run("openssl version").find("[rc=0]") != std::string::npos; }

constexpr std::string_view kSelfSignedClusterIssuer = R"({"apiVersion":"certs.capstan.dev/v1","kind":"ClusterIssuer",
    "metadata":{"name":"selfsigned"},"spec":{"selfSigned":{}}})";

std::string certificate(std::string_view name, std::string_view spec) {
  return std::string(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":")") + std::string(name) +
         R"(","namespace":"shop"},"spec":)" + std::string(spec) + "}";
}

class IssuanceTest : public ::testing::Test {
 protected:
  explicit IssuanceTest(HarnessOptions options = {}) : h(std::move(options)) {}

  void make_root_ca() {
    h.apply(kSelfSignedClusterIssuer);
    h.apply(certificate("root-ca", R"({"secretName":"root-ca","isCA":true,"commonName":"Shop Root CA",
        "privateKey":{"algorithm":"ECDSA"},"issuerRef":{"name":"selfsigned","kind":"ClusterIssuer"}})"));
    h.wait_ready("shop", "root-ca");
    h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Issuer","metadata":{"name":"shop-ca","namespace":"shop"},
        "spec":{"ca":{"secretName":"root-ca"}}})");
    auto issuer = h.wait_for(kIssuerType.gvr, "shop", "shop-ca", [](const json::Value& o) { return condition_status(o, "Ready") == "True"; });
    ASSERT_TRUE(issuer);
    auto ready = meta::find_condition(*issuer, "Ready");
    EXPECT_EQ(ready->reason, "KeyPairVerified");
    EXPECT_EQ(ready->message, "Signing CA verified");
  }

  // Writes the Secret's files to a temp dir and returns `openssl verify`'s output.
  std::string openssl_verify(const std::map<std::string, std::string>& data, const std::string& extra = "") {
    std::string base = dir.path().string() + "/" + std::to_string(++files);
    for (const auto& [k, v] : data) std::ofstream(base + "-" + k) << v;
    return run("openssl verify " + extra + " -CAfile " + base + "-ca.crt " + base + "-tls.crt");
  }

  Harness h;
  integration::TempDir dir{"certs-openssl"};
  int files = 0;
};

TEST_F(IssuanceTest, CaChainIssuesLeavesOfEveryKeyAlgorithm) {
  make_root_ca();
  auto cluster_issuer = h.get(kClusterIssuerType.gvr, "", "selfsigned");
  ASSERT_TRUE(cluster_issuer);
  EXPECT_EQ(condition_reason(*cluster_issuer, "Ready"), "IsReady");

  struct Leaf {
    const char* name;
    const char* key;  // privateKey JSON
    pki::KeyAlgorithm algorithm;
    int size;
  };
  const Leaf leaves[] = {{"rsa-leaf", R"({"algorithm":"RSA","size":3072,"encoding":"PKCS8"})", pki::KeyAlgorithm::RSA, 3072},
                         {"ecdsa-leaf", R"({"algorithm":"ECDSA","size":384})", pki::KeyAlgorithm::ECDSA, 384},
                         {"ed-leaf", R"({"algorithm":"Ed25519"})", pki::KeyAlgorithm::Ed25519, 256}};
  for (const auto& l : leaves) {
    h.apply(certificate(l.name, std::string(R"({"secretName":")") + l.name + R"(-tls","commonName":"web.shop.example",
        "dnsNames":["web.shop.example","www.shop.example"],"ipAddresses":["192.0.2.10"],
        "subject":{"organizations":["Shop"],"countries":["NL"]},"duration":"720h",
        "usages":["digital signature","key encipherment","server auth","client auth"],
        "secretTemplate":{"labels":{"team":"shop"},"annotations":{"owner":"web"}},
        "issuerRef":{"name":"shop-ca"},"privateKey":)" + l.key + "}"));
  }
  for (const auto& l : leaves) {
    SCOPED_TRACE(l.name);
    json::Value crt = h.wait_ready("shop", l.name);
    EXPECT_EQ(revision_of(crt), 1);
    EXPECT_EQ(meta::find_condition(crt, "Ready")->message, "Certificate is up to date and has not expired");
    EXPECT_FALSE(json::get_string(crt, {"status", "notAfter"}).empty());
    EXPECT_FALSE(json::get_string(crt, {"status", "renewalTime"}).empty());
    EXPECT_EQ(json::find(crt, {"status", "nextPrivateKeySecretName"}), nullptr);

    auto secret = h.get(kSecretType.gvr, "shop", std::string(l.name) + "-tls");
    ASSERT_TRUE(secret);
    EXPECT_EQ(json::get_string(*secret, {"type"}), "kubernetes.io/tls");
    EXPECT_EQ(json::get_string(*secret, {"metadata", "labels", "controller.certs.capstan.dev/fao"}), "true");
    EXPECT_EQ(json::get_string(*secret, {"metadata", "labels", "team"}), "shop");
    EXPECT_EQ(json::get_string(*secret, {"metadata", "annotations", "owner"}), "web");
    EXPECT_EQ(json::get_string(*secret, {"metadata", "annotations", "certs.capstan.dev/issuer-name"}), "shop-ca");
    EXPECT_EQ(json::get_string(*secret, {"metadata", "annotations", "certs.capstan.dev/alt-names"}), "web.shop.example,www.shop.example");
    EXPECT_EQ(json::get_string(*secret, {"metadata", "annotations", "certs.capstan.dev/ip-sans"}), "192.0.2.10");

    auto data = h.secret_data("shop", std::string(l.name) + "-tls");
    auto key = pki::PrivateKey::from_pem(data["tls.key"]);
    auto cert = pki::Certificate::parse_pem(data["tls.crt"]);
    EXPECT_TRUE(key.matches(cert));
    EXPECT_EQ(key.algorithm(), l.algorithm);
    EXPECT_EQ(key.size(), l.size);
    if (l.algorithm == pki::KeyAlgorithm::RSA) {
      EXPECT_NE(data["tls.key"].find("BEGIN PRIVATE KEY"), std::string::npos);
    }
    if (l.algorithm == pki::KeyAlgorithm::ECDSA) {
      EXPECT_NE(data["tls.key"].find("BEGIN EC PRIVATE KEY"), std::string::npos);
    }
    Strings dns = cert.dns_names();
    std::sort(dns.begin(), dns.end());
    EXPECT_EQ(dns, (Strings{"web.shop.example", "www.shop.example"}));
    EXPECT_EQ(cert.ip_addresses(), Strings{"192.0.2.10"});
    EXPECT_EQ(cert.subject().common_name, "web.shop.example");
    EXPECT_EQ(cert.subject().organizations, Strings{"Shop"});
    EXPECT_EQ(cert.usages(), (Strings{"digital signature", "key encipherment", "server auth", "client auth"}));
    EXPECT_FALSE(cert.is_ca());
    EXPECT_EQ(cert.not_after() - cert.not_before(), std::chrono::hours(720));
    EXPECT_EQ(data["ca.crt"], h.secret_data("shop", "root-ca")["tls.crt"]);
    if (have_openssl()) {
      std::string out = openssl_verify(data);
      EXPECT_TRUE(out.ends_with("-tls.crt: OK\n[rc=0]")) << out;
      EXPECT_NE(openssl_verify(data, "-purpose sslserver").find("OK"), std::string::npos);
    }

    // The request: named <certificate>-1, approved by the internal approver, issued.
    auto cr = h.get(kCertificateRequestType.gvr, "shop", std::string(l.name) + "-1");
    ASSERT_TRUE(cr);
    auto approved = meta::find_condition(*cr, "Approved");
    ASSERT_TRUE(approved);
    EXPECT_EQ(approved->reason, "certs.capstan.dev");
    EXPECT_EQ(approved->message, "Certificate request has been approved by certs.capstan.dev");
    EXPECT_EQ(condition_reason(*cr, "Ready"), "Issued");
  }
  // No temporary key Secret is left behind.
  EXPECT_TRUE(h.wait_no_temporary_keys("shop"));

  // Events on the Certificate, as cert-manager records them.
  Strings reasons;
  for (const auto& e : h.list({"", "v1", "events"}, "shop"))
    if (json::get_string(e, {"involvedObject", "name"}) == "ecdsa-leaf") reasons.emplace_back(json::get_string(e, {"reason"}));
  for (const char* want : {"Issuing", "Generated", "Requested"})
    EXPECT_NE(std::find(reasons.begin(), reasons.end(), want), reasons.end()) << want;

  // Metrics from the cache.
  auto exp = integration::find_sample(h.registry(), "capstan_certificate_expiration_timestamp_seconds",
                                      {"ecdsa-leaf", "shop", "shop-ca", "Issuer", "certs.capstan.dev"});
  ASSERT_TRUE(exp);
  EXPECT_GT(exp->value, 1.7e9);
  auto ready = integration::find_sample(h.registry(), "capstan_certificate_ready_status",
                                        {"ecdsa-leaf", "shop", "True", "shop-ca", "Issuer", "certs.capstan.dev"});
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->value, 1);
  EXPECT_TRUE(integration::find_sample(h.registry(), "capstan_certificate_renewal_timestamp_seconds",
                                       {"ecdsa-leaf", "shop", "shop-ca", "Issuer", "certs.capstan.dev"}));
}

// The URLs an issuer publishes reach its certificates (cert-manager's CA crlDistributionPoints,
// ocspServers, issuingCertificateURLs and SelfSigned crlDistributionPoints), as openssl prints them.
TEST_F(IssuanceTest, IssuerUrlsAreEmbeddedInTheCertificates) {
  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"ClusterIssuer","metadata":{"name":"selfsigned-crl"},
      "spec":{"selfSigned":{"crlDistributionPoints":["http://crl.example.com/self.crl"]}}})");
  h.apply(certificate("root-ca", R"({"secretName":"root-ca","isCA":true,"commonName":"Shop Root CA",
      "privateKey":{"algorithm":"ECDSA"},"issuerRef":{"name":"selfsigned-crl","kind":"ClusterIssuer"}})"));
  h.wait_ready("shop", "root-ca");
  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Issuer","metadata":{"name":"shop-ca","namespace":"shop"},
      "spec":{"ca":{"secretName":"root-ca","crlDistributionPoints":["http://crl.example.com/root.crl"],
      "ocspServers":["http://ocsp.example.com"],"issuingCertificateURLs":["http://ca.example.com/root.crt"]}}})");
  ASSERT_TRUE(h.wait_for(kIssuerType.gvr, "shop", "shop-ca", [](const json::Value& o) { return condition_status(o, "Ready") == "True"; }));
  h.apply(certificate("web", R"({"secretName":"web-tls","dnsNames":["web.shop.example"],"issuerRef":{"name":"shop-ca"}})"));
  h.wait_ready("shop", "web");

  auto text = [&](const std::string& secret) {
    std::string path = dir.path().string() + "/" + secret + ".crt";
    std::ofstream(path) << h.secret_data("shop", secret)["tls.crt"];
    return run("openssl x509 -noout -text -in " + path);
  };
  const std::string root = text("root-ca");
  EXPECT_NE(root.find("X509v3 CRL Distribution Points"), std::string::npos) << root;
  EXPECT_NE(root.find("URI:http://crl.example.com/self.crl"), std::string::npos) << root;
  const std::string leaf = text("web-tls");
  EXPECT_NE(leaf.find("URI:http://crl.example.com/root.crl"), std::string::npos) << leaf;
  EXPECT_NE(leaf.find("OCSP - URI:http://ocsp.example.com"), std::string::npos) << leaf;
  EXPECT_NE(leaf.find("CA Issuers - URI:http://ca.example.com/root.crt"), std::string::npos) << leaf;
}

TEST_F(IssuanceTest, IntermediateCaChainsTheIntermediate) {
  make_root_ca();
  h.apply(certificate("intermediate", R"({"secretName":"intermediate-ca","isCA":true,"commonName":"Shop Intermediate",
      "privateKey":{"algorithm":"ECDSA"},"issuerRef":{"name":"shop-ca"}})"));
  h.wait_ready("shop", "intermediate");
  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Issuer","metadata":{"name":"inter","namespace":"shop"},
      "spec":{"ca":{"secretName":"intermediate-ca"}}})");
  ASSERT_TRUE(h.wait_for(kIssuerType.gvr, "shop", "inter", [](const json::Value& o) { return condition_status(o, "Ready") == "True"; }));
  h.apply(certificate("api", R"({"secretName":"api-tls","dnsNames":["api.shop.example"],"privateKey":{"algorithm":"ECDSA"},
      "issuerRef":{"name":"inter"}})"));
  h.wait_ready("shop", "api");
  auto data = h.secret_data("shop", "api-tls");
  auto chain = pki::Certificate::parse_chain(data["tls.crt"]);
  ASSERT_EQ(chain.size(), 2u);
  auto inter = pki::Certificate::parse_pem(h.secret_data("shop", "intermediate-ca")["tls.crt"]);
  EXPECT_EQ(chain[1], inter);
  EXPECT_EQ(data["ca.crt"], inter.to_pem());
  auto root = pki::Certificate::parse_pem(h.secret_data("shop", "root-ca")["tls.crt"]);
  auto verified = pki::verify_chain(chain[0], {chain[1]}, {root}, {.dns_name = "api.shop.example"});
  EXPECT_TRUE(verified.ok) << verified.error;
  if (have_openssl()) {
    std::map<std::string, std::string> files_ = {{"tls.crt", data["tls.crt"]}, {"ca.crt", root.to_pem()}};
    std::string base = dir.path().string() + "/inter";
    for (const auto& [k, v] : files_) std::ofstream(base + "-" + k) << v;
    std::string out = run("openssl verify -CAfile " + base + "-ca.crt -untrusted " + base + "-tls.crt " + base + "-tls.crt");
    EXPECT_NE(out.find(": OK"), std::string::npos) << out;
  }
}

TEST_F(IssuanceTest, ClusterIssuerReadsItsSecretFromTheClusterResourceNamespace) {
  h.apply(kSelfSignedClusterIssuer);
  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"cluster-ca","namespace":"capstan-system"},
      "spec":{"secretName":"cluster-ca","isCA":true,"commonName":"Cluster CA","privateKey":{"algorithm":"ECDSA"},
              "issuerRef":{"name":"selfsigned","kind":"ClusterIssuer"}}})");
  h.wait_ready("capstan-system", "cluster-ca");
  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"ClusterIssuer","metadata":{"name":"cluster-ca"},
      "spec":{"ca":{"secretName":"cluster-ca"}}})");
  auto ci = h.wait_for(kClusterIssuerType.gvr, "", "cluster-ca", [](const json::Value& o) { return condition_status(o, "Ready") == "True"; });
  ASSERT_TRUE(ci);
  EXPECT_EQ(condition_reason(*ci, "Ready"), "KeyPairVerified");
  h.apply(certificate("tenant", R"({"secretName":"tenant-tls","dnsNames":["tenant.example"],"privateKey":{"algorithm":"ECDSA"},
      "issuerRef":{"name":"cluster-ca","kind":"ClusterIssuer"}})"));
  h.wait_ready("shop", "tenant");
  auto data = h.secret_data("shop", "tenant-tls");
  auto ca = pki::Certificate::parse_pem(h.secret_data("capstan-system", "cluster-ca")["tls.crt"]);
  EXPECT_TRUE(pki::Certificate::parse_pem(data["tls.crt"]).signed_by(ca));
  EXPECT_EQ(data["ca.crt"], ca.to_pem());

  // A CA Issuer whose Secret is missing says so.
  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Issuer","metadata":{"name":"missing","namespace":"shop"},
      "spec":{"ca":{"secretName":"nowhere"}}})");
  auto missing = h.wait_for(kIssuerType.gvr, "shop", "missing", [](const json::Value& o) { return condition_status(o, "Ready") == "False"; });
  ASSERT_TRUE(missing);
  EXPECT_EQ(condition_reason(*missing, "Ready"), "ErrGetKeyPair");
  EXPECT_EQ(meta::find_condition(*missing, "Ready")->message,
            "Error getting keypair for CA issuer: secrets \"nowhere\" not found");
}

// The manager's client at `capstan manager`'s default limits (--kube-api-qps 20, burst 30),
// where cert-manager's known slow path (client throttling plus update conflicts) would show.
class IssuanceAtDefaultClientLimits : public IssuanceTest {
 protected:
  static HarnessOptions default_limits() {
    HarnessOptions o;
    o.manager_qps = 20;
    o.manager_burst = 30;
    return o;
  }
  IssuanceAtDefaultClientLimits() : IssuanceTest(default_limits()) {}
};

TEST_F(IssuanceAtDefaultClientLimits, FortyCertificatesIssueQuicklyWithoutConflictStorms) {
  make_root_ca();
  double before = h.manager_requests();
  double conflicts_before = h.manager_requests("", "409");
  auto t0 = std::chrono::steady_clock::now();
  constexpr int kCount = 40;
  for (int i = 0; i < kCount; ++i) {
    std::string n = "svc-" + std::to_string(i);
    h.apply(certificate(n, R"({"secretName":")" + n + R"(-tls","dnsNames":[")" + n + R"(.shop.example"],
        "privateKey":{"algorithm":"ECDSA"},"issuerRef":{"name":"shop-ca"}})"));
  }
  for (int i = 0; i < kCount; ++i) h.wait_ready("shop", "svc-" + std::to_string(i), 1, 60s);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double requests = h.manager_requests() - before;
  double conflicts = h.manager_requests("", "409") - conflicts_before;
  std::cout << "[ figures ] " << kCount << " certificates issued in " << seconds << " s; manager API requests "
            << requests << " (" << requests / kCount << " per certificate), 409 conflicts " << conflicts
            << ", live Secret reads " << h.env().secret_reader.live_reads() << "\n";
  RecordProperty("seconds", std::to_string(seconds));
  RecordProperty("requests_per_certificate", std::to_string(requests / kCount));
  EXPECT_LE(conflicts, kCount);  // at most a stale-cache retry now and then, never a storm
  EXPECT_LE(requests / kCount, 25);
  EXPECT_EQ(h.reconcile_errors("certificates"), 0);
  EXPECT_EQ(h.reconcile_errors("certificaterequests-issuer"), 0);
  // The temporary key Secrets go once each request is done (at the client's pace).
  EXPECT_TRUE(integration::eventually(
      [&] { return h.list(kSecretType.gvr, "shop", "certs.capstan.dev/next-private-key=true").empty(); }, 20s))
      << h.list(kSecretType.gvr, "shop", "certs.capstan.dev/next-private-key=true").size() << " temporary key Secrets left";
}

}  // namespace
}  // namespace capstan::certificates
