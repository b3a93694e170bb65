// `capstan dev` as a new user meets it, judged by the real kubectl and openssl: the samples
// from config/samples issue a CA and a leaf that `openssl verify` accepts, an invalid
// Certificate is refused through the API server's admission path with the field named, and a
// restart with the same data directory finds everything where it was, without re-issuing.
#include "testing/kubectl.h"

#include <gtest/gtest.h>

#include <regex>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

class DevCluster {
 public:
  explicit DevCluster(const TempDir& dir) : dir_(dir) {}
  ~DevCluster() { stop(); }

  // Starts `capstan dev` and waits for the line telling the user where the kubeconfig is.
  std::string start() {
    Process::Options po;
    po.args = {capstan_bin(), "dev", "--data-dir", dir_.file("data")};
    po.stdout_path = stdout_path_ = dir_.file("dev.out." + std::to_string(starts_));
    po.stderr_path = dir_.file("dev.log." + std::to_string(starts_++));
    proc_ = std::make_unique<Process>(po);
    static const std::regex re("export KUBECONFIG=(\\S+)");
    std::smatch m;
    bool up = eventually([&] {
      auto out = read_file(po.stdout_path);
      return !proc_->running() || std::regex_search(out, m, re);
    }, 60s, 100ms);
    auto out = read_file(po.stdout_path);
    if (!up || !std::regex_search(out, m, re)) throw std::runtime_error("capstan dev did not start:\n" + read_file(po.stderr_path));
    return m[1];
  }
  int stop() { return proc_ ? proc_->stop(15s) : -1; }
  std::string logs() const { return proc_ ? proc_->err() : ""; }
  std::string banner() const { return read_file(stdout_path_); }

 private:
  const TempDir& dir_;
  std::string stdout_path_;
  int starts_ = 0;
  std::unique_ptr<Process> proc_;
};

std::string secret_file(const Kubectl& k, const std::string& secret, const std::string& key, const TempDir& dir) {
  std::string escaped = std::regex_replace(key, std::regex("\\."), "\\.");
  auto b64 = k.ok({"get", "secret", secret, "-n", "default", "-o", "jsonpath={.data." + escaped + "}"});
  auto decoded = run({"base64", "-d"}, {}, b64);
  std::string path = dir.file(secret + "-" + key);
  write_file(path, decoded.out);
  return path;
}

