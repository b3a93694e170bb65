// Bundle: the CRD our API server accepts, the round trip of a trust-manager manifest, and every
// validation rule with its field path.
#include "apis/common/sample_test_util.h"
#include "apis/trust/v1alpha1/bundle.h"
#include "apis/trust/v1alpha1/crds.h"
#include "apis/trust/v1alpha1/validation.h"
#include "apiserver/builtin/crd_strategy.h"
#include "apiserver/schema/schema.h"
#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::apis::trust::v1alpha1 {
namespace {

using Strings = std::vector<std::string>;

json::Value Y(std::string_view text) { return json::from_yaml(text, "test manifest"); }

Strings errors(std::string_view spec_yaml) {
  json::Value obj = Y("apiVersion: trust.capstan.dev/v1alpha1\nkind: Bundle\nmetadata: {name: org}\n");
  obj.get_object()["spec"] = Y(spec_yaml);
  Strings out;
  for (const auto& c : validate_bundle(obj, nullptr)) out.push_back(c.error());
  return out;
}

TEST(BundleCrd, AcceptedByTheApiServerAndClusterScoped) {
  auto crd = bundle_crd();
  apiserver::builtin::CrdStrategy strategy;
  strategy.prepare_create(crd);
  Strings errs;
  for (const auto& c : strategy.validate(crd, nullptr)) errs.push_back(c.error());
  EXPECT_EQ(errs, Strings{});
  EXPECT_EQ(json::get_string(crd, {"spec", "scope"}), "Cluster");
  EXPECT_EQ(json::get_string(crd, {"metadata", "name"}), "bundles.trust.capstan.dev");
  auto parsed = apiserver::schema::parse(crd.at("spec").at("versions").at(0).at("schema").at("openAPIV3Schema"));
  EXPECT_TRUE(parsed.errors.empty());
}

TEST(BundleTypes, TrustManagerManifestRoundTrips) {
  auto obj = Y(R"(apiVersion: trust.capstan.dev/v1alpha1
kind: Bundle
metadata: {name: org}
spec:
  sources:
  - useDefaultCAs: true
  - configMap: {name: org-roots, key: roots.pem}
  - secret: {name: org-ca, includeAllKeys: true}
  - inLine: "-----BEGIN CERTIFICATE-----\n"
  target:
    configMap: {key: trust.pem, metadata: {labels: {team: web}}}
    secret: {key: ca.crt}
    additionalFormats: {jks: {key: trust.jks}, pkcs12: {key: trust.p12, password: pw, profile: Modern2023}}
    namespaceSelector: {matchLabels: {trust: enabled}}
)");
  auto b = Bundle::from_json(obj);
  ASSERT_EQ(b.spec.sources.size(), 4u);
  EXPECT_EQ(b.spec.sources[1].config_map->key, "roots.pem");
  EXPECT_TRUE(b.spec.sources[2].secret->include_all_keys);
  EXPECT_EQ(b.spec.target.additional_formats->pkcs12->profile, "Modern2023");
  EXPECT_EQ(json::serialize(b.spec.target.namespace_selector), R"({"matchLabels":{"trust":"enabled"}})");
  EXPECT_EQ(Bundle::from_json(b.to_json()).spec, b.spec);
  EXPECT_EQ(errors(json::to_yaml(obj.at("spec"))), Strings{});
}

TEST(BundleValidation, TheSampleIsValid) {
  auto docs = apis::testing::sample_documents("trust-bundle.yaml");
  ASSERT_EQ(docs.size(), 2u);
  ASSERT_EQ(json::get_string(docs[1], {"kind"}), "Bundle");
  Strings errs;
  for (const auto& c : validate_bundle(docs[1], nullptr)) errs.push_back(c.error());
  EXPECT_EQ(errs, Strings{});
  EXPECT_EQ(Bundle::from_json(docs[1]).spec.sources.size(), 2u);
}

TEST(BundleValidation, SourcesAreExactlyOneKindWithNameAndKey) {
  EXPECT_EQ(errors("{sources: [], target: {configMap: {key: a}}}"),
            Strings{"spec.sources: Required value: must define at least one source"});
  EXPECT_EQ(errors("{sources: [{inLine: x, useDefaultCAs: true}], target: {configMap: {key: a}}}"),
            Strings{"spec.sources[0]: Forbidden: must define exactly one of configMap, secret, inLine and useDefaultCAs"});
  EXPECT_EQ(errors("{sources: [{configMap: {name: Bad_Name}}], target: {configMap: {key: a}}}"),
            (Strings{"spec.sources[0].configMap.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of "
                     "lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character "
                     "(e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                     "spec.sources[0].configMap.key: Required value: source key must be defined unless includeAllKeys is true"}));
  EXPECT_EQ(errors("{sources: [{secret: {name: s, key: k, includeAllKeys: true}}], target: {configMap: {key: a}}}"),
            Strings{"spec.sources[0].secret.key: Invalid value: \"k\": key and includeAllKeys are mutually exclusive; set only one"});
  EXPECT_EQ(errors("{sources: [{configMap: {name: x, selector: {matchLabels: {a: b}}, key: k}}], target: {configMap: {key: a}}}"),
            Strings{R"(spec.sources[0].configMap.selector: Invalid value: {"matchLabels":{"a":"b"}}: name and selector are mutually exclusive; set only one)"});
  EXPECT_EQ(errors("{sources: [{configMap: {key: k}}], target: {configMap: {key: a}}}"),
            Strings{"spec.sources[0].configMap.name: Required value: source name or selector must be defined"});
  EXPECT_TRUE(errors("{sources: [{secret: {selector: {matchLabels: {a: b}}, includeAllKeys: true}}], target: {configMap: {key: a}}}").empty());
  auto bad = errors("{sources: [{secret: {selector: {matchExpressions: [{key: a, operator: Sometimes}]}, key: k}}], target: {configMap: {key: a}}}");
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0].rfind("spec.sources[0].secret.selector: Invalid value: ", 0), 0u) << bad[0];
  EXPECT_EQ(errors("{sources: [{useDefaultCAs: true}, {useDefaultCAs: true}], target: {configMap: {key: a}}}"),
            Strings{"spec.sources[1].useDefaultCAs: Forbidden: must request the default CAs at most once"});
}

TEST(BundleValidation, TargetsAndKeys) {
  EXPECT_EQ(errors("{sources: [{inLine: x}], target: {}}"),
            Strings{"spec.target: Required value: must define at least one of configMap and secret"});
  EXPECT_EQ(errors("{sources: [{inLine: x}], target: {configMap: {key: a}, secret: {key: a}}}"), Strings{});
  EXPECT_EQ(errors("{sources: [{inLine: x}], target: {configMap: {key: a}, additionalFormats: {jks: {key: a}, pkcs12: {key: b}}}}"),
            Strings{"spec.target.additionalFormats.jks.key: Duplicate value: \"a\""});
  EXPECT_EQ(errors("{sources: [{inLine: x}], target: {secret: {key: 'a b'}}}"),
            Strings{"spec.target.secret.key: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, "
                    "'-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is "
                    "'[-._a-zA-Z0-9]+')"});
  EXPECT_EQ(errors("{sources: [{inLine: x}], target: {configMap: {key: a}, additionalFormats: {pkcs12: {key: b, profile: RC4}}}}"),
            Strings{"spec.target.additionalFormats.pkcs12.profile: Unsupported value: \"RC4\": supported values: \"LegacyRC2\", "
                    "\"LegacyDES\", \"Modern2023\""});
  auto bad_selector = errors("{sources: [{inLine: x}], target: {configMap: {key: a}, namespaceSelector: "
                             "{matchExpressions: [{key: team, operator: Near}]}}}");
  ASSERT_EQ(bad_selector.size(), 1u);
  EXPECT_EQ(bad_selector[0].rfind("spec.target.namespaceSelector: Invalid value: ", 0), 0u) << bad_selector[0];
}

}  // namespace
}  // namespace capstan::apis::trust::v1alpha1
