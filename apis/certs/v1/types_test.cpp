// Decode/encode of the typed structs: round trips, omitempty, Go durations, base64 PEM fields,
// and DecodeError messages.
#include "apis/certs/v1/certificate.h"
#include "apis/certs/v1/certificate_request.h"
#include "apis/certs/v1/group.h"
#include "apis/certs/v1/issuer.h"
#include "apis/certs/v1/test_util.h"
#include "apis/common/codec.h"
#include "runtime/json/patch.h"

#include <gtest/gtest.h>

namespace capstan::apis::certs::v1 {
namespace {

using namespace std::chrono_literals;
using testing::J;
using testing::Y;

const char* kFullCertificate = R"({
  "apiVersion": "certs.capstan.dev/v1",
  "kind": "Certificate",
  "metadata": {"name": "web", "namespace": "shop"},
  "spec": {
    "subject": {"organizations": ["Example"], "countries": ["BE"], "organizationalUnits": ["Ops"],
                "localities": ["Ghent"], "provinces": ["OVL"], "streetAddresses": ["Main 1"],
                "postalCodes": ["9000"], "serialNumber": "42"},
    "commonName": "shop.example.com",
    "duration": "2160h0m0s",
    "renewBefore": "360h0m0s",
    "dnsNames": ["shop.example.com", "www.shop.example.com"],
    "ipAddresses": ["192.0.2.10"],
    "uris": ["spiffe://cluster.local/ns/shop/sa/web"],
    "emailAddresses": ["ops@example.com"],
    "secretName": "web-tls",
    "secretTemplate": {"annotations": {"a": "1"}, "labels": {"team": "shop"}},
    "issuerRef": {"name": "ca", "kind": "ClusterIssuer", "group": "certs.capstan.dev"},
    "isCA": true,
    "usages": ["server auth", "client auth"],
    "privateKey": {"rotationPolicy": "Always", "encoding": "PKCS8", "algorithm": "ECDSA", "size": 384},
    "encodeUsagesInRequest": false,
    "revisionHistoryLimit": 3
  },
  "status": {
    "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2026-01-02T03:04:05Z",
                    "reason": "Ready", "message": "Certificate is up to date and has not expired",
                    "observedGeneration": 2}],
    "lastFailureTime": "2026-01-01T00:00:00Z",
    "notBefore": "2026-01-02T03:04:05Z",
    "notAfter": "2026-04-02T03:04:05Z",
    "renewalTime": "2026-03-03T03:04:05Z",
    "revision": 4,
    "nextPrivateKeySecretName": "web-x7k2p",
    "failedIssuanceAttempts": 1
  }
})";

TEST(CertsTypes, CertificateRoundTrip) {
  json::Value in = J(kFullCertificate);
  Certificate c = Certificate::from_json(in);
  EXPECT_EQ(c.name(), "web");
  EXPECT_EQ(c.namespace_(), "shop");
  EXPECT_EQ(c.spec.duration, std::chrono::nanoseconds(2160h));
  EXPECT_EQ(c.spec.renew_before, std::chrono::nanoseconds(360h));
  ASSERT_TRUE(c.spec.subject);
  EXPECT_EQ(c.spec.subject->serial_number, "42");
  EXPECT_EQ(c.spec.secret_template->labels.at("team"), "shop");
  EXPECT_EQ(c.spec.issuer_ref, (IssuerReference{"ca", "ClusterIssuer", "certs.capstan.dev"}));
  ASSERT_TRUE(c.spec.private_key);
  EXPECT_EQ(c.spec.private_key->size, 384);
  EXPECT_EQ(c.spec.encode_usages_in_request, false);
  EXPECT_EQ(c.spec.revision_history_limit, 3);
  ASSERT_NE(c.status.condition("Ready"), nullptr);
  EXPECT_EQ(c.status.condition("Ready")->observed_generation, 2);
  EXPECT_EQ(c.status.condition("Issuing"), nullptr);
  EXPECT_EQ(c.status.revision, 4);
  EXPECT_EQ(meta::format_rfc3339(*c.status.not_after), "2026-04-02T03:04:05Z");

  EXPECT_TRUE(json::deep_equal(c.to_json(), in)) << json::serialize(c.to_json());
  // And once more through the typed form.
  EXPECT_EQ(CertificateSpec::from_json(c.spec.to_json()), c.spec);
}

