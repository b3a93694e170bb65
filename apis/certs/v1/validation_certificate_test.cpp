// Certificate validation: every rule with its exact text (cert-manager's webhook wording).
#include "apis/certs/v1/validation.h"

#include "apis/certs/v1/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apis::certs::v1 {
namespace {

using testing::errors_of;
using testing::J;
using testing::Y;
using Strings = std::vector<std::string>;

// Errors for a valid base Certificate spec with `patch` merged over it.
Strings errors(std::string_view patch) {
  json::Value cert = J(R"({"apiVersion": "certs.capstan.dev/v1", "kind": "Certificate",
                           "metadata": {"name": "web", "namespace": "shop"},
                           "spec": {"secretName": "web-tls", "dnsNames": ["web.example.com"], "issuerRef": {"name": "ca"}}})");
  json::Value p = J(patch);
  auto& spec = cert.get_object()["spec"].get_object();
  for (const auto& kv : p.get_object()) {
    if (kv.value().is_null()) spec.erase(kv.key());
    else spec[kv.key()] = kv.value();
  }
  return errors_of(validate_certificate(cert, nullptr));
}

TEST(CertificateValidation, ValidBaseAndCertManagerSample) {
  EXPECT_EQ(errors("{}"), Strings{});
  // cert-manager's documented example Certificate (docs/usage/certificate), apiVersion changed.
  json::Value sample = Y(R"(
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata:
  name: example-com
  namespace: sandbox
spec:
  secretName: example-com-tls
  secretTemplate:
    annotations:
      my-secret-annotation-1: "foo"
      my-secret-annotation-2: "bar"
    labels:
      my-secret-label: foo
  duration: 2160h # 90d
  renewBefore: 360h # 15d
  isCA: false
  privateKey:
    algorithm: RSA
    encoding: PKCS1
    size: 2048
    rotationPolicy: Always
  usages:
    - server auth
    - client auth
  subject:
    organizations:
      - jetstack
  commonName: example.com
  dnsNames:
    - example.com
    - www.example.com
  uris:
    - spiffe://cluster.local/ns/sandbox/sa/example
  emailAddresses:
    - john.doe@cert-manager.io
  ipAddresses:
    - 192.168.0.5
  issuerRef:
    name: ca-issuer
    kind: Issuer
    group: certs.capstan.dev
)");
  EXPECT_EQ(errors_of(validate_certificate(sample, &sample)), Strings{});
}

