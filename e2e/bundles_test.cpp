// trust-manager's Bundle as users meet it, on both backends: a Bundle joining a Certificate's
// CA (a Secret), a ConfigMap of partner roots and inline PEM reaches the namespaces its selector
// picks as a ConfigMap and a Secret, deduplicated, with JKS and PKCS#12 trust stores that open
// with their passwords; it follows namespace labels and its sources, keeps its stores byte for
// byte while nothing changes, leaves alone an object of its name that is not its own, says which
// source is missing, and takes its targets with it.
#include "runtime/json/json.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/jks.h"
#include "runtime/pki/pkcs12.h"
#include "runtime/pki/pki.h"
#include "testing/controller_fixture.h"

#include <gtest/gtest.h>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

std::string indent(const std::string& pem, const std::string& pad) {
  std::string out;
  for (char c : pem) {
    out += c;
    if (c == '\n') out += pad;
  }
  return out;
}

std::string root_pem(const std::string& cn) {
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  return pki::self_signed_ca(cn, std::chrono::hours(24), key).to_pem();
}

class BundlesE2E : public ControllerFixture {
 protected:
  BundlesE2E() : ControllerFixture({"bundles", false, "bundles,configmaps,namespaces"}) {}
  std::vector<std::string> manager_flags() override { return {"--controllers=certificates"}; }

  std::string bundle(const std::string& name, const std::string& path) {
    return get({"get", "bundle", name, "--ignore-not-found", "-o", "jsonpath={" + path + "}"});
  }
  std::string synced(const std::string& name, const std::string& field = "status") {
    return bundle(name, ".status.conditions[?(@.type==\"Synced\")]." + field);
  }
  // A target's entry (decoded), "" when the object or the entry is not there.
  std::string entry(const std::string& kind, const std::string& ns, const std::string& field, const std::string& key) {
    std::string escaped;
    for (char c : key) escaped += c == '.' ? std::string("\\.") : std::string(1, c);
    std::string v = get({"get", kind, "org", "-n", ns, "--ignore-not-found", "-o", "jsonpath={." + field + "." + escaped + "}"});
    if (kind == "configmap" && field == "data") return v;
    return meta::base64_decode(v).value_or("");
  }
  std::size_t pem_count(const std::string& ns) {
    try {
      return pki::Certificate::parse_chain(entry("configmap", ns, "data", "trust.pem")).size();
    } catch (const pki::PkiError&) {
      return 0;
    }
  }
};

