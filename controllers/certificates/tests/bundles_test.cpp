// The pure half of the Bundle controller: sources joined and deduplicated, bad sources named,
// and the targets' shape (ConfigMap text and binaryData, Secret data, labels, owner).
#include "apis/trust/v1alpha1/group.h"
#include "controllers/certificates/bundles/bundle_data.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/pki.h"

#include <gtest/gtest.h>

namespace capstan::certificates::bundles {
namespace {

std::string root(const std::string& cn) {
  auto key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  return pki::self_signed_ca(cn, std::chrono::hours(1), key).to_pem();
}

TEST(BundleData, SourcesJoinedOnceEachInOrder) {
  const std::string a = root("A"), b = root("B");
  auto got = assemble({{"s0", a + b}, {"s1", "# a comment\n" + b}, {"s2", a}});
  ASSERT_EQ(got.certificates.size(), 2u);
  EXPECT_EQ(got.pem, a + b);
}

TEST(BundleData, BadSourcesAreNamed) {
  try {
    assemble({{"spec.sources[0].inLine", root("A")}, {"spec.sources[1].configMap \"x\" key \"k\"", "not a certificate"}});
    FAIL() << "accepted";
  } catch (const BundleError& e) {
    EXPECT_EQ(e.reason, "SourceInvalid");
    EXPECT_EQ(std::string(e.what()).rfind("spec.sources[1].configMap \"x\" key \"k\": ", 0), 0u) << e.what();
  }
  std::string torn = root("A");
  torn.resize(torn.size() / 2);
  EXPECT_THROW(assemble({{"s0", torn}}), BundleError);
  EXPECT_THROW(assemble({{"s0", ""}}), BundleError);
}

TEST(BundleData, TargetsCarryTheBundleAndItsFormats) {
  auto obj = json::from_yaml(R"(apiVersion: trust.capstan.dev/v1alpha1
kind: Bundle
metadata: {name: org, uid: u-1}
spec:
  sources: [{inLine: x}]
  target:
    configMap: {key: trust.pem, metadata: {labels: {team: web}, annotations: {note: hi}}}
    secret: {key: ca.crt}
    additionalFormats: {jks: {key: trust.jks}, pkcs12: {key: trust.p12}}
)",
                             "bundle");
  auto b = tv1::Bundle::from_json(obj);
  TargetData data{"PEM", std::string("JKS"), std::string("P12")};
  auto cm = desired_target(b, obj, false, "team-a", data);
  EXPECT_EQ(json::get_string(cm, {"kind"}), "ConfigMap");
  EXPECT_EQ(json::get_string(cm, {"metadata", "namespace"}), "team-a");
  EXPECT_EQ(json::get_string(cm, {"metadata", "labels", "trust.capstan.dev/bundle"}), "org");
  EXPECT_EQ(json::get_string(cm, {"metadata", "labels", "team"}), "web");
  EXPECT_EQ(json::get_string(cm, {"metadata", "annotations", "note"}), "hi");
  EXPECT_EQ(json::get_string(cm.at("metadata").at("ownerReferences").at(0), {"uid"}), "u-1");
  EXPECT_EQ(json::get_string(cm, {"data", "trust.pem"}), "PEM");
  EXPECT_EQ(target_bytes(cm, false, "trust.jks"), "JKS");
  EXPECT_EQ(target_bytes(cm, false, "trust.p12"), "P12");
  auto secret = desired_target(b, obj, true, "team-a", data);
  EXPECT_EQ(json::get_string(secret, {"type"}), "Opaque");
  EXPECT_EQ(meta::base64_decode(json::get_string(secret, {"data", "ca.crt"})), "PEM");
  EXPECT_EQ(target_bytes(secret, true, "trust.p12"), "P12");
  EXPECT_EQ(json::get_object(secret, {"metadata", "labels"})->size(), 1u);  // the configMap's metadata is its own

  EXPECT_TRUE(target_up_to_date(cm, cm));
  json::Value edited = cm;
  edited.as_object()["data"].as_object()["trust.pem"] = "other";
  EXPECT_FALSE(target_up_to_date(edited, cm));
  json::Value unlabelled = cm;
  unlabelled.as_object()["metadata"].as_object()["labels"].as_object().erase("team");
  EXPECT_FALSE(target_up_to_date(unlabelled, cm));
}

}  // namespace
}  // namespace capstan::certificates::bundles