TEST(CertificateValidation, SecretName) {
  EXPECT_EQ(errors(R"({"secretName": null})"), Strings{"spec.secretName: Required value: must be specified"});
  EXPECT_EQ(errors(R"({"secretName": "Web_TLS"})"),
            Strings{"spec.secretName: Invalid value: \"Web_TLS\": a lowercase RFC 1123 subdomain must consist of lower "
                    "case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character "
                    "(e.g. 'example.com', regex used for validation is "
                    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"});
}

TEST(CertificateValidation, IssuerRef) {
  EXPECT_EQ(errors(R"({"issuerRef": {}})"), Strings{"spec.issuerRef.name: Required value: must be specified"});
  EXPECT_EQ(errors(R"({"issuerRef": null})"), Strings{"spec.issuerRef.name: Required value: must be specified"});
  EXPECT_EQ(errors(R"({"issuerRef": {"name": "ca", "kind": "AWSPCAClusterIssuer"}})"),
            Strings{"spec.issuerRef.kind: Invalid value: \"AWSPCAClusterIssuer\": must be one of Issuer or ClusterIssuer "
                    "(did you forget to set spec.issuerRef.group?)"});
  EXPECT_EQ(errors(R"({"issuerRef": {"name": "ca", "kind": "issuer", "group": "certs.capstan.dev"}})"),
            Strings{"spec.issuerRef.kind: Invalid value: \"issuer\": must be one of Issuer or ClusterIssuer"});
  // External issuers: any kind.
  EXPECT_EQ(errors(R"({"issuerRef": {"name": "ca", "kind": "AWSPCAClusterIssuer", "group": "awspca.cert-manager.io"}})"),
            Strings{});
  EXPECT_EQ(errors(R"({"issuerRef": {"name": "ca", "kind": "ClusterIssuer"}})"), Strings{});
}

TEST(CertificateValidation, IdentityAndCommonName) {
  EXPECT_EQ(errors(R"({"dnsNames": null})"),
            Strings{"spec: Invalid value: \"\": at least one of commonName (from the commonName field or from a "
                    "literalSubject), dnsNames, emailSANs, ipAddresses, otherNames, or uriSANs must be set"});
  EXPECT_EQ(errors(R"({"dnsNames": []})").size(), 1u);
  for (auto id : {R"({"dnsNames": null, "commonName": "x"})", R"({"dnsNames": null, "uris": ["spiffe://a/b"]})",
                  R"({"dnsNames": null, "ipAddresses": ["::1"]})", R"({"dnsNames": null, "emailAddresses": ["a@b.c"]})"})
    EXPECT_EQ(errors(id), Strings{}) << id;
  std::string cn(65, 'a');
  EXPECT_EQ(errors(R"({"commonName": ")" + cn + R"("})"), Strings{"spec.commonName: Too long: may not be more than 64 bytes"});
  EXPECT_EQ(errors(R"({"commonName": ")" + cn.substr(1) + R"("})"), Strings{});
}

TEST(CertificateValidation, IpAddresses) {
  EXPECT_EQ(errors(R"({"ipAddresses": ["10.0.0.1", "2001:db8::1", "::ffff:10.0.0.1"]})"), Strings{});
  EXPECT_EQ(errors(R"({"ipAddresses": ["10.0.0.300", "example.com", "fe80::1%eth0", "010.0.0.1"]})"),
            (Strings{"spec.ipAddresses[0]: Invalid value: \"10.0.0.300\": invalid IP address",
                     "spec.ipAddresses[1]: Invalid value: \"example.com\": invalid IP address",
                     "spec.ipAddresses[2]: Invalid value: \"fe80::1%eth0\": invalid IP address",
                     "spec.ipAddresses[3]: Invalid value: \"010.0.0.1\": invalid IP address"}));
}

TEST(CertificateValidation, EmailAddresses) {
  EXPECT_EQ(errors(R"({"emailAddresses": ["ops@example.com", "first.last+tag@sub.example.com", "x@[192.0.2.1]"]})"),
            Strings{});
  // net/mail unquotes a quoted local part, so the parsed address differs from the value.
  EXPECT_EQ(errors(R"({"emailAddresses": ["\"ops\"@example.com"]})"),
            Strings{"spec.emailAddresses[0]: Invalid value: \"\\\"ops\\\"@example.com\": invalid email address: make "
                    "sure the supplied value only contains the email address itself"});
  EXPECT_EQ(errors(R"({"emailAddresses": ["nobody", "John Doe", "Ops <ops@example.com>", "a@b.com c", "", "@example.com"]})"),
            (Strings{"spec.emailAddresses[0]: Invalid value: \"nobody\": invalid email address: mail: missing '@' or angle-addr",
                     "spec.emailAddresses[1]: Invalid value: \"John Doe\": invalid email address: mail: no angle-addr",
                     "spec.emailAddresses[2]: Invalid value: \"Ops <ops@example.com>\": invalid email address: make sure the "
                     "supplied value only contains the email address itself",
                     "spec.emailAddresses[3]: Invalid value: \"a@b.com c\": invalid email address: mail: expected single "
                     "address, got \"c\"",
                     "spec.emailAddresses[4]: Invalid value: \"\": invalid email address: mail: no address",
                     "spec.emailAddresses[5]: Invalid value: \"@example.com\": invalid email address: mail: missing word in "
                     "phrase: mail: invalid string"}));
}