TEST(CertsTypes, CertificateMinimalIsWrittenWithoutDefaults) {
  Certificate c = Certificate::from_json(Y(R"(
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: web}
spec:
  secretName: web-tls
  dnsNames: [web.example.com]
  issuerRef: {name: selfsigned}
  duration: 2160h
  unknownField: dropped
)"));
  EXPECT_FALSE(c.spec.private_key);
  EXPECT_FALSE(c.spec.revision_history_limit);
  EXPECT_FALSE(c.spec.encode_usages_in_request);
  // Durations are written the way Go's metav1.Duration marshals them; members in the order of
  // the field table (the CRD schema's).
  EXPECT_EQ(json::serialize(c.to_json()),
            R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"web"},)"
            R"("spec":{"issuerRef":{"name":"selfsigned"},"secretName":"web-tls","dnsNames":["web.example.com"],)"
            R"("duration":"2160h0m0s"}})");
}

TEST(CertsTypes, CertificateDecodeErrorsNameTheField) {
  auto message = [](std::string_view spec) {
    try {
      CertificateSpec::from_json(J(spec));
    } catch (const codec::DecodeError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(R"({"duration": "90d"})"), R"(spec.duration: time: unknown unit "d" in duration "90d")");
  EXPECT_EQ(message(R"({"renewBefore": "5"})"), R"(spec.renewBefore: time: missing unit in duration "5")");
  EXPECT_EQ(message(R"({"duration": "soon"})"), R"(spec.duration: time: invalid duration "soon")");
  EXPECT_EQ(message(R"({"dnsNames": "a.example.com"})"), "spec.dnsNames: expected an array, got string");
  EXPECT_EQ(message(R"({"dnsNames": ["a", 1]})"), "spec.dnsNames[1]: expected a string, got number");
  EXPECT_EQ(message(R"({"privateKey": {"size": "big"}})"), "spec.privateKey.size: expected an integer, got string");
  EXPECT_EQ(message(R"({"issuerRef": []})"), "spec.issuerRef: expected an object, got array");
  EXPECT_EQ(message(R"({"revisionHistoryLimit": 4294967296})"),
            "spec.revisionHistoryLimit: 4294967296 does not fit in a 32-bit integer");
  EXPECT_EQ(message(R"({"duration": null, "usages": null})"), "no error");  // null is absent, as in Go

  try {
    CertificateStatus::from_json(J(R"({"notAfter": "tomorrow"})"));
    FAIL();
  } catch (const codec::DecodeError& e) {
    EXPECT_STREQ(e.what(), R"(status.notAfter: invalid RFC 3339 time "tomorrow")");
  }
}

TEST(CertsTypes, CertificateRequestRoundTripWithBase64Pem) {
  std::string csr = testing::make_csr("web.example.com");
  json::Value in = J(R"({
    "apiVersion": "certs.capstan.dev/v1", "kind": "CertificateRequest",
    "metadata": {"name": "web-1", "namespace": "shop", "annotations": {"certs.capstan.dev/certificate-revision": "1"}},
    "spec": {"duration": "1h0m0s", "issuerRef": {"name": "ca", "group": "certs.capstan.dev"}, "request": "",
             "isCA": true, "usages": ["digital signature", "cert sign"], "username": "system:serviceaccount:capstan:capstan",
             "uid": "1234", "groups": ["system:serviceaccounts"], "extra": {"scopes": ["a", "b"]}},
    "status": {"conditions": [{"type": "Approved", "status": "True", "reason": "certs.capstan.dev",
                               "message": "Certificate request has been approved by certs.capstan.dev"}],
               "certificate": "", "ca": "", "failureTime": "2026-01-01T00:00:00Z"}
  })");
  in.get_object()["spec"].get_object()["request"] = testing::b64(csr);
  in.get_object()["status"].get_object()["certificate"] = testing::b64("CERT PEM");
  in.get_object()["status"].get_object()["ca"] = testing::b64("CA PEM");

  CertificateRequest r = CertificateRequest::from_json(in);
  EXPECT_EQ(r.spec.request, csr);  // PEM, not base64
  EXPECT_EQ(r.spec.extra.at("scopes"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.status.certificate, "CERT PEM");
  EXPECT_TRUE(r.status.approved());
  EXPECT_FALSE(r.status.denied());
  EXPECT_TRUE(json::deep_equal(r.to_json(), in)) << json::serialize(r.to_json());

  try {
    CertificateRequestSpec::from_json(J(R"({"request": "not base64!"})"));
    FAIL();
  } catch (const codec::DecodeError& e) {
    EXPECT_STREQ(e.what(), "spec.request: illegal base64 data");
  }
}

TEST(CertsTypes, IssuerAndClusterIssuerRoundTrip) {
  json::Value acme = Y(R"(
apiVersion: certs.capstan.dev/v1
kind: Issuer
metadata: {name: letsencrypt, namespace: shop}
spec:
  acme:
    server: https://acme-staging-v02.api.letsencrypt.org/directory
    email: ops@example.com
    privateKeySecretRef: {name: letsencrypt-account, key: tls.key}
    preferredChain: ISRG Root X1
    disableAccountKeyGeneration: true
    solvers:
    - selector:
        matchLabels: {app: web}
        dnsNames: [web.example.com]
        dnsZones: [example.com]
      http01:
        ingress:
          ingressClassName: nginx
          serviceType: NodePort
          podTemplate:
            metadata: {labels: {a: b}}
            spec: {nodeSelector: {kubernetes.io/os: linux}}
          ingressTemplate:
            metadata: {annotations: {x: y}}
    - http01:
        ingress: {class: traefik}
status:
  conditions:
  - {type: Ready, status: "True", reason: ACMEAccountRegistered, message: The ACME account was registered with the ACME server}
  acme: {uri: "https://acme.example/acct/1", lastRegisteredEmail: ops@example.com, lastPrivateKeyHash: abc}
)");
  Issuer i = Issuer::from_json(acme);
  EXPECT_EQ(i.kind, "Issuer");
  EXPECT_FALSE(i.cluster_scoped());
  ASSERT_TRUE(i.spec.acme);
  EXPECT_FALSE(i.spec.ca);
  ASSERT_EQ(i.spec.acme->solvers.size(), 2u);
  const auto& ingress = *i.spec.acme->solvers[0].http01->ingress;
  EXPECT_EQ(ingress.ingress_class_name, "nginx");
  EXPECT_FALSE(ingress.class_);
  ASSERT_TRUE(ingress.pod_template);
  EXPECT_EQ(json::get_string(*ingress.pod_template, {"spec", "nodeSelector", "kubernetes.io/os"}), "linux");
  EXPECT_EQ(i.spec.acme->solvers[1].http01->ingress->class_, "traefik");
  EXPECT_EQ(i.status.acme->uri, "https://acme.example/acct/1");
  EXPECT_TRUE(json::deep_equal(i.to_json(), acme)) << json::serialize(i.to_json());

  json::Value cluster = Y(R"(
apiVersion: certs.capstan.dev/v1
kind: ClusterIssuer
metadata: {name: root-ca}
spec:
  ca:
    secretName: root-ca
    crlDistributionPoints: [http://crl.example.com/root.crl]
    ocspServers: [http://ocsp.example.com]
    issuingCertificateURLs: [http://ca.example.com/root.crt]
)");
  ClusterIssuer c = ClusterIssuer::from_json(cluster);
  EXPECT_TRUE(c.cluster_scoped());
  EXPECT_EQ(c.spec.ca->issuing_certificate_urls, (std::vector<std::string>{"http://ca.example.com/root.crt"}));
  EXPECT_TRUE(json::deep_equal(c.to_json(), cluster)) << json::serialize(c.to_json());

  Issuer self = Issuer::from_json(J(R"({"kind": "Issuer", "spec": {"selfSigned": {}}})"));
  EXPECT_TRUE(self.spec.self_signed);
  EXPECT_EQ(json::serialize(self.spec.to_json()), R"({"selfSigned":{}})");
}

TEST(CertsTypes, KeyUsageNames) {
  EXPECT_EQ(kKeyUsages.size(), 23u);
  EXPECT_TRUE(is_known_usage("signing"));
  EXPECT_TRUE(is_known_usage("s/mime"));
  EXPECT_TRUE(is_known_usage("netscape sgc"));
  EXPECT_FALSE(is_known_usage("Server Auth"));
  EXPECT_FALSE(is_known_usage(""));
}

}  // namespace
}  // namespace capstan::apis::certs::v1