TEST(DevE2E, SamplesIssueVerifiableCertificatesInvalidOnesAreRefusedAndRestartsKeepEverything) {
  TempDir dir("dev");
  DevCluster dev(dir);
  std::string kubeconfig = dev.start();
  Kubectl kubectl(dir, kubeconfig);

  // The README's quick start, as written: every sample through its kustomization.
  kubectl.ok({"apply", "-k", source_dir() + "/config/samples/"});
  auto wait = kubectl({"wait", "--for=condition=Ready", "certificate/web", "certificate/example-ca", "-n", "default", "--timeout=90s"}, {}, 100s);
  ASSERT_EQ(wait.code, 0) << wait.err << "\n" << dev.logs();

  // The printer columns users know from cert-manager (Issuer and Status are wide-only); the
  // Kafka sample's own Certificates (its CAs and nodes') carry its cluster label.
  auto table = kubectl.ok({"get", "certificates", "-n", "default", "-l", "!kafka.capstan.dev/cluster"});
  EXPECT_TRUE(table.starts_with("NAME         READY   SECRET       AGE\n")) << table;
  auto wide = kubectl.ok({"get", "certificate", "web", "-n", "default", "-o", "wide"});
  EXPECT_TRUE(wide.starts_with("NAME   READY   SECRET    ISSUER       STATUS                                          EXPIRATION             AGE\n")) << wide;
  EXPECT_NE(wide.find("True    web-tls   example-ca   Certificate is up to date and has not expired"), std::string::npos) << wide;

  // openssl judges the chain, the key and the names.
  auto ca = secret_file(kubectl, "web-tls", "ca.crt", dir);
  auto crt = secret_file(kubectl, "web-tls", "tls.crt", dir);
  auto key = secret_file(kubectl, "web-tls", "tls.key", dir);
  auto verify = run({"openssl", "verify", "-CAfile", ca, "-purpose", "sslserver", crt});
  EXPECT_EQ(verify.code, 0) << verify.out << verify.err;
  EXPECT_NE(verify.out.find(": OK"), std::string::npos) << verify.out;
  auto cert_pub = run({"openssl", "x509", "-in", crt, "-noout", "-pubkey"});
  auto key_pub = run({"openssl", "pkey", "-in", key, "-pubout"});
  EXPECT_EQ(cert_pub.out, key_pub.out) << "tls.key does not match tls.crt";
  auto text = run({"openssl", "x509", "-in", crt, "-noout", "-ext", "subjectAltName,extendedKeyUsage"});
  EXPECT_NE(text.out.find("DNS:web.default.svc, DNS:web.example.com"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("TLS Web Server Authentication"), std::string::npos) << text.out;

  // An invalid Certificate is refused by the validating webhook, through kubectl.
  auto bad = kubectl({"apply", "-f", "-"}, R"(apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: too-short, namespace: default}
spec:
  secretName: too-short
  dnsNames: [short.example.com]
  duration: 30m
  issuerRef: {name: example-ca}
)");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("Error from server (NotAcceptable): error when creating \"STDIN\": admission webhook "
                         "\"vcertificate.certs.capstan.dev\" denied the request: spec.duration: Invalid value: 30m0s: "
                         "certificate duration must be greater than 1h0m0s"),
            std::string::npos)
      << bad.err;
  EXPECT_NE(kubectl({"get", "certificate", "too-short", "-n", "default"}).code, 0) << "the refused Certificate must not exist";

  // Stopped and started again: everything is where it was, and nothing is re-issued.
  auto serial = run({"openssl", "x509", "-in", crt, "-noout", "-serial"}).out;
  auto revision = kubectl.ok({"get", "certificate", "web", "-n", "default", "-o", "jsonpath={.status.revision}"});
  EXPECT_EQ(dev.stop(), 0);
  EXPECT_EQ(dev.start(), kubeconfig);
  auto again = kubectl({"wait", "--for=condition=Ready", "certificate/web", "-n", "default", "--timeout=60s"}, {}, 70s);
  ASSERT_EQ(again.code, 0) << again.err;
  std::this_thread::sleep_for(2s);  // time for a (wrong) re-issue to show
  EXPECT_EQ(kubectl.ok({"get", "certificate", "web", "-n", "default", "-o", "jsonpath={.status.revision}"}), revision);
  auto crt_again = secret_file(kubectl, "web-tls", "tls.crt", dir);
  EXPECT_EQ(run({"openssl", "x509", "-in", crt_again, "-noout", "-serial"}).out, serial);
  EXPECT_EQ(dev.stop(), 0);
}

