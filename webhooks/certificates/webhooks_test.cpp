// Webhook validation and defaulting through the admission handlers (AdmissionReview in,
// AdmissionReview out), and the webhook configuration objects.
#include "webhooks/certificates/webhooks.h"

#include "webhooks/test_util.h"
#include "runtime/json/patch.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/pki.h"

#include <gtest/gtest.h>

namespace capstan::webhooks::certificates {
namespace {

json::Value J(std::string_view text) { return json::parse(text, "test literal"); }

// A Certificate "web" in "shop" with `spec` (JSON text).
json::Value certificate_json(std::string_view spec) {
  json::Value obj = J(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate",
      "metadata":{"name":"web","namespace":"shop","uid":"uid-web","generation":3}})");
  obj.get_object()["spec"] = J(spec);
  return obj;
}

json::Value review(std::string_view kind, std::string_view resource, std::string_view op, json::Value object,
                   json::Value old = nullptr) {
  json::Object req{{"uid", "0d6f1ad0-0000-4000-8000-000000000001"},
                   {"kind", json::Object{{"group", "certs.capstan.dev"}, {"version", "v1"}, {"kind", kind}}},
                   {"resource", json::Object{{"group", "certs.capstan.dev"}, {"version", "v1"}, {"resource", resource}}},
                   {"name", "x"},
                   {"namespace", "shop"},
                   {"operation", op},
                   {"userInfo", json::Object{{"username", "jane"}, {"uid", "u-1"}, {"groups", json::Array{"devs", "system:authenticated"}}}},
                   {"object", std::move(object)},
                   {"oldObject", std::move(old)}};
  return json::Object{{"apiVersion", "admission.k8s.io/v1"}, {"kind", "AdmissionReview"}, {"request", std::move(req)}};
}

using testing::allowed;
using testing::call;
using testing::message;

json::Value cert(std::string_view spec) { return certificate_json(spec); }

class CertificateValidation : public ::testing::Test {
 protected:
  json::Value create(std::string_view spec) { return call(h, review("Certificate", "certificates", "CREATE", cert(spec))); }
  webhook::Handler h = certificate_validating_handler();
};

TEST_F(CertificateValidation, AdmitsAValidCertificate) {
  auto r = create(R"({"secretName":"web-tls","dnsNames":["web.example"],"issuerRef":{"name":"ca"},"duration":"24h","renewBefore":"1h"})");
  EXPECT_TRUE(allowed(r)) << message(r);
}

TEST_F(CertificateValidation, RejectsWithFieldPaths) {
  struct Case {
    const char* spec;
    const char* field;  // the message starts with it
  };
  const Case cases[] = {
      {R"({"secretName":"s","issuerRef":{"name":"ca"}})", "spec: Invalid value: \"\": at least one of commonName"},
      {R"({"secretName":"s","dnsNames":["a.example"],"issuerRef":{"name":"ca"},"duration":"30m"})",
       "spec.duration: Invalid value: 30m0s: certificate duration must be greater than 1h0m0s"},
      {R"({"secretName":"s","dnsNames":["a.example"],"issuerRef":{"name":"ca"},"duration":"2h","renewBefore":"2h"})",
       "spec.renewBefore: Invalid value: 2h0m0s: certificate duration 2h0m0s must be greater than renewBefore 2h0m0s"},
      {R"({"secretName":"s","dnsNames":["a.example"],"issuerRef":{"name":"ca"},"privateKey":{"algorithm":"RSA","size":1024}})",
       "spec.privateKey.size: Invalid value: 1024: must be between 2048 and 8192 for rsa keyAlgorithm"},
      {R"({"secretName":"s","dnsNames":["a.example"],"issuerRef":{"name":"ca"},"privateKey":{"algorithm":"ECDSA","size":2048}})",
       "spec.privateKey.size: Unsupported value: 2048"},
      {R"({"secretName":"s","dnsNames":["a.example"],"issuerRef":{"name":"ca"},"usages":["server auth","tls"]})",
       "spec.usages[1]: Invalid value: \"tls\": unknown keyusage"},
      {R"({"secretName":"s","dnsNames":["a.example"],"issuerRef":{"name":"ca","kind":"Vault"}})",
       "spec.issuerRef.kind: Invalid value: \"Vault\": must be one of Issuer or ClusterIssuer"},
  };
  for (const auto& c : cases) {
    auto r = create(c.spec);
    EXPECT_FALSE(allowed(r)) << c.spec;
    EXPECT_TRUE(message(r).starts_with(c.field)) << message(r);
    EXPECT_EQ(json::get_int(r, {"response", "status", "code"}), 406);
    EXPECT_EQ(json::get_string(r, {"response", "status", "reason"}), "NotAcceptable");
    const auto* causes = json::get_array(r, {"response", "status", "details", "causes"});
    ASSERT_TRUE(causes && !causes->empty()) << c.spec;
    EXPECT_FALSE(json::get_string(causes->at(0), {"field"}).empty());
  }
}

TEST_F(CertificateValidation, SeveralErrorsAreAggregated) {
  auto r = create(R"({"secretName":"s","dnsNames":["a.example"],"issuerRef":{"name":"ca"},"duration":"30m","renewBefore":"1m"})");
  EXPECT_FALSE(allowed(r));
  EXPECT_EQ(message(r),
            "[spec.duration: Invalid value: 30m0s: certificate duration must be greater than 1h0m0s, "
            "spec.renewBefore: Invalid value: 1m0s: certificate renewBefore must be greater than 5m0s]");
}

TEST(IssuerValidation, ExactlyOneType) {
  auto h = issuer_validating_handler();
  auto issuer = [](std::string_view spec) {
    json::Value o = J(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Issuer","metadata":{"name":"i","namespace":"shop"}})");
    o.get_object()["spec"] = J(spec);
    return o;
  };
  EXPECT_TRUE(allowed(call(h, review("Issuer", "issuers", "CREATE", issuer(R"({"selfSigned":{}})")))));
  auto none = call(h, review("Issuer", "issuers", "CREATE", issuer("{}")));
  EXPECT_FALSE(allowed(none));
  EXPECT_EQ(message(none), "spec: Required value: at least one issuer must be configured");
  auto two = call(h, review("ClusterIssuer", "clusterissuers", "CREATE", issuer(R"({"selfSigned":{},"ca":{"secretName":"x"}})")));
  EXPECT_FALSE(allowed(two));
  EXPECT_NE(message(two).find("may not specify more than one issuer type"), std::string::npos) << message(two);
}

TEST(RequestValidation, SpecIsImmutable) {
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  pki::CertificateTemplate tmpl;
  tmpl.dns_names = {"a.example"};
  json::Value cr = J(R"({"apiVersion":"certs.capstan.dev/v1","kind":"CertificateRequest",
      "metadata":{"name":"web-1","namespace":"shop","annotations":{"certs.capstan.dev/certificate-revision":"1"}},
      "spec":{"issuerRef":{"name":"ca","kind":"Issuer","group":"certs.capstan.dev"},"duration":"2160h0m0s",
              "usages":["digital signature","key encipherment"]}})");
  cr.get_object()["spec"].get_object()["request"] = meta::base64_encode(pki::CertificateRequest::create(tmpl, key));
  auto h = certificate_request_validating_handler();
  EXPECT_TRUE(allowed(call(h, review("CertificateRequest", "certificaterequests", "CREATE", cr))));
  json::Value changed = cr;
  changed.get_object()["spec"].get_object()["isCA"] = true;
  auto r = call(h, review("CertificateRequest", "certificaterequests", "UPDATE", changed, cr));
  EXPECT_FALSE(allowed(r));
  EXPECT_EQ(message(r), "spec: Forbidden: cannot change spec after creation");
  // Adding an annotation (the ACME order URL) is fine.
  json::Value annotated = cr;
  annotated.get_object()["metadata"].get_object()["annotations"].get_object()["acme.capstan.dev/order-url"] = "https://acme/o/1";
  EXPECT_TRUE(allowed(call(h, review("CertificateRequest", "certificaterequests", "UPDATE", annotated, cr))));
}

