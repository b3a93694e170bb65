// The generated CRDs: accepted by our API server's CRD checks, structural schemas, printer
// columns that parse and select what cert-manager's do, and schemas that keep every typed field.
#include "apis/certs/v1/crds.h"

#include "apis/certs/v1/certificate.h"
#include "apis/certs/v1/test_util.h"
#include "apiserver/builtin/crd_strategy.h"
#include "apiserver/schema/schema.h"
#include "apiserver/table/jsonpath.h"
#include "runtime/json/patch.h"

#include <gtest/gtest.h>

namespace capstan::apis::certs::v1 {
namespace {

namespace schema = apiserver::schema;
using testing::errors_of;
using testing::J;
using testing::Y;
using Strings = std::vector<std::string>;

const json::Value& version_of(const json::Value& crd) { return crd.at("spec").at("versions").at(0); }
const json::Value& schema_of(const json::Value& crd) { return version_of(crd).at("schema").at("openAPIV3Schema"); }

schema::SchemaPtr parsed(const json::Value& crd) {
  auto r = schema::parse(schema_of(crd));
  EXPECT_EQ(errors_of(r.errors), Strings{}) << json::get_string(crd, {"metadata", "name"});
  return r.schema;
}

std::vector<std::string> column_names(const json::Value& crd) {
  std::vector<std::string> out;
  for (const auto& c : version_of(crd).at("additionalPrinterColumns").get_array()) {
    std::string name(c.at("name").get_string());
    if (auto* p = c.get_object().if_contains("priority")) name += "(p" + std::to_string(p->as_int64()) + ")";
    out.push_back(name);
  }
  return out;
}

// Every property below the root (other than metadata) has a description, so kubectl explain
// says something useful.
void expect_descriptions(const json::Value& s, const std::string& path) {
  const auto* props = json::get_object(s, {"properties"});
  if (props) {
    for (const auto& kv : *props) {
      std::string p = path + "." + std::string(kv.key());
      if (kv.key() == "metadata" && path == "") continue;
      EXPECT_FALSE(json::get_string(kv.value(), {"description"}).empty()) << p << " has no description";
      expect_descriptions(kv.value(), p);
    }
  }
  if (const auto* items = json::find(s, {"items"})) expect_descriptions(*items, path + "[]");
}

TEST(CertsCrds, AcceptedByTheApiServer) {
  auto all = crds();
  ASSERT_EQ(all.size(), 5u);
  apiserver::builtin::CrdStrategy strategy;
  for (auto crd : all) {
    strategy.prepare_create(crd);
    EXPECT_EQ(errors_of(strategy.validate(crd, nullptr)), Strings{}) << json::serialize(crd);
    EXPECT_TRUE(parsed(crd));
    expect_descriptions(schema_of(crd), "");
    EXPECT_EQ(json::get_string(crd, {"apiVersion"}), "apiextensions.k8s.io/v1");
    EXPECT_EQ(json::get_string(crd, {"spec", "group"}), "certs.capstan.dev");
    const auto& v = version_of(crd);
    EXPECT_EQ(json::get_string(v, {"name"}), "v1");
    EXPECT_TRUE(json::get_bool(v, {"served"}));
    EXPECT_TRUE(json::get_bool(v, {"storage"}));
    EXPECT_NE(json::find(v, {"subresources", "status"}), nullptr);
    EXPECT_EQ(json::serialize(*json::find(crd, {"spec", "names", "categories"})), R"(["capstan"])");
    for (const auto& c : v.at("additionalPrinterColumns").get_array()) {
      EXPECT_NO_THROW(apiserver::table::JsonPath::parse_column(c.at("jsonPath").get_string())) << c;
    }
  }
}

TEST(CertsCrds, NamesScopesAndColumns) {
  auto expect_names = [](const json::Value& crd, std::string_view name, std::string_view kind, std::string_view scope,
                         std::string_view short_names) {
    EXPECT_EQ(json::get_string(crd, {"metadata", "name"}), name);
    EXPECT_EQ(json::get_string(crd, {"spec", "names", "kind"}), kind);
    EXPECT_EQ(json::get_string(crd, {"spec", "names", "listKind"}), std::string(kind) + "List");
    EXPECT_EQ(json::get_string(crd, {"spec", "scope"}), scope);
    EXPECT_EQ(json::serialize(*json::find(crd, {"spec", "names", "shortNames"})), short_names);
  };
  expect_names(certificate_crd(), "certificates.certs.capstan.dev", "Certificate", "Namespaced", R"(["cert","certs"])");
  expect_names(certificate_request_crd(), "certificaterequests.certs.capstan.dev", "CertificateRequest", "Namespaced",
               R"(["cr","crs"])");
  expect_names(issuer_crd(), "issuers.certs.capstan.dev", "Issuer", "Namespaced", R"(["iss"])");
  expect_names(cluster_issuer_crd(), "clusterissuers.certs.capstan.dev", "ClusterIssuer", "Cluster", R"(["ciss"])");
  EXPECT_EQ(json::get_string(certificate_crd(), {"spec", "names", "singular"}), "certificate");

  EXPECT_EQ(column_names(certificate_crd()),
            (Strings{"Ready", "Secret", "Issuer(p1)", "Status(p1)", "Expiration(p1)", "Age"}));
  EXPECT_EQ(column_names(certificate_request_crd()),
            (Strings{"Approved", "Denied", "Ready", "Issuer", "Requester", "Status(p1)", "Age"}));
  EXPECT_EQ(column_names(issuer_crd()), (Strings{"Ready", "Status(p1)", "Age"}));
  EXPECT_EQ(column_names(cluster_issuer_crd()), (Strings{"Ready", "Status(p1)", "Age"}));
}

TEST(CertsCrds, PrinterColumnsSelectConditionValues) {
  json::Value cert = J(R"({"metadata": {"name": "web", "creationTimestamp": "2026-01-01T00:00:00Z"},
    "spec": {"secretName": "web-tls", "issuerRef": {"name": "ca"}},
    "status": {"notAfter": "2026-04-01T00:00:00Z",
               "conditions": [{"type": "Issuing", "status": "False", "message": "x"},
                              {"type": "Ready", "status": "True", "message": "Certificate is up to date and has not expired"}]}})");
  std::vector<std::string> cells;
  const json::Value crd = certificate_crd();
  for (const auto& c : version_of(crd).at("additionalPrinterColumns").get_array()) {
    auto path = apiserver::table::JsonPath::parse_column(c.at("jsonPath").get_string());
    path.allow_missing_keys(true);
    cells.push_back(path.execute(cert));
  }
  EXPECT_EQ(cells, (Strings{"True", "web-tls", "ca", "Certificate is up to date and has not expired",
                            "2026-04-01T00:00:00Z", "2026-01-01T00:00:00Z"}));
}

TEST(CertsCrds, SchemasKeepEveryTypedField) {
  // A Certificate using every field: the schema prunes nothing and validates it.
  json::Value cert = Y(R"(
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: web, namespace: shop}
spec:
  secretName: web-tls
  secretTemplate: {annotations: {a: b}, labels: {c: d}}
  commonName: web.example.com
  dnsNames: [web.example.com]
  ipAddresses: [192.0.2.1]
  uris: ["spiffe://x/y"]
  emailAddresses: [a@example.com]
  subject: {organizations: [o], countries: [BE], organizationalUnits: [u], localities: [l], provinces: [p],
            streetAddresses: [s], postalCodes: ["9000"], serialNumber: "1"}
  duration: 2160h
  renewBefore: 360h
  isCA: false
  usages: [server auth]
  privateKey: {algorithm: ECDSA, size: 256, encoding: PKCS8, rotationPolicy: Always}
  issuerRef: {name: ca, kind: Issuer, group: certs.capstan.dev}
  revisionHistoryLimit: 2
  encodeUsagesInRequest: true
status:
  conditions: [{type: Ready, status: "True", reason: Ready, message: ok, lastTransitionTime: "2026-01-01T00:00:00Z", observedGeneration: 1}]
  lastFailureTime: "2026-01-01T00:00:00Z"
  notBefore: "2026-01-01T00:00:00Z"
  notAfter: "2026-04-01T00:00:00Z"
  renewalTime: "2026-03-02T00:00:00Z"
  revision: 1
  nextPrivateKeySecretName: web-abcde
  failedIssuanceAttempts: 1
)");
  auto s = parsed(certificate_crd());
  json::Value copy = cert;
  EXPECT_EQ(schema::prune_and_default(copy, *s), Strings{});
  EXPECT_TRUE(json::deep_equal(copy, cert)) << json::serialize(copy);
  EXPECT_EQ(errors_of(schema::validate_custom_resource(cert, *s)), Strings{});
  // And the typed round trip writes nothing the schema does not know.
  json::Value typed = Certificate::from_json(cert).to_json();
  EXPECT_EQ(schema::prune_and_default(typed, *s), Strings{});

