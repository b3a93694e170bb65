// CertificateRequest validation: CSR parsing, usages against the CSR, approval conditions and
// immutability on update.
#include "apis/certs/v1/validation.h"

#include "apis/certs/v1/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apis::certs::v1 {
namespace {

using testing::b64;
using testing::errors_of;
using testing::J;
using testing::make_csr;
using Strings = std::vector<std::string>;

json::Value request(std::string_view pem, std::string_view extra_spec = "{}") {
  json::Value cr = J(R"({"apiVersion": "certs.capstan.dev/v1", "kind": "CertificateRequest",
                         "metadata": {"name": "web-1", "namespace": "shop"},
                         "spec": {"issuerRef": {"name": "ca"}}})");
  auto& spec = cr.get_object()["spec"].get_object();
  if (!pem.empty()) spec["request"] = b64(pem);
  const json::Value extra = J(extra_spec);
  for (const auto& kv : extra.get_object()) spec[kv.key()] = kv.value();
  return cr;
}

Strings create_errors(const json::Value& cr) { return errors_of(validate_certificate_request(cr, nullptr)); }

void set_conditions(json::Value& cr, std::string_view conditions_json) {
  cr.get_object()["status"] = json::Object{{"conditions", J(conditions_json)}};
}

TEST(CertificateRequestValidation, ValidRequest) {
  EXPECT_EQ(create_errors(request(make_csr("web.example.com"))), Strings{});
  EXPECT_EQ(create_errors(request(make_csr("web.example.com"),
                                  R"({"duration": "1h", "usages": ["digital signature", "key encipherment"]})")),
            Strings{});
}

TEST(CertificateRequestValidation, RequestRequiredAndParsable) {
  EXPECT_EQ(create_errors(request("")), Strings{"spec.request: Required value: must be specified"});
  EXPECT_EQ(create_errors(request("hello, I am not a CSR")),
            Strings{"spec.request: Invalid value: []byte{...}: failed to decode csr: error decoding certificate request "
                    "PEM block"});
  auto errs = create_errors(request("-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n"));
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_TRUE(errs[0].starts_with("spec.request: Invalid value: []byte{...}: failed to decode csr: parsing certificate "
                                  "request PEM: "))
      << errs[0];

  json::Value bad_base64 = request("");
  bad_base64.get_object()["spec"].get_object()["request"] = "%%%";
  EXPECT_EQ(create_errors(bad_base64),
            Strings{"spec.request: Invalid value: []byte{...}: failed to decode csr: illegal base64 data"});
}

TEST(CertificateRequestValidation, IssuerRefUsagesAndDuration) {
  json::Value cr = request(make_csr("a.example.com"), R"({"issuerRef": {"kind": "Vault"}, "usages": ["nope"],
                                                          "duration": "1y"})");
  EXPECT_EQ(create_errors(cr),
            (Strings{"spec.issuerRef.name: Required value: must be specified",
                     "spec.issuerRef.kind: Invalid value: \"Vault\": must be one of Issuer or ClusterIssuer (did you forget "
                     "to set spec.issuerRef.group?)",
                     "spec.usages[0]: Invalid value: \"nope\": unknown keyusage",
                     "spec.duration: Invalid value: \"1y\": time: unknown unit \"y\" in duration \"1y\""}));
}

TEST(CertificateRequestValidation, UsagesMustMatchTheCsr) {
  std::string server = make_csr("a.example.com", {"digital signature", "key encipherment", "server auth"});
  EXPECT_EQ(create_errors(request(server, R"({"usages": ["server auth", "key encipherment", "signing"]})")), Strings{});
  EXPECT_EQ(create_errors(request(server, R"({"usages": ["digital signature", "key encipherment", "client auth"]})")),
            Strings{"spec.request: Invalid value: []byte{...}: csr key usages do not match specified usages, these should "
                    "match if both are set: csr has [\"digital signature\", \"key encipherment\", \"server auth\"], spec "
                    "has [\"digital signature\", \"key encipherment\", \"client auth\"]"});
  // The default pair on the spec side, or a CSR with the default usages, is accepted.
  EXPECT_EQ(create_errors(request(server, R"({"usages": ["digital signature", "key encipherment"]})")), Strings{});
  EXPECT_EQ(create_errors(request(make_csr("a.example.com"), R"({"usages": ["client auth"]})")), Strings{});
  // A CA request implies cert sign on the spec side.
  std::string ca = make_csr("ca.example.com", {"digital signature"}, true);
  EXPECT_EQ(create_errors(request(ca, R"({"isCA": true, "usages": ["digital signature"]})")), Strings{});
}

