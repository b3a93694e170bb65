// The admission webhooks called by the API server: invalid objects are rejected with field
// paths, defaults are stored, requests carry their creator's identity and keep their spec.
#include "controllers/certificates/constants.h"
#include "controllers/certificates/tests/harness.h"
#include "runtime/meta/object.h"

#include <gtest/gtest.h>

namespace capstan::certificates {
namespace {

using namespace testing;

std::string create_error(Harness& h, std::string_view text) {
  try {
    h.client().create(json::parse(text, "object"));
  } catch (const client::ApiError& e) {
    return e.message();
  }
  return "";
}

TEST(WebhookAdmission, RejectsInvalidObjectsAndStoresDefaults) {
  HarnessOptions o;
  o.webhooks = true;
  Harness h(o);
  std::string err = create_error(h, R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate",
      "metadata":{"name":"bad","namespace":"shop"},
      "spec":{"secretName":"bad-tls","dnsNames":["a.example"],"duration":"10m","issuerRef":{"name":"x"}}})");
  EXPECT_EQ(err,
            "admission webhook \"vcertificate.certs.capstan.dev\" denied the request: spec.duration: Invalid value: 10m0s: "
            "certificate duration must be greater than 1h0m0s");
  err = create_error(h, R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"bad","namespace":"shop"},
      "spec":{"secretName":"bad-tls","issuerRef":{"name":"x"}}})");
  EXPECT_NE(err.find("denied the request: spec: Invalid value: \"\": at least one of commonName"), std::string::npos) << err;
  err = create_error(h, R"({"apiVersion":"certs.capstan.dev/v1","kind":"ClusterIssuer","metadata":{"name":"two"},
      "spec":{"selfSigned":{},"ca":{"secretName":"x"}}})");
  EXPECT_NE(err.find("vclusterissuer.certs.capstan.dev\" denied the request: spec.selfSigned: Forbidden: may not specify more than one issuer type"),
            std::string::npos)
      << err;
  err = create_error(h, R"({"apiVersion":"certs.capstan.dev/v1","kind":"Issuer","metadata":{"name":"none","namespace":"shop"},"spec":{}})");
  EXPECT_NE(err.find("spec: Required value: at least one issuer must be configured"), std::string::npos) << err;

  // Defaults are stored; a valid chain issues with the webhooks in the path.
  h.apply(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Issuer","metadata":{"name":"ss","namespace":"shop"},"spec":{"selfSigned":{}}})");
  h.client().create(json::parse(R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"ok","namespace":"shop"},
      "spec":{"secretName":"ok-tls","dnsNames":["ok.example"],"privateKey":{"algorithm":"ECDSA"},"issuerRef":{"name":"ss"}}})",
                                "object"));
  auto crt = h.get(kCertificateType.gvr, "shop", "ok");
  ASSERT_TRUE(crt);
  EXPECT_EQ(json::get_string(*crt, {"spec", "issuerRef", "kind"}), "Issuer");
  EXPECT_EQ(json::get_string(*crt, {"spec", "issuerRef", "group"}), "certs.capstan.dev");
  EXPECT_EQ(json::get_string(*crt, {"spec", "privateKey", "rotationPolicy"}), "Always");
  EXPECT_EQ(json::get_int(*crt, {"spec", "revisionHistoryLimit"}), 1);
  h.wait_ready("shop", "ok", 1);

  // The request made by the controller carries the manager's identity, and its spec is frozen.
  auto cr = h.get(kCertificateRequestType.gvr, "shop", "ok-1");
  ASSERT_TRUE(cr);
  EXPECT_FALSE(json::get_string(*cr, {"spec", "username"}).empty());
  json::Value patch = json::Object{{"spec", json::Object{{"isCA", true}}}};
  try {
    h.client().patch(kCertificateRequestType.gvr, "shop", "ok-1", client::PatchType::Merge, json::serialize(patch));
    ADD_FAILURE() << "the request's spec changed";
  } catch (const client::ApiError& e) {
    EXPECT_NE(e.message().find("spec: Forbidden: cannot change spec after creation"), std::string::npos) << e.message();
  }
  auto calls = integration::find_sample(h.registry(), "controller_runtime_webhook_requests_total",
                                        {"/mutate-certs-capstan-dev-v1-certificaterequest", "200"});
  ASSERT_TRUE(calls);
  EXPECT_GE(calls->value, 1);
}

}  // namespace
}  // namespace capstan::certificates