TEST(CertificateRequestApproval, SettingApprovedOrDeniedNeedsTheApproveVerbOnTheSigner) {
  json::Value cr = J(R"({"apiVersion":"certs.capstan.dev/v1","kind":"CertificateRequest",
      "metadata":{"name":"web-1","namespace":"shop"},
      "spec":{"issuerRef":{"name":"ca","kind":"Issuer","group":"certs.capstan.dev"},"request":"cmVx"}})");
  std::vector<std::string> asked;
  bool allow = false;
  auto h = certificate_request_validating_handler([&](const json::Value& user, const std::string& signer, const std::string& wildcard) {
    asked = {std::string(json::get_string(user, {"username"})), signer, wildcard};
    return allow;
  });
  auto with = [](json::Value obj, std::string_view type) {
    json::ensure_object(obj, {"status"})["conditions"] =
        json::Array{json::Object{{"type", type}, {"status", "True"}, {"reason", "KubectlCapstan"}}};
    return obj;
  };
  auto approved = with(cr, "Approved");
  auto r = call(h, testing::review("certs.capstan.dev", "CertificateRequest", "certificaterequests", "UPDATE", approved, cr, "status"));
  EXPECT_FALSE(allowed(r));
  EXPECT_EQ(message(r), "user \"jane\" may not approve or deny requests of signer \"issuers.certs.capstan.dev/shop.ca\": it needs "
                        "verb \"approve\" on signers \"issuers.certs.capstan.dev/shop.ca\" or \"issuers.certs.capstan.dev/*\" of "
                        "API group certs.capstan.dev");
  EXPECT_EQ(asked, (std::vector<std::string>{"jane", "issuers.certs.capstan.dev/shop.ca", "issuers.certs.capstan.dev/*"}));
  allow = true;
  EXPECT_TRUE(allowed(call(h, testing::review("certs.capstan.dev", "CertificateRequest", "certificaterequests", "UPDATE", approved, cr, "status"))));
  // Already approved: nothing to check; flipping it is refused whoever asks.
  asked.clear();
  allow = false;
  EXPECT_TRUE(allowed(call(h, testing::review("certs.capstan.dev", "CertificateRequest", "certificaterequests", "UPDATE", approved, approved, "status"))));
  EXPECT_TRUE(asked.empty());
  EXPECT_FALSE(allowed(call(h, testing::review("certs.capstan.dev", "CertificateRequest", "certificaterequests", "UPDATE", with(cr, "Denied"), approved, "status"))));
  // A ClusterIssuer's and another group's signer names.
  json::Value cluster = cr;
  cluster.get_object()["spec"].get_object()["issuerRef"] = J(R"({"name":"root","kind":"ClusterIssuer"})");
  call(h, testing::review("certs.capstan.dev", "CertificateRequest", "certificaterequests", "UPDATE", with(cluster, "Denied"), cluster, "status"));
  EXPECT_EQ(asked[1], "clusterissuers.certs.capstan.dev/root");
  json::Value external = cr;
  external.get_object()["spec"].get_object()["issuerRef"] = J(R"({"name":"vault","kind":"VaultIssuer","group":"example.com"})");
  call(h, testing::review("certs.capstan.dev", "CertificateRequest", "certificaterequests", "UPDATE", with(external, "Approved"), external, "status"));
  EXPECT_EQ(asked[1], "vaultissuers.example.com/shop.vault");
  EXPECT_EQ(asked[2], "vaultissuers.example.com/*");
}