TEST(CertificateValidation, PrivateKey) {
  for (auto ok : {R"({"privateKey": {}})", R"({"privateKey": {"size": 4096}})", R"({"privateKey": {"algorithm": "RSA", "size": 8192}})",
                  R"({"privateKey": {"algorithm": "ECDSA", "size": 384}})", R"({"privateKey": {"algorithm": "Ed25519", "size": 1}})",
                  R"({"privateKey": {"encoding": "PKCS8", "rotationPolicy": "Never"}})"})
    EXPECT_EQ(errors(ok), Strings{}) << ok;
  EXPECT_EQ(errors(R"({"privateKey": {"size": 1024}})"),
            Strings{"spec.privateKey.size: Invalid value: 1024: must be between 2048 and 8192 for rsa keyAlgorithm"});
  EXPECT_EQ(errors(R"({"privateKey": {"algorithm": "RSA", "size": 16384}})"),
            Strings{"spec.privateKey.size: Invalid value: 16384: must be between 2048 and 8192 for rsa keyAlgorithm"});
  EXPECT_EQ(errors(R"({"privateKey": {"algorithm": "ECDSA", "size": 2048}})"),
            Strings{"spec.privateKey.size: Unsupported value: 2048: supported values: \"256\", \"384\", \"521\""});
  EXPECT_EQ(errors(R"({"privateKey": {"algorithm": "DSA"}})"),
            Strings{"spec.privateKey.algorithm: Invalid value: \"DSA\": must be either empty or one of rsa, ecdsa or ed25519"});
  EXPECT_EQ(errors(R"({"privateKey": {"encoding": "DER", "rotationPolicy": "Sometimes"}})"),
            (Strings{"spec.privateKey.encoding: Unsupported value: \"DER\": supported values: \"PKCS1\", \"PKCS8\"",
                     "spec.privateKey.rotationPolicy: Unsupported value: \"Sometimes\": supported values: \"Never\", "
                     "\"Always\""}));
}

TEST(CertificateValidation, Durations) {
  EXPECT_EQ(errors(R"({"duration": "1h", "renewBefore": "5m"})"), Strings{});
  EXPECT_EQ(errors(R"({"duration": "30m"})"),
            Strings{"spec.duration: Invalid value: 30m0s: certificate duration must be greater than 1h0m0s"});
  EXPECT_EQ(errors(R"({"renewBefore": "1m"})"),
            Strings{"spec.renewBefore: Invalid value: 1m0s: certificate renewBefore must be greater than 5m0s"});
  EXPECT_EQ(errors(R"({"duration": "24h", "renewBefore": "24h"})"),
            Strings{"spec.renewBefore: Invalid value: 24h0m0s: certificate duration 24h0m0s must be greater than "
                    "renewBefore 24h0m0s"});
  // Without a duration, renewBefore is compared with the default 2160h.
  EXPECT_EQ(errors(R"({"renewBefore": "2200h"})"),
            Strings{"spec.renewBefore: Invalid value: 2200h0m0s: certificate duration 2160h0m0s must be greater than "
                    "renewBefore 2200h0m0s"});
  EXPECT_EQ(errors(R"({"duration": "30m", "renewBefore": "1m"})"),
            (Strings{"spec.duration: Invalid value: 30m0s: certificate duration must be greater than 1h0m0s",
                     "spec.renewBefore: Invalid value: 1m0s: certificate renewBefore must be greater than 5m0s"}));
  EXPECT_EQ(errors(R"({"duration": "90d"})"),
            Strings{"spec.duration: Invalid value: \"90d\": time: unknown unit \"d\" in duration \"90d\""});
  EXPECT_EQ(errors(R"({"renewBefore": "5"})"),
            Strings{"spec.renewBefore: Invalid value: \"5\": time: missing unit in duration \"5\""});
}

TEST(CertificateValidation, RenewBeforePercentage) {
  EXPECT_EQ(errors(R"({"renewBeforePercentage": 25})"), Strings{});
  EXPECT_EQ(errors(R"({"duration": "1h", "renewBeforePercentage": 10})"), Strings{});
  EXPECT_EQ(errors(R"({"renewBefore": "1h", "renewBeforePercentage": 25})"),
            (Strings{"spec.renewBefore: Invalid value: 1h0m0s: renewBefore and renewBeforePercentage are mutually "
                     "exclusive and cannot both be set",
                     "spec.renewBeforePercentage: Invalid value: 25: renewBefore and renewBeforePercentage are mutually "
                     "exclusive and cannot both be set"}));
  for (auto p : {"0", "-5"})
    EXPECT_EQ(errors(std::string(R"({"renewBeforePercentage": )") + p + "}"),
              Strings{std::string("spec.renewBeforePercentage: Invalid value: ") + p +
                      ": certificate renewBeforePercentage must result in a renewBefore greater than 5m0s"});
  for (auto p : {"100", "150"})
    EXPECT_EQ(errors(std::string(R"({"renewBeforePercentage": )") + p + "}"),
              Strings{std::string("spec.renewBeforePercentage: Invalid value: ") + p +
                      ": certificate renewBeforePercentage must result in a renewBefore less than duration"});
  // 5% of 1h is 3m: below the 5m minimum.
  EXPECT_EQ(errors(R"({"duration": "1h", "renewBeforePercentage": 5})"),
            Strings{"spec.renewBeforePercentage: Invalid value: 5: certificate renewBeforePercentage must result in a "
                    "renewBefore greater than 5m0s"});
  // Ten years at 50% does not overflow.
  EXPECT_EQ(errors(R"({"duration": "87600h", "renewBeforePercentage": 50})"), Strings{});
}