TEST_P(BundlesE2E, ABundleReachesTheSelectedNamespacesAndFollowsItsSources) {
  const std::string partner = root_pem("Partner Root");
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: v1
kind: Namespace
metadata: {name: team-a, labels: {trust: enabled}}
---
apiVersion: v1
kind: Namespace
metadata: {name: team-b, labels: {trust: enabled}}
---
apiVersion: v1
kind: Namespace
metadata: {name: other}
---
apiVersion: certs.capstan.dev/v1
kind: ClusterIssuer
metadata: {name: selfsigned}
spec: {selfSigned: {}}
---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: org-root, namespace: capstan-system}
spec: {secretName: org-root, isCA: true, commonName: Org Root, privateKey: {algorithm: ECDSA}, issuerRef: {name: selfsigned, kind: ClusterIssuer}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: partner-roots, namespace: capstan-system}
data:
  roots.pem: |
    )" + indent(partner, "    ") + R"(
---
apiVersion: trust.capstan.dev/v1alpha1
kind: Bundle
metadata: {name: org}
spec:
  sources:
  - secret: {name: org-root, key: ca.crt}
  - configMap: {name: partner-roots, key: roots.pem}
  - inLine: |
      )" + indent(partner, "      ") + R"(
  target:
    configMap: {key: trust.pem}
    secret: {key: ca.crt}
    additionalFormats: {jks: {key: trust.jks}, pkcs12: {key: trust.p12, profile: Modern2023}}
    namespaceSelector: {matchLabels: {trust: enabled}}
)");
  ASSERT_TRUE(eventually([&] { return synced("org") == "True"; }, 90s)) << manager_->logs() << bundle("org", ".status");
  EXPECT_EQ(synced("org", "message"), "Successfully synced Bundle to namespaces that match this label selector: trust=enabled");
  for (const std::string ns : {"team-a", "team-b"}) {
    EXPECT_EQ(pem_count(ns), 2u) << ns << ": the partner root twice, the org root once";
    EXPECT_EQ(pki::decode_jks(entry("configmap", ns, "binaryData", "trust.jks"), "changeit").trusted.size(), 2u);
    auto p12 = pki::decode_pkcs12(entry("configmap", ns, "binaryData", "trust.p12"), "");
    EXPECT_EQ(p12.certificates.size(), 2u);
    EXPECT_EQ(p12.profile, pki::Pkcs12Profile::Modern2023);
    EXPECT_EQ(entry("secret", ns, "data", "ca.crt"), entry("configmap", ns, "data", "trust.pem"));
    EXPECT_EQ(get({"get", "configmap", "org", "-n", ns, "-o", "jsonpath={.metadata.ownerReferences[0].kind}"}), "Bundle");
  }
  EXPECT_EQ(get({"get", "configmap", "org", "-n", "other", "--ignore-not-found", "-o", "name"}), "");

  // Namespaces coming and going; the stores are not rewritten while the certificates stay.
  const std::string jks_before = entry("configmap", "team-a", "binaryData", "trust.jks");
  kubectl_->ok({"label", "namespace", "other", "trust=enabled"});
  kubectl_->ok({"label", "namespace", "team-b", "trust-"});
  EXPECT_TRUE(eventually([&] { return pem_count("other") == 2; }, 30s)) << manager_->logs();
  EXPECT_TRUE(eventually([&] {
    return get({"get", "configmap,secret", "org", "-n", "team-b", "--ignore-not-found", "-o", "name"}).empty();
  }, 30s)) << "team-b kept the targets after it stopped matching";
  EXPECT_EQ(entry("configmap", "team-a", "binaryData", "trust.jks"), jks_before);

  // A source changes: every target follows.
  kubectl_->ok({"patch", "configmap", "partner-roots", "-n", "capstan-system", "--type=merge", "-p",
                json::serialize(json::Value(json::Object{{"data", json::Object{{"roots.pem", root_pem("Partner Root 2")}}}}))});
  EXPECT_TRUE(eventually([&] { return pem_count("team-a") == 3 && pem_count("other") == 3; }, 30s)) << manager_->logs();
  EXPECT_NE(entry("configmap", "team-a", "binaryData", "trust.jks"), jks_before);
  EXPECT_EQ(pki::decode_jks(entry("configmap", "team-a", "binaryData", "trust.jks"), "changeit").trusted.size(), 3u);

  // A ConfigMap of the Bundle's name that is not its own is left alone, and the status says so.
  kubectl_->ok({"create", "namespace", "team-c"});
  kubectl_->ok({"create", "configmap", "org", "-n", "team-c", "--from-literal=trust.pem=mine"});
  kubectl_->ok({"label", "namespace", "team-c", "trust=enabled"});
  EXPECT_TRUE(eventually([&] { return synced("org", "reason") == "TargetConflict"; }, 30s)) << bundle("org", ".status");
  EXPECT_NE(synced("org", "message").find("ConfigMap team-c/org"), std::string::npos) << synced("org", "message");
  EXPECT_EQ(entry("configmap", "team-c", "data", "trust.pem"), "mine");

  // A missing source is named; the targets made before stay.
  kubectl_->ok({"apply", "-f", "-"}, R"(apiVersion: trust.capstan.dev/v1alpha1
kind: Bundle
metadata: {name: broken}
spec:
  sources: [{configMap: {name: missing, key: roots.pem}}]
  target: {configMap: {key: trust.pem}}
)");
  EXPECT_TRUE(eventually([&] { return synced("broken", "reason") == "SourceNotFound"; }, 30s)) << bundle("broken", ".status");
  EXPECT_EQ(synced("broken", "message"),
            R"(spec.sources[0].configMap: ConfigMap "missing" not found in the trust namespace "capstan-system")");
  // The schema refuses a Bundle without sources.
  auto refused = (*kubectl_)({"apply", "-f", "-"}, "apiVersion: trust.capstan.dev/v1alpha1\nkind: Bundle\nmetadata: {name: empty}\n"
                                                   "spec: {sources: [], target: {configMap: {key: a}}}\n");
  EXPECT_NE(refused.code, 0);

  // Its targets go with the Bundle.
  kubectl_->ok({"delete", "bundle", "org"});
  EXPECT_TRUE(eventually([&] {
    return get({"get", "configmap,secret", "-A", "-l", "trust.capstan.dev/bundle=org", "-o", "name"}).empty();
  }, 30s)) << get({"get", "configmap,secret", "-A", "-l", "trust.capstan.dev/bundle=org", "-o", "name"});
  EXPECT_EQ(entry("configmap", "team-c", "data", "trust.pem"), "mine");
}