TEST(CertificateRequestValidation, ApprovalConditions) {
  json::Value cr = request(make_csr("a.example.com"));
  set_conditions(cr, R"([{"type": "Approved", "status": "True", "reason": "certs.capstan.dev"}])");
  EXPECT_EQ(create_errors(cr), Strings{});
  set_conditions(cr, R"([{"type": "Denied", "status": "False"}])");
  EXPECT_EQ(create_errors(cr),
            Strings{"status.conditions.Denied: Invalid value: \"False\": \"Denied\" condition may only be set to True"});
  set_conditions(cr, R"([{"type": "Approved", "status": "True"}, {"type": "Denied", "status": "True"}])");
  EXPECT_EQ(create_errors(cr),
            Strings{"status.conditions: Forbidden: both 'Denied' and 'Approved' conditions cannot coexist"});
  set_conditions(cr, R"([{"type": "Approved", "status": "True"}, {"type": "Approved", "status": "True"}])");
  EXPECT_EQ(create_errors(cr), Strings{"status.conditions: Forbidden: multiple \"Approved\" conditions present"});
}

TEST(CertificateRequestValidation, UpdateSpecIsImmutable) {
  json::Value old = request(make_csr("a.example.com"), R"({"username": "alice"})");
  json::Value same = old;
  set_conditions(same, R"([{"type": "Ready", "status": "False", "reason": "Pending"}])");
  EXPECT_EQ(errors_of(validate_certificate_request(same, &old)), Strings{});

  json::Value changed = old;
  changed.get_object()["spec"].get_object()["username"] = "mallory";
  EXPECT_EQ(errors_of(validate_certificate_request(changed, &old)),
            Strings{"spec: Forbidden: cannot change spec after creation"});
  // The spec is not re-validated on update (it cannot have changed).
  json::Value broken = request("", R"({"issuerRef": {}})");
  EXPECT_EQ(errors_of(validate_certificate_request(broken, &broken)), Strings{});
}

TEST(CertificateRequestValidation, UpdateApprovalIsFinal) {
  json::Value old = request(make_csr("a.example.com"));
  set_conditions(old, R"([{"type": "Approved", "status": "True", "reason": "certs.capstan.dev",
                           "lastTransitionTime": "2026-01-01T00:00:00Z"}])");
  json::Value ready = old;
  set_conditions(ready, R"([{"type": "Approved", "status": "True", "reason": "certs.capstan.dev",
                             "lastTransitionTime": "2026-01-01T00:00:00Z"},
                            {"type": "Ready", "status": "True", "reason": "Issued"}])");
  EXPECT_EQ(errors_of(validate_certificate_request(ready, &old)), Strings{});

  json::Value flipped = old;
  set_conditions(flipped, R"([{"type": "Denied", "status": "True", "reason": "policy"}])");
  EXPECT_EQ(errors_of(validate_certificate_request(flipped, &old)),
            Strings{"status.conditions: Forbidden: 'Approved' condition may not be modified once set"});

  json::Value both = old;
  set_conditions(both, R"([{"type": "Approved", "status": "True", "reason": "certs.capstan.dev",
                            "lastTransitionTime": "2026-01-01T00:00:00Z"}, {"type": "Denied", "status": "True"}])");
  EXPECT_EQ(errors_of(validate_certificate_request(both, &old)),
            Strings{"status.conditions: Forbidden: both 'Denied' and 'Approved' conditions cannot coexist"});
}

TEST(CertificateRequestValidation, UpdateReservedAnnotationsAreImmutable) {
  json::Value old = request(make_csr("a.example.com"));
  old.get_object()["metadata"].get_object()["annotations"] =
      json::Object{{"certs.capstan.dev/certificate-revision", "1"}, {"note", "a"}};
  json::Value edited = old;
  auto& ann = edited.get_object()["metadata"].get_object()["annotations"].get_object();
  ann["note"] = "b";  // free
  EXPECT_EQ(errors_of(validate_certificate_request(edited, &old)), Strings{});
  ann["certs.capstan.dev/certificate-revision"] = "2";
  ann["acme.certs.capstan.dev/order"] = "x";
  EXPECT_EQ(errors_of(validate_certificate_request(edited, &old)),
            (Strings{"metadata.annotations.certs.capstan.dev/certificate-revision: Forbidden: cannot change "
                     "certs.capstan.dev annotation after creation",
                     "metadata.annotations.acme.certs.capstan.dev/order: Forbidden: cannot change certs.capstan.dev "
                     "annotation after creation"}));
}

}  // namespace
}  // namespace capstan::apis::certs::v1