  // cert-manager's enums are in the schema.
  json::Value bad = cert;
  bad.get_object()["spec"].get_object()["privateKey"].get_object()["algorithm"] = "DSA";
  bad.get_object()["spec"].get_object()["usages"].get_array().emplace_back("tls");
  EXPECT_EQ(errors_of(schema::validate_custom_resource(bad, *s)),
            (Strings{"spec.privateKey.algorithm: Unsupported value: \"DSA\": supported values: \"RSA\", \"ECDSA\", "
                     "\"Ed25519\"",
                     "spec.usages[1]: Unsupported value: \"tls\": supported values: \"signing\", \"digital signature\", "
                     "\"content commitment\", \"key encipherment\", \"key agreement\", \"data encipherment\", \"cert "
                     "sign\", \"crl sign\", \"encipher only\", \"decipher only\", \"any\", \"server auth\", \"client "
                     "auth\", \"code signing\", \"email protection\", \"s/mime\", \"ipsec end system\", \"ipsec tunnel\", "
                     "\"ipsec user\", \"timestamping\", \"ocsp signing\", \"microsoft sgc\", \"netscape sgc\""}));
  // Required fields.
  EXPECT_EQ(errors_of(schema::validate_custom_resource(J(R"({"apiVersion": "certs.capstan.dev/v1", "kind": "Certificate",
                                                             "metadata": {"name": "x"}, "spec": {}})"),
                                                       *s)),
            (Strings{"spec.issuerRef: Required value", "spec.secretName: Required value"}));
}

