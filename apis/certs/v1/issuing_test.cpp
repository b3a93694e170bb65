// The Issuing condition that asks for a Certificate to be issued again.
#include "apis/certs/v1/issuing.h"

#include "apis/certs/v1/group.h"
#include "apis/certs/v1/test_util.h"
#include "runtime/meta/object.h"

#include <gtest/gtest.h>

namespace capstan::apis::certs::v1 {
namespace {

using testing::J;

TEST(CertsIssuing, TheIssuingConditionReplacesAnEarlierOneAndKeepsTheRest) {
  json::Value crt = J(R"({"metadata":{"name":"web","generation":3},"status":{"conditions":[
    {"type":"Ready","status":"True","reason":"Ready"},
    {"type":"Issuing","status":"False","reason":"Failed","message":"the CA said no"}]}})");
  set_issuing(crt, "ManuallyTriggered", "again, please");
  const json::Array* conds = json::get_array(crt, {"status", "conditions"});
  ASSERT_NE(conds, nullptr);
  ASSERT_EQ(conds->size(), 2u);
  EXPECT_EQ(json::get_string((*conds)[0], {"type"}), "Ready");
  const json::Value& issuing = (*conds)[1];
  EXPECT_EQ(json::get_string(issuing, {"type"}), condition::kIssuing);
  EXPECT_EQ(json::get_string(issuing, {"status"}), "True");
  EXPECT_EQ(json::get_string(issuing, {"reason"}), "ManuallyTriggered");
  EXPECT_EQ(json::get_string(issuing, {"message"}), "again, please");
  EXPECT_EQ(json::get_int(issuing, {"observedGeneration"}), 3);
  EXPECT_FALSE(json::get_string(issuing, {"lastTransitionTime"}).empty());
  EXPECT_TRUE(meta::condition_true(crt, condition::kIssuing));
}

TEST(CertsIssuing, ACertificateWithoutStatusGetsOne) {
  json::Value crt = J(R"({"metadata":{"name":"web"}})");
  set_issuing(crt, "CaKeyReplaced", "new key");
  const json::Array* conds = json::get_array(crt, {"status", "conditions"});
  ASSERT_NE(conds, nullptr);
  ASSERT_EQ(conds->size(), 1u);
  EXPECT_EQ(json::find((*conds)[0], {"observedGeneration"}), nullptr);  // no generation: none written
}

}  // namespace
}  // namespace capstan::apis::certs::v1
