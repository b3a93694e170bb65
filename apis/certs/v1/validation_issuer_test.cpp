// Issuer / ClusterIssuer validation.
#include "apis/certs/v1/validation.h"

#include "apis/certs/v1/test_util.h"
#include "runtime/pki/sign.h"

#include <gtest/gtest.h>

namespace capstan::apis::certs::v1 {
namespace {

using testing::errors_of;
using testing::J;
using testing::Y;
using Strings = std::vector<std::string>;

Strings errors(std::string_view spec_json) {
  json::Value issuer = J(R"({"apiVersion": "certs.capstan.dev/v1", "kind": "Issuer", "metadata": {"name": "x"}})");
  issuer.get_object()["spec"] = J(spec_json);
  return errors_of(validate_issuer(issuer, nullptr));
}

// An ACME spec with `solvers` and extra members.
std::string acme(std::string_view solvers, std::string_view extra = "") {
  return std::string(R"({"acme": {"server": "https://acme.example/directory", "privateKeySecretRef": {"name": "acct"},)") +
         std::string(extra) + R"( "solvers": )" + std::string(solvers) + "}}";
}

std::string ca_pem() {
  static const std::string pem = [] {
    auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
    return pki::self_signed_ca("Test CA", std::chrono::hours(24), key).to_pem();
  }();
  return pem;
}

TEST(IssuerValidation, CertManagerSamplesAreValid) {
  auto docs = json::from_yaml_documents(R"(
apiVersion: certs.capstan.dev/v1
kind: ClusterIssuer
metadata:
  name: letsencrypt-staging
spec:
  acme:
    server: https://acme-staging-v02.api.letsencrypt.org/directory
    email: user@example.com
    privateKeySecretRef:
      name: letsencrypt-staging
    solvers:
    - http01:
        ingress:
          ingressClassName: nginx
---
apiVersion: certs.capstan.dev/v1
kind: Issuer
metadata:
  name: selfsigned-issuer
  namespace: sandbox
spec:
  selfSigned: {}
---
apiVersion: certs.capstan.dev/v1
kind: Issuer
metadata:
  name: ca-issuer
  namespace: sandbox
spec:
  ca:
    secretName: root-secret
)");
  ASSERT_EQ(docs.size(), 3u);
  for (const auto& d : docs) EXPECT_EQ(errors_of(validate_issuer(d, &d)), Strings{}) << json::serialize(d);
}

TEST(IssuerValidation, ExactlyOneType) {
  EXPECT_EQ(errors("{}"), Strings{"spec: Required value: at least one issuer must be configured"});
  EXPECT_EQ(errors(R"({"selfSigned": null})"), Strings{"spec: Required value: at least one issuer must be configured"});
  EXPECT_EQ(errors(R"({"ca": {"secretName": "root"}, "selfSigned": {}})"),
            Strings{"spec.selfSigned: Forbidden: may not specify more than one issuer type"});
  EXPECT_EQ(errors(R"({"acme": {"server": "https://acme.example/directory", "privateKeySecretRef": {"name": "acct"}},
                     "ca": {}, "selfSigned": {}})"),
            (Strings{"spec.ca: Forbidden: may not specify more than one issuer type",
                     "spec.selfSigned: Forbidden: may not specify more than one issuer type"}));
  EXPECT_EQ(errors_of(validate_issuer(J(R"({"kind": "ClusterIssuer"})"))),
            Strings{"spec: Required value: at least one issuer must be configured"});
}

TEST(IssuerValidation, Acme) {
  EXPECT_EQ(errors(R"({"acme": {}})"),
            (Strings{"spec.acme.privateKeySecretRef.name: Required value: private key secret name is a required field",
                     "spec.acme.server: Required value: acme server URL is a required field"}));
  std::string bundle = testing::b64(ca_pem());
  EXPECT_EQ(errors(acme("[]", R"("caBundle": ")" + bundle + R"(",)")), Strings{});
  EXPECT_EQ(errors(acme("[]", R"("caBundle": ")" + bundle + R"(", "skipTLSVerify": true,)")),
            (Strings{"spec.acme.caBundle: Invalid value: \"\": caBundle and skipTLSVerify are mutually exclusive and "
                     "cannot both be set",
                     "spec.acme.skipTLSVerify: Invalid value: true: caBundle and skipTLSVerify are mutually exclusive and "
                     "cannot both be set"}));
  EXPECT_EQ(errors(acme("[]", R"("caBundle": ")" + testing::b64("no certificates here") + R"(",)")),
            Strings{"spec.acme.caBundle: Invalid value: \"\": cert bundle didn't contain any valid certificates"});
  // A broken block next to a good one is skipped, as x509.CertPool does.
  std::string mixed = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" + ca_pem();
  EXPECT_EQ(errors(acme("[]", R"("caBundle": ")" + testing::b64(mixed) + R"(",)")), Strings{});
}

TEST(IssuerValidation, Solvers) {
  EXPECT_EQ(errors(acme(R"([{"http01": {"ingress": {}}}, {"selector": {"dnsNames": ["a"]}, "http01": {"ingress": {"class": "nginx"}}}])")),
            Strings{});
  EXPECT_EQ(errors(acme(R"([{}])")), Strings{"spec.acme.solvers[0]: Required value: no solver type configured"});
  EXPECT_EQ(errors(acme(R"([{"selector": {}}, {"http01": {}}])")),
            (Strings{"spec.acme.solvers[0]: Required value: no solver type configured",
                     "spec.acme.solvers[1].http01: Required value: no HTTP01 solver type configured"}));
  EXPECT_EQ(errors(acme(R"([{"http01": {"ingress": {}}, "dns01": {"cloudflare": {}}}])")),
            Strings{"spec.acme.solvers[0]: Forbidden: may not specify more than one solver type in a single solver"});
  EXPECT_EQ(errors(acme(R"([{"dns01": {"route53": {}}}])")),
            Strings{"spec.acme.solvers[0].dns01.route53: Forbidden: the route53 DNS01 provider is not supported; use rfc2136 "
                    "(any DNS server taking RFC 2136 updates) or webhook (cert-manager's webhook solvers)"});
}

TEST(IssuerValidation, Dns01Webhook) {
  EXPECT_EQ(errors(acme(R"([{"dns01": {"webhook": {"groupName": "acme.example.com", "solverName": "my-dns",
                              "config": {"apiKeySecretRef": {"name": "k", "key": "token"}, "ttl": 60}}}}])")),
            Strings{});
  EXPECT_EQ(errors(acme(R"([{"dns01": {"webhook": {}}}])")),
            (Strings{"spec.acme.solvers[0].dns01.webhook.groupName: Required value: group name must be specified",
                     "spec.acme.solvers[0].dns01.webhook.solverName: Required value: solver name must be specified"}));
  EXPECT_EQ(errors(acme(R"([{"dns01": {"webhook": {"groupName": "acme/v1", "solverName": "a/b"}}}])")),
            (Strings{"spec.acme.solvers[0].dns01.webhook.groupName: Invalid value: \"acme/v1\": must be an API group name (a "
                     "DNS subdomain such as acme.example.com)",
                     "spec.acme.solvers[0].dns01.webhook.solverName: Invalid value: \"a/b\": must be a resource name (no '/')"}));
  EXPECT_EQ(errors(acme(R"([{"dns01": {"rfc2136": {"nameserver": "10.0.0.53"}, "webhook": {"groupName": "a.b", "solverName": "s"}}}])")),
            Strings{"spec.acme.solvers[0].dns01: Forbidden: may not specify more than one provider type"});
}