TEST(CertsCrds, IssuerAndRequestSchemas) {
  auto issuer = parsed(issuer_crd());
  json::Value acme = Y(R"(
apiVersion: certs.capstan.dev/v1
kind: Issuer
metadata: {name: le, namespace: shop}
spec:
  acme:
    server: https://acme.example/directory
    email: a@example.com
    privateKeySecretRef: {name: acct, key: tls.key}
    skipTLSVerify: false
    caBundle: "eA=="
    preferredChain: ISRG Root X1
    disableAccountKeyGeneration: false
    solvers:
    - selector: {matchLabels: {a: b}, dnsNames: [x], dnsZones: [example.com]}
      http01:
        ingress:
          ingressClassName: nginx
          serviceType: ClusterIP
          podTemplate: {metadata: {labels: {a: b}}, spec: {nodeSelector: {a: b}, tolerations: [{key: k}]}}
          ingressTemplate: {metadata: {annotations: {a: b}}}
    - dns01: {cloudflare: {apiTokenSecretRef: {name: cf, key: token}}}
status:
  conditions: [{type: Ready, status: "True"}]
  acme: {uri: "https://acme.example/acct/1", lastRegisteredEmail: a@example.com, lastPrivateKeyHash: h}
)");
  json::Value copy = acme;
  EXPECT_EQ(schema::prune_and_default(copy, *issuer), Strings{});
  EXPECT_EQ(errors_of(schema::validate_custom_resource(acme, *issuer)), Strings{});

  // Unsupported issuer types are unknown fields (kubectl's strict field validation names them).
  json::Value vault = J(R"({"apiVersion": "certs.capstan.dev/v1", "kind": "Issuer", "metadata": {"name": "v"},
                            "spec": {"vault": {"server": "https://vault"}}})");
  EXPECT_EQ(schema::prune_and_default(vault, *issuer), Strings{"spec.vault"});

  auto request = parsed(certificate_request_crd());
  json::Value cr = J(R"({"apiVersion": "certs.capstan.dev/v1", "kind": "CertificateRequest", "metadata": {"name": "r"},
                         "spec": {"request": "eA==", "issuerRef": {"name": "ca"}, "extra": {"k": ["v"]}, "groups": ["g"]},
                         "status": {"certificate": "eA==", "ca": "eA==", "failureTime": "2026-01-01T00:00:00Z"}})");
  EXPECT_EQ(schema::prune_and_default(cr, *request), Strings{});
  // cert-manager's CRD default for the issuer group.
  EXPECT_EQ(json::get_string(cr, {"spec", "issuerRef", "group"}), "certs.capstan.dev");
  EXPECT_EQ(errors_of(schema::validate_custom_resource(cr, *request)), Strings{});
  json::Value not_base64 = cr;
  not_base64.get_object()["spec"].get_object()["request"] = "%%%";
  EXPECT_EQ(errors_of(schema::validate_custom_resource(not_base64, *request)).size(), 1u);
}

}  // namespace
}  // namespace capstan::apis::certs::v1