// Label-selected sources (trust-manager's sources[].configMap.selector): every ConfigMap of the
// trust namespace with the labels, in name order; one that gains or loses the label joins or
// leaves the bundle; none matching is SourceNotFound rather than an empty bundle. (name and
// selector together are refused by the webhook: BundleValidation.SourcesAreExactlyOneKindWithNameAndKey.)
TEST_P(BundlesE2E, LabelSelectedSourcesFollowTheirLabels) {
  const std::string a = root_pem("Team A Root"), b = root_pem("Team B Root"), c = root_pem("Team C Root");
  auto roots = [&](const std::string& name, const std::string& pem, bool labelled) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + ", namespace: capstan-system" +
           (labelled ? ", labels: {trust.example/roots: \"yes\"}" : "") + "}\ndata:\n  ca.crt: |\n    " + indent(pem, "    ") + "\n";
  };
  kubectl_->ok({"apply", "-f", "-"}, "apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a, labels: {trust: enabled}}\n---\n" +
                                          roots("roots-a", a, true) + "---\n" + roots("roots-b", b, true) + "---\n" +
                                          roots("roots-c", c, false) + R"(---
apiVersion: trust.capstan.dev/v1alpha1
kind: Bundle
metadata: {name: org}
spec:
  sources:
  - configMap: {selector: {matchLabels: {trust.example/roots: "yes"}}, key: ca.crt}
  target:
    configMap: {key: trust.pem}
    namespaceSelector: {matchLabels: {trust: enabled}}
)");
  ASSERT_TRUE(eventually([&] { return pem_count("team-a") == 2; }, 90s)) << manager_->logs() << bundle("org", ".status");
  EXPECT_EQ(entry("configmap", "team-a", "data", "trust.pem"), a + b);

  kubectl_->ok({"label", "configmap", "roots-c", "-n", "capstan-system", "trust.example/roots=yes"});
  EXPECT_TRUE(eventually([&] { return pem_count("team-a") == 3; }, 30s)) << manager_->logs();
  kubectl_->ok({"label", "configmap", "roots-a", "-n", "capstan-system", "trust.example/roots-"});
  EXPECT_TRUE(eventually([&] { return entry("configmap", "team-a", "data", "trust.pem") == b + c; }, 30s)) << manager_->logs();

  kubectl_->ok({"label", "configmap", "roots-b", "-n", "capstan-system", "trust.example/roots-"});
  EXPECT_TRUE(eventually([&] { return entry("configmap", "team-a", "data", "trust.pem") == c; }, 30s)) << manager_->logs();
  kubectl_->ok({"label", "configmap", "roots-c", "-n", "capstan-system", "trust.example/roots-"});
  EXPECT_TRUE(eventually([&] { return synced("org", "reason") == "SourceNotFound"; }, 30s)) << bundle("org", ".status");
  EXPECT_EQ(synced("org", "message"),
            R"(spec.sources[0].configMap: no ConfigMap in the trust namespace "capstan-system" matches the selector)");
  EXPECT_EQ(entry("configmap", "team-a", "data", "trust.pem"), c) << "the targets made before stay";
}

CAPSTAN_E2E_BACKENDS(BundlesE2E);

}  // namespace
}  // namespace capstan::e2e