TEST(CertificateValidation, Usages) {
  EXPECT_EQ(errors(R"({"usages": ["signing", "digital signature", "s/mime", "netscape sgc", "cert sign"]})"), Strings{});
  EXPECT_EQ(errors(R"({"usages": ["server auth", "Server Auth", "tls"]})"),
            (Strings{"spec.usages[1]: Invalid value: \"Server Auth\": unknown keyusage",
                     "spec.usages[2]: Invalid value: \"tls\": unknown keyusage"}));
}

TEST(CertificateValidation, RevisionHistoryLimit) {
  EXPECT_EQ(errors(R"({"revisionHistoryLimit": 1})"), Strings{});
  EXPECT_EQ(errors(R"({"revisionHistoryLimit": 0})"),
            Strings{"spec.revisionHistoryLimit: Invalid value: 0: must not be less than 1"});
  EXPECT_EQ(errors(R"({"revisionHistoryLimit": -3})"),
            Strings{"spec.revisionHistoryLimit: Invalid value: -3: must not be less than 1"});
}

TEST(CertificateValidation, SecretTemplate) {
  EXPECT_EQ(errors(R"({"secretTemplate": {"labels": {"app.kubernetes.io/name": "web", "empty": ""},
                                          "annotations": {"certs.capstan.dev/allow-direct-injection": "true",
                                                          "cert-manager.io/foo": "x"}}})"),
            Strings{});
  EXPECT_EQ(errors(R"({"secretTemplate": {"annotations": {"certs.capstan.dev/issuer-name": "x"}}})"),
            Strings{"spec.secretTemplate.annotations: Invalid value: \"certs.capstan.dev/issuer-name\": "
                    "certs.capstan.dev/* annotations are not allowed"});
  EXPECT_EQ(errors(R"({"secretTemplate": {"annotations": {"bad key": "x"}}})"),
            Strings{"spec.secretTemplate.annotations: Invalid value: \"bad key\": name part must consist of alphanumeric "
                    "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  "
                    "or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"});
  // Annotation keys are case-insensitive in their prefix; label keys are not.
  EXPECT_EQ(errors(R"({"secretTemplate": {"annotations": {"Example.COM/Key": "x"}}})"), Strings{});
  EXPECT_EQ(errors(R"({"secretTemplate": {"labels": {"Example.com/key": "-bad-"}}})"),
            (Strings{"spec.secretTemplate.labels: Invalid value: \"Example.com/key\": prefix part a lowercase RFC 1123 "
                     "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end "
                     "with an alphanumeric character (e.g. 'example.com', regex used for validation is "
                     "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                     "spec.secretTemplate.labels: Invalid value: \"-bad-\": a valid label must be an empty string or "
                     "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                     "character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
                     "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"}));
  EXPECT_EQ(errors(R"({"secretTemplate": {"labels": {"a/b/c": "x"}}})"),
            Strings{"spec.secretTemplate.labels: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric "
                    "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  "
                    "or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') "
                    "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"});
  std::string big(256 * 1024, 'x');
  EXPECT_EQ(errors(R"({"secretTemplate": {"annotations": {"big": ")" + big + R"("}}})"),
            Strings{"spec.secretTemplate.annotations: Too long: may not be more than 262144 bytes"});
}