// A cert-manager user's second step: a CA kept in the manager's namespace behind a CA
// ClusterIssuer (the namespace exists from the start, as a Helm install creates it), and leaves
// of every key algorithm and encoding from it, each judged by openssl.
TEST(DevE2E, CaClusterIssuerInTheManagersNamespaceIssuesEveryKeyAlgorithm) {
  TempDir dir("dev-algorithms");
  DevCluster dev(dir);
  std::string kubeconfig = dev.start();
  Kubectl kubectl(dir, kubeconfig);
  auto banner = dev.banner();
  EXPECT_TRUE(std::regex_search(banner, std::regex("Metrics: http://127\\.0\\.0\\.1:[0-9]+/metrics"))) << banner;
  EXPECT_TRUE(std::regex_search(banner, std::regex("Health: http://127\\.0\\.0\\.1:[0-9]+/readyz"))) << banner;
  EXPECT_EQ(kubectl.ok({"get", "namespace", "capstan-system", "-o", "jsonpath={.status.phase}"}), "Active");

  kubectl.ok({"apply", "-f", "-"}, R"(apiVersion: certs.capstan.dev/v1
kind: ClusterIssuer
metadata: {name: bootstrap}
spec: {selfSigned: {}}
---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: platform-ca, namespace: capstan-system}
spec:
  isCA: true
  commonName: Platform CA
  secretName: platform-ca
  privateKey: {algorithm: ECDSA, size: 256}
  issuerRef: {name: bootstrap, kind: ClusterIssuer}
---
apiVersion: certs.capstan.dev/v1
kind: ClusterIssuer
metadata: {name: platform}
spec: {ca: {secretName: platform-ca}}
)");
  auto ready = kubectl({"wait", "--for=condition=Ready", "clusterissuer/platform", "--timeout=60s"}, {}, 70s);
  ASSERT_EQ(ready.code, 0) << ready.err << "\n" << dev.logs();

  struct Leaf {
    std::string name, key_yaml, pem_header, key_text;
  };
  const std::vector<Leaf> leaves = {
      {"rsa", "{algorithm: RSA, size: 3072, encoding: PKCS8}", "-----BEGIN PRIVATE KEY-----", "Private-Key: (3072 bit, 2 primes)"},
      {"rsa-pkcs1", "{algorithm: RSA}", "-----BEGIN RSA PRIVATE KEY-----", "Private-Key: (2048 bit, 2 primes)"},
      {"ecdsa", "{algorithm: ECDSA, size: 384}", "-----BEGIN EC PRIVATE KEY-----", "NIST CURVE: P-384"},
      {"ed25519", "{algorithm: Ed25519}", "-----BEGIN PRIVATE KEY-----", "ED25519 Private-Key:"},
  };
  std::string manifests;
  for (const auto& l : leaves) {
    manifests += "---\napiVersion: certs.capstan.dev/v1\nkind: Certificate\nmetadata: {name: " + l.name +
                 ", namespace: default}\nspec:\n  secretName: " + l.name + "-tls\n  dnsNames: [" + l.name +
                 ".apps.example.com]\n  privateKey: " + l.key_yaml + "\n  issuerRef: {name: platform, kind: ClusterIssuer}\n";
  }
  kubectl.ok({"apply", "-f", "-"}, manifests);
  std::vector<std::string> wait_args = {"wait", "--for=condition=Ready", "-n", "default", "--timeout=90s"};
  for (const auto& l : leaves) wait_args.push_back("certificate/" + l.name);
  auto issued = kubectl(wait_args, {}, 100s);
  ASSERT_EQ(issued.code, 0) << issued.err << "\n" << dev.logs();

  for (const auto& l : leaves) {
    SCOPED_TRACE(l.name);
    auto ca = secret_file(kubectl, l.name + "-tls", "ca.crt", dir);
    auto crt = secret_file(kubectl, l.name + "-tls", "tls.crt", dir);
    auto key = secret_file(kubectl, l.name + "-tls", "tls.key", dir);
    auto verify = run({"openssl", "verify", "-CAfile", ca, crt});
    EXPECT_EQ(verify.code, 0) << verify.out << verify.err;
    EXPECT_TRUE(read_file(key).starts_with(l.pem_header)) << read_file(key).substr(0, 40);
    EXPECT_NE(run({"openssl", "pkey", "-in", key, "-noout", "-text"}).out.find(l.key_text), std::string::npos);
    EXPECT_EQ(run({"openssl", "x509", "-in", crt, "-noout", "-pubkey"}).out, run({"openssl", "pkey", "-in", key, "-pubout"}).out)
        << "tls.key does not match tls.crt";
    EXPECT_NE(run({"openssl", "x509", "-in", crt, "-noout", "-ext", "subjectAltName"}).out.find("DNS:" + l.name + ".apps.example.com"),
              std::string::npos);
    EXPECT_NE(run({"openssl", "x509", "-in", ca, "-noout", "-subject"}).out.find("CN = Platform CA"), std::string::npos);
  }
  EXPECT_EQ(dev.stop(), 0);
}

}  // namespace
}  // namespace capstan::e2e