TEST(IssuerValidation, GatewayHttpRouteSolverIsRefusedByName) {
  EXPECT_EQ(errors(acme(R"([{"http01": {"gatewayHTTPRoute": {"parentRefs": [{"name": "edge"}]}}}])")),
            Strings{"spec.acme.solvers[0].http01.gatewayHTTPRoute: Forbidden: not supported: the manager answers HTTP-01 challenges "
                    "itself, through an ExternalName Service that Gateway API implementations do not route to; use 'ingress'"});
}

TEST(IssuerValidation, Dns01Rfc2136) {
  EXPECT_EQ(errors(acme(R"([{"dns01": {"rfc2136": {"nameserver": "10.0.0.53"}}},
                             {"dns01": {"cnameStrategy": "Follow", "rfc2136": {"nameserver": "[2001:db8::53]:5353",
                              "tsigKeyName": "capstan.", "tsigAlgorithm": "hmacsha256",
                              "tsigSecretSecretRef": {"name": "tsig", "key": "secret"}}}}])")),
            Strings{});
  EXPECT_EQ(errors(acme(R"([{"dns01": {}}])")), Strings{"spec.acme.solvers[0].dns01: Required value: no DNS01 provider specified"});
  EXPECT_EQ(errors(acme(R"([{"dns01": {"rfc2136": {}}}])")), Strings{"spec.acme.solvers[0].dns01.rfc2136.nameserver: Required value"});
  EXPECT_EQ(errors(acme(R"([{"dns01": {"rfc2136": {"nameserver": "10.0.0.53:99999"}}}])")),
            Strings{"spec.acme.solvers[0].dns01.rfc2136.nameserver: Invalid value: \"10.0.0.53:99999\": nameserver must be "
                    "host[:port]: \"10.0.0.53:99999\": port \"99999\" is not a number in 1-65535"});
  EXPECT_EQ(errors(acme(R"([{"dns01": {"rfc2136": {"nameserver": "10.0.0.53", "tsigAlgorithm": "HMACSHA384"}}}])")),
            Strings{"spec.acme.solvers[0].dns01.rfc2136.tsigAlgorithm: Unsupported value: \"HMACSHA384\": supported values: "
                    "\"HMACMD5\", \"HMACSHA1\", \"HMACSHA256\", \"HMACSHA512\""});
  EXPECT_EQ(errors(acme(R"([{"dns01": {"rfc2136": {"nameserver": "10.0.0.53", "tsigKeyName": "k"}}}])")),
            Strings{"spec.acme.solvers[0].dns01.rfc2136.tsigSecretSecretRef.name: Required value: secret name is required "
                    "when tsigKeyName is set"});
  EXPECT_EQ(errors(acme(R"([{"dns01": {"cnameStrategy": "Sometimes", "rfc2136": {"nameserver": "10.0.0.53"}}}])")),
            Strings{"spec.acme.solvers[0].dns01.cnameStrategy: Unsupported value: \"Sometimes\": supported values: \"None\", "
                    "\"Follow\""});
  EXPECT_EQ(errors(acme(R"([{"dns01": {"rfc2136": {"nameserver": "10.0.0.53"}, "cloudflare": {}}}])")),
            (Strings{"spec.acme.solvers[0].dns01.cloudflare: Forbidden: the cloudflare DNS01 provider is not supported; use "
                     "rfc2136 (any DNS server taking RFC 2136 updates) or webhook (cert-manager's webhook solvers)",
                     "spec.acme.solvers[0].dns01: Forbidden: may not specify more than one provider type"}));
}