TEST(CertificateValidation, Keystores) {
  EXPECT_EQ(errors(R"({"keystores": {"jks": {"create": true, "alias": "App", "passwordSecretRef": {"name": "pw", "key": "password"}},
                                     "pkcs12": {"create": true, "password": "s3cret", "profile": "Modern2023"}}})"),
            Strings{});
  EXPECT_EQ(errors(R"({"keystores": {"pkcs12": {"create": true}}})"),
            Strings{"spec.keystores.pkcs12.passwordSecretRef: Required value: one of password or passwordSecretRef must be set "
                    "to a non-empty value"});
  EXPECT_EQ(errors(R"({"keystores": {"jks": {"create": true, "password": ""}}})"),
            Strings{"spec.keystores.jks.passwordSecretRef: Required value: one of password or passwordSecretRef must be set "
                    "to a non-empty value"});
  // The password itself never reaches the message.
  EXPECT_EQ(errors(R"({"keystores": {"jks": {"create": true, "password": "hunter2", "passwordSecretRef": {"name": "pw", "key": "k"}}}})"),
            Strings{"spec.keystores.jks.password: Invalid value: \"<redacted>\": password and passwordSecretRef are mutually "
                    "exclusive; set only one"});
  EXPECT_EQ(errors(R"({"keystores": {"jks": {"create": true, "passwordSecretRef": {"name": "Bad_Name"}}}})"),
            (Strings{"spec.keystores.jks.passwordSecretRef.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain "
                     "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
                     "alphanumeric character (e.g. 'example.com', regex used for validation is "
                     "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                     "spec.keystores.jks.passwordSecretRef.key: Required value: the key holding the password must be specified"}));
  EXPECT_EQ(errors(R"({"keystores": {"jks": {"create": true, "password": "x", "alias": "a\u0001b"}}})"),
            Strings{"spec.keystores.jks.alias: Invalid value: \"a\\x01b\": must be non-empty printable text"});
  EXPECT_EQ(errors(R"({"keystores": {"pkcs12": {"create": true, "password": "x", "profile": "Modern2026"}}})"),
            Strings{"spec.keystores.pkcs12.profile: Invalid value: \"Modern2026\": Modern2026 authenticates with PBMAC1, "
                    "which this build's OpenSSL 3.0 cannot write; use Modern2023"});
  EXPECT_EQ(errors(R"({"keystores": {"pkcs12": {"create": true, "password": "x", "profile": "RC4"}}})"),
            Strings{"spec.keystores.pkcs12.profile: Unsupported value: \"RC4\": supported values: \"LegacyRC2\", "
                    "\"LegacyDES\", \"Modern2023\""});
}

TEST(CertificateValidation, CausesCarryReasonAndField) {
  json::Value cert = J(R"({"spec": {"secretName": "x", "issuerRef": {"name": "ca"}, "commonName": "a",
                                    "duration": "10m"}})");
  auto causes = validate_certificate(cert);
  ASSERT_EQ(causes.size(), 1u);
  EXPECT_EQ(causes[0].reason, "FieldValueInvalid");
  EXPECT_EQ(causes[0].field, "spec.duration");
  EXPECT_EQ(causes[0].message, "Invalid value: 10m0s: certificate duration must be greater than 1h0m0s");

  // No spec at all: every required field is reported.
  EXPECT_EQ(errors_of(validate_certificate(J(R"({"metadata": {"name": "x"}})"))),
            (Strings{"spec.secretName: Required value: must be specified",
                     "spec.issuerRef.name: Required value: must be specified",
                     "spec: Invalid value: \"\": at least one of commonName (from the commonName field or from a "
                     "literalSubject), dnsNames, emailSANs, ipAddresses, otherNames, or uriSANs must be set"}));
}