json::Value patched(const json::Value& original, const json::Value& response) {
  auto patch = json::get_string(response, {"response", "patch"});
  if (patch.empty()) return original;
  EXPECT_EQ(json::get_string(response, {"response", "patchType"}), "JSONPatch");
  auto ops = json::parse(meta::base64_decode(patch).value(), "patch");
  return json::apply_json_patch(original, ops);
}

TEST(Defaulting, CertificateStoredDefaults) {
  auto h = certificate_mutating_handler();
  json::Value c = cert(R"({"secretName":"s","dnsNames":["a.example"],"issuerRef":{"name":"ca"}})");
  auto r = call(h, review("Certificate", "certificates", "CREATE", c));
  ASSERT_TRUE(allowed(r));
  json::Value out = patched(c, r);
  EXPECT_EQ(json::get_string(out, {"spec", "issuerRef", "kind"}), "Issuer");
  EXPECT_EQ(json::get_string(out, {"spec", "issuerRef", "group"}), "certs.capstan.dev");
  EXPECT_EQ(json::get_string(out, {"spec", "privateKey", "rotationPolicy"}), "Always");
  EXPECT_EQ(json::get_int(out, {"spec", "revisionHistoryLimit"}), 1);
  // Already defaulted: no patch.
  auto again = call(h, review("Certificate", "certificates", "UPDATE", out, out));
  EXPECT_TRUE(json::get_string(again, {"response", "patch"}).empty());
}