TEST(IssuerValidation, Http01Ingress) {
  EXPECT_EQ(errors(acme(R"([{"http01": {"ingress": {"class": "nginx", "ingressClassName": "nginx"}}}])")),
            Strings{"spec.acme.solvers[0].http01.ingress: Forbidden: only one of 'ingressClassName', 'name' or 'class' "
                    "should be specified"});
  // class is free text; ingressClassName must be a resource name.
  EXPECT_EQ(errors(acme(R"([{"http01": {"ingress": {"class": "azure/application-gateway"}}}])")), Strings{});
  EXPECT_EQ(errors(acme(R"([{"http01": {"ingress": {"ingressClassName": "azure/application-gateway"}}}])")),
            Strings{"spec.acme.solvers[0].http01.ingress.ingressClassName: Invalid value: \"azure/application-gateway\": "
                    "must be a valid IngressClass name: a lowercase RFC 1123 subdomain must consist of lower case "
                    "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
                    "'example.com', regex used for validation is "
                    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"});
  EXPECT_EQ(errors(acme(R"([{"http01": {"ingress": {"serviceType": "LoadBalancer"}}}])")),
            Strings{"spec.acme.solvers[0].http01.ingress.serviceType: Invalid value: \"LoadBalancer\": must be empty, "
                    "\"ClusterIP\" or \"NodePort\""});
  EXPECT_EQ(errors(acme(R"([{"http01": {"ingress": {"ingressClassName": "nginx", "ingressTemplate": {"metadata": {"labels": {"a": "b"}}}}}}])")),
            Strings{});
}

// cert-manager fields this solver does not honour are refused by name, never accepted and ignored
// (ingress.name, edit in place, is honoured).
TEST(IssuerValidation, Http01FieldsTheSolverCannotHonourAreRefused) {
  EXPECT_EQ(errors(acme(R"([{"http01": {"ingress": {"serviceType": "NodePort"}}}])")),
            Strings{"spec.acme.solvers[0].http01.ingress.serviceType: Forbidden: not supported: the challenge Service is an "
                    "ExternalName Service for the manager, which answers HTTP-01 challenges itself; leave it empty"});
  // Edit in place is served; with a class it is ambiguous (cert-manager's rule).
  EXPECT_EQ(errors(acme(R"([{"http01": {"ingress": {"name": "web"}}}])")), Strings{});
  EXPECT_EQ(errors(acme(R"([{"http01": {"ingress": {"name": "web", "ingressClassName": "nginx"}}}])")),
            Strings{"spec.acme.solvers[0].http01.ingress: Forbidden: only one of 'ingressClassName', 'name' or 'class' should be specified"});
  EXPECT_EQ(errors(acme(R"([{"http01": {"ingress": {"class": "nginx", "podTemplate": {"spec": {"nodeSelector": {"a": "b"}}}}}}])")),
            Strings{"spec.acme.solvers[0].http01.ingress.podTemplate: Forbidden: not supported: the manager answers HTTP-01 "
                    "challenges itself, so there is no solver pod to apply a template to"});
}

TEST(IssuerValidation, CA) {
  EXPECT_EQ(errors(R"({"ca": {}})"), Strings{"spec.ca.secretName: Required value"});
  EXPECT_EQ(errors(R"({"ca": {"secretName": "root", "ocspServers": ["http://ocsp", ""], "issuingCertificateURLs": [""]}})"),
            (Strings{"spec.ca.ocspServers[1]: Invalid value: \"\": must be a valid URL, e.g., "
                     "http://ocsp.int-x3.letsencrypt.org",
                     "spec.ca.issuingCertificateURLs[0]: Invalid value: \"\": must be a valid URL"}));
}

}  // namespace
}  // namespace capstan::apis::certs::v1