TEST(CertificateValidation, LiteralSubject) {
  EXPECT_EQ(errors(R"({"literalSubject": "CN=app,O=Acme\\, Inc.,1.2.840.113549.1.9.1=a@b.c,C=DE"})"), Strings{});
  EXPECT_EQ(errors(R"({"literalSubject": "CN=app+UID=7,OU=x", "dnsNames": null})"), Strings{})
      << "the literal's CN counts as the identity";
  EXPECT_EQ(errors(R"({"literalSubject": "O=Acme", "dnsNames": null})"),
            Strings{"spec: Invalid value: \"\": at least one of commonName (from the commonName field or from a "
                    "literalSubject), dnsNames, emailSANs, ipAddresses, otherNames, or uriSANs must be set"});
  EXPECT_EQ(errors(R"({"literalSubject": "CN=app", "commonName": "app", "subject": {"organizations": ["Acme"]}})"),
            (Strings{"spec.commonName: Invalid value: \"app\": When providing a `LiteralSubject` no `commonName` may be provided.",
                     "spec.subject: Invalid value: {\"organizations\":[\"Acme\"]}: When providing a `LiteralSubject` no "
                     "`Subject` properties may be provided."}));
  EXPECT_EQ(errors(R"({"literalSubject": "CN=app", "subject": {}})"), Strings{}) << "an empty subject is no subject";
  EXPECT_EQ(errors(R"({"literalSubject": "CN=app,XX=1"})"),
            Strings{"spec.literalSubject: Invalid value: \"CN=app,XX=1\": at byte 7: unknown attribute type \"XX\": use CN, C, O, "
                    "OU, L, ST, STREET, POSTALCODE, SERIALNUMBER, DC, UID, or a dotted OID such as 1.2.840.113549.1.9.1"});
  EXPECT_EQ(errors(R"({"literalSubject": "CN=a\\q"})"),
            Strings{"spec.literalSubject: Invalid value: \"CN=a\\\\q\": at byte 4: invalid escape \"\\\\q\": escape only a "
                    "space, \", #, +, ',', ;, <, =, >, \\ or a byte as two hex digits"});
  auto c = errors(R"({"literalSubject": "CN=app,C=DEU"})");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].rfind("spec.literalSubject: Invalid value: \"CN=app,C=DEU\": encoding distinguished name: attribute C=\"DEU\" "
                       "cannot be encoded", 0), 0u) << c[0];
  std::string long_cn = "CN=" + std::string(65, 'a');
  // X.520's ub-common-name (64), which OpenSSL enforces, names the attribute.
  auto too_long = errors(R"({"literalSubject": ")" + long_cn + R"("})");
  ASSERT_EQ(too_long.size(), 1u);
  EXPECT_EQ(too_long[0].rfind("spec.literalSubject: Invalid value: \"" + long_cn + "\": encoding distinguished name: attribute CN=", 0), 0u);
  EXPECT_NE(too_long[0].find("cannot be encoded: asn1 encoding routines::string too long (maxsize=64)"), std::string::npos);
  std::string huge = "O=" + std::string(4095, 'a');
  EXPECT_EQ(errors(R"({"literalSubject": ")" + huge + R"("})"),
            Strings{"spec.literalSubject: Too long: may not be more than 4096 bytes"});
}

TEST(CertificateValidation, OtherNames) {
  EXPECT_EQ(errors(R"({"dnsNames": null, "otherNames": [{"oid": "1.3.6.1.4.1.311.20.2.3", "utf8Value": "u@corp"}]})"), Strings{})
      << "otherNames alone are an identity";
  EXPECT_EQ(errors(R"({"otherNames": [{"oid": "1.2.3", "utf8Value": "ok"}, {"oid": "1.2.x", "utf8Value": ""}, {}]})"),
            (Strings{"spec.otherNames[1].oid: Invalid value: \"1.2.x\": invalid oid syntax",
                     "spec.otherNames[1].utf8Value: Required value: must be set to a valid non-empty UTF8 string",
                     "spec.otherNames[2].oid: Required value: must be specified",
                     "spec.otherNames[2].oid: Invalid value: \"\": invalid oid syntax",
                     "spec.otherNames[2].utf8Value: Required value: must be set to a valid non-empty UTF8 string"}));
  std::string many = "[";
  for (int i = 0; i < 65; ++i) many += std::string(i ? "," : "") + R"({"oid": "1.2.3", "utf8Value": "v"})";
  EXPECT_EQ(errors(R"({"otherNames": )" + many + "]}"), Strings{"spec.otherNames: Too many: 65: must have at most 64 items"});
}

