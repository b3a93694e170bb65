#include "apiserver/builtin/object_meta.h"
#include "apiserver/builtin/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::builtin {
namespace {

using testing::create_errors;
using testing::Errors;
using testing::errors_of;
using testing::kNamePartMsg;
using testing::kSubdomainMsg;
using testing::update_errors;


TEST(ObjectMeta, AnnotationKeysAreQualifiedNamesIgnoringCase) {
  EXPECT_EQ(create_errors("configmaps", "metadata: {name: a, annotations: {\"bad key!\": x, Example.COM/Ok: y}}"),
            Errors{"metadata.annotations: Invalid value: \"bad key!\": " + kNamePartMsg});
}

TEST(ObjectMeta, AnnotationsTogetherAreLimitedTo256KiB) {
  json::Value obj = json::Object{{"metadata", json::Object{{"name", "big"}}}};
  // Key "k" (1 byte) + value: exactly at the limit is accepted, one byte more is not.
  json::ensure_object(obj, {"metadata", "annotations"})["k"] = std::string(kTotalAnnotationSizeLimit - 1, 'v');
  EXPECT_EQ(errors_of(validate_object_meta(obj, "subdomain", true)), Errors{});
  json::ensure_object(obj, {"metadata", "annotations"})["k"] = std::string(kTotalAnnotationSizeLimit, 'v');
  EXPECT_EQ(errors_of(validate_object_meta(obj, "subdomain", true)),
            Errors{"metadata.annotations: Too long: may not be more than 262144 bytes"});
}

TEST(ObjectMeta, GenerateNameIsValidatedAsANamePrefixBeforeTheName) {
  // The REST layer generates the name before validating; both are reported, generateName first.
  EXPECT_EQ(create_errors("configmaps", "metadata: {generateName: Bad_, name: Bad_x7k2q}"),
            (Errors{"metadata.generateName: Invalid value: \"Bad_\": " + kSubdomainMsg,
                    "metadata.name: Invalid value: \"Bad_x7k2q\": " + kSubdomainMsg}));
  EXPECT_EQ(create_errors("configmaps", "metadata: {generateName: web-, name: web-x7k2q}"), Errors{});
}

TEST(ObjectMeta, LabelsReportEveryProblemOfKeyAndValue) {
  EXPECT_EQ(create_errors("configmaps", "metadata: {name: a, labels: {\"a/b/c\": ok, k: \"-bad-\"}}"),
            (Errors{"metadata.labels: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', "
                    "'_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
                    "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS "
                    "subdomain prefix and '/' (e.g. 'example.com/MyName')",
                    "metadata.labels: Invalid value: \"-bad-\": a valid label must be an empty string or consist of "
                    "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
                    "'MyValue',  or 'my_value',  or '12345', regex used for validation is "
                    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"}));
}

TEST(ObjectMeta, NamesAreOnlyCheckedOnCreateButLabelsAlways) {
  EXPECT_EQ(update_errors("configmaps", "metadata: {name: a}", "metadata: {name: a, labels: {\"bad key!\": x}}"),
            Errors{"metadata.labels: Invalid value: \"bad key!\": " + kNamePartMsg});
}

TEST(ObjectMeta, NameRulesFollowTheKind) {
  EXPECT_EQ(create_errors("namespaces", "metadata: {name: a.b}"), Errors{"metadata.name: Invalid value: \"a.b\": must not contain dots"});
  EXPECT_EQ(create_errors("statefulsets.apps",
                          "metadata: {name: db.x}\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}}}"),
            Errors{"metadata.name: Invalid value: \"db.x\": must not contain dots"});
  auto svc = create_errors("services", "metadata: {name: 1web}\nspec: {ports: [{port: 80}]}");
  ASSERT_EQ(svc.size(), 1u);
  EXPECT_EQ(svc[0].rfind("metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of", 0), 0u) << svc[0];
}

}  // namespace
}  // namespace capstan::apiserver::builtin