TEST(Defaulting, RequestGetsTheRequesterIdentityOnCreate) {
  auto h = certificate_request_mutating_handler();
  json::Value cr = J(R"({"apiVersion":"certs.capstan.dev/v1","kind":"CertificateRequest","metadata":{"name":"r","namespace":"shop"},
      "spec":{"request":"","issuerRef":{"name":"ca"},"username":"mallory"}})");
  auto r = call(h, review("CertificateRequest", "certificaterequests", "CREATE", cr));
  ASSERT_TRUE(allowed(r));
  json::Value out = patched(cr, r);
  EXPECT_EQ(json::get_string(out, {"spec", "username"}), "jane");
  EXPECT_EQ(json::get_string(out, {"spec", "uid"}), "u-1");
  EXPECT_EQ(json::get_array(out, {"spec", "groups"})->size(), 2u);
  EXPECT_EQ(json::get_string(out, {"spec", "issuerRef", "group"}), "certs.capstan.dev");
  // On UPDATE the identity is left alone (validation keeps it immutable).
  auto upd = call(h, review("CertificateRequest", "certificaterequests", "UPDATE", out, out));
  EXPECT_TRUE(json::get_string(upd, {"response", "patch"}).empty());
}

TEST(Configurations, ValidatingAndMutatingFromAnEndpoint) {
  webhook::Endpoint dev{"https://127.0.0.1:9443/", "", "", "-----BEGIN CERTIFICATE-----\nX\n-----END CERTIFICATE-----\n", "capstan-system"};
  auto cfgs = configurations(dev);
  ASSERT_EQ(cfgs.size(), 2u);
  EXPECT_EQ(json::get_string(cfgs[0], {"kind"}), "ValidatingWebhookConfiguration");
  EXPECT_EQ(json::get_string(cfgs[1], {"kind"}), "MutatingWebhookConfiguration");
  const auto& hooks = *json::get_array(cfgs[0], {"webhooks"});
  ASSERT_EQ(hooks.size(), 6u);
  std::vector<std::string> resources;
  for (const auto& hk : hooks) {
    const bool bundle = json::get_string(hk, {"name"}) == "vbundle.trust.capstan.dev";
    EXPECT_EQ(json::get_string(hk, {"failurePolicy"}), "Fail");
    EXPECT_EQ(json::get_string(hk, {"matchPolicy"}), "Equivalent");
    EXPECT_EQ(json::serialize(*json::find(hk, {"namespaceSelector"})),
              R"({"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"NotIn","values":["capstan-system"]}]})");
    EXPECT_EQ(json::get_string(hk, {"sideEffects"}), "None");
    EXPECT_EQ(json::get_int(hk, {"timeoutSeconds"}), 10);
    EXPECT_EQ(json::serialize(*json::find(hk, {"admissionReviewVersions"})), R"(["v1"])");
    const auto& rule = json::get_array(hk, {"rules"})->at(0);
    EXPECT_EQ(json::serialize(*json::find(rule, {"apiGroups"})), bundle ? R"(["trust.capstan.dev"])" : R"(["certs.capstan.dev"])");
    EXPECT_EQ(json::serialize(*json::find(rule, {"apiVersions"})), bundle ? R"(["v1alpha1"])" : R"(["v1"])");
    EXPECT_EQ(json::serialize(*json::find(rule, {"operations"})), R"(["CREATE","UPDATE"])");
    resources.emplace_back(json::get_array(rule, {"resources"})->at(0).get_string());
    EXPECT_TRUE(json::get_string(hk, {"clientConfig", "url"})
                    .starts_with(bundle ? "https://127.0.0.1:9443/validate-trust-capstan-dev-v1alpha1-bundle"
                                        : "https://127.0.0.1:9443/validate-certs-capstan-dev-v1-"));
    EXPECT_EQ(meta::base64_decode(json::get_string(hk, {"clientConfig", "caBundle"})).value(), dev.ca_bundle_pem);
  }
  EXPECT_EQ(resources, (std::vector<std::string>{"certificates", "certificaterequests", "issuers", "clusterissuers", "bundles",
                                                 "certificaterequestpolicies"}));
  EXPECT_EQ(json::get_array(cfgs[1], {"webhooks"})->size(), 2u);

  webhook::Endpoint in_cluster{"", "capstan-system", "capstan-webhook", ""};
  auto svc = configurations(in_cluster);
  const auto& h0 = json::get_array(svc[1], {"webhooks"})->at(0);
  EXPECT_EQ(json::get_string(h0, {"clientConfig", "service", "name"}), "capstan-webhook");
  EXPECT_EQ(json::get_string(h0, {"clientConfig", "service", "namespace"}), "capstan-system");
  EXPECT_EQ(json::get_string(h0, {"clientConfig", "service", "path"}), "/mutate-certs-capstan-dev-v1-certificate");
  EXPECT_EQ(json::find(h0, {"clientConfig", "url"}), nullptr);
}

}  // namespace
}  // namespace capstan::webhooks::certificates