TEST(CertificateValidation, SignatureAlgorithmMustSuitTheKey) {
  EXPECT_EQ(errors(R"({"signatureAlgorithm": "SHA384WithRSA"})"), Strings{});
  EXPECT_EQ(errors(R"({"signatureAlgorithm": "ECDSAWithSHA512", "privateKey": {"algorithm": "ECDSA"}})"), Strings{});
  EXPECT_EQ(errors(R"({"signatureAlgorithm": "PureEd25519", "privateKey": {"algorithm": "Ed25519"}})"), Strings{});
  EXPECT_EQ(errors(R"({"signatureAlgorithm": "ECDSAWithSHA256"})"),
            Strings{"spec.signatureAlgorithm: Invalid value: \"ECDSAWithSHA256\": for key algorithm RSA the allowed signature "
                    "algorithms are [SHA256WithRSA SHA384WithRSA SHA512WithRSA]"});
  EXPECT_EQ(errors(R"({"signatureAlgorithm": "SHA256WithRSA", "privateKey": {"algorithm": "Ed25519"}})"),
            Strings{"spec.signatureAlgorithm: Invalid value: \"SHA256WithRSA\": for key algorithm Ed25519 the allowed signature "
                    "algorithms are [PureEd25519]"});
  EXPECT_EQ(errors(R"({"signatureAlgorithm": "MD5WithRSA", "privateKey": {"algorithm": "ECDSA"}})"),
            Strings{"spec.signatureAlgorithm: Invalid value: \"MD5WithRSA\": for key algorithm ECDSA the allowed signature "
                    "algorithms are [ECDSAWithSHA256 ECDSAWithSHA384 ECDSAWithSHA512]"});
}

TEST(CertificateValidation, NameConstraints) {
  EXPECT_EQ(errors(R"({"isCA": true, "nameConstraints": {"critical": true, "permitted": {"dnsDomains": ["example.com"],
                       "ipRanges": ["10.0.0.0/8", "2001:db8::/32"], "emailAddresses": ["example.com"], "uriDomains": [".example.com"]},
                       "excluded": {"ipRanges": ["192.168.0.0/16"]}}})"),
            Strings{});
  EXPECT_EQ(errors(R"({"nameConstraints": {"permitted": {"dnsDomains": ["example.com"]}}})"),
            Strings{"spec.nameConstraints: Invalid value: {\"permitted\":{\"dnsDomains\":[\"example.com\"]}}: isCa should be true "
                    "when nameConstraints is set"});
  EXPECT_EQ(errors(R"({"isCA": true, "nameConstraints": {"critical": true}})"),
            Strings{"spec.nameConstraints: Invalid value: {\"critical\":true}: either permitted or excluded must be set"});
  EXPECT_EQ(errors(R"({"isCA": true, "nameConstraints": {"permitted": {"ipRanges": ["10.0.0.0/8", "10.0.0.0", "10.0.0.0/33",
                       "::/129", "nope/8"], "dnsDomains": [""], "uriDomains": ["b\u00fccher.example"]}}})"),
            (Strings{"spec.nameConstraints.permitted.dnsDomains[0]: Required value: must not be empty",
                     "spec.nameConstraints.permitted.ipRanges[1]: Invalid value: \"10.0.0.0\": invalid CIDR address: 10.0.0.0",
                     "spec.nameConstraints.permitted.ipRanges[2]: Invalid value: \"10.0.0.0/33\": invalid CIDR address: 10.0.0.0/33",
                     "spec.nameConstraints.permitted.ipRanges[3]: Invalid value: \"::/129\": invalid CIDR address: ::/129",
                     "spec.nameConstraints.permitted.ipRanges[4]: Invalid value: \"nope/8\": invalid CIDR address: nope/8",
                     "spec.nameConstraints.permitted.uriDomains[0]: Invalid value: \"b\u00fccher.example\": must be printable ASCII "
                     "(an IA5String)"}));
  std::string many = "[";
  for (int i = 0; i < 65; ++i) many += std::string(i ? "," : "") + "\"d" + std::to_string(i) + ".example\"";
  EXPECT_EQ(errors(R"({"isCA": true, "nameConstraints": {"excluded": {"dnsDomains": )" + many + "]}}}"),
            Strings{"spec.nameConstraints.excluded.dnsDomains: Too many: 65: must have at most 64 items"});
}

}  // namespace
}  // namespace capstan::apis::certs::v1
