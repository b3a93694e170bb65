#include "apiserver/builtin/service_validation.h"
#include "apiserver/builtin/test_util.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::builtin {
namespace {

using testing::create_errors;
using testing::Errors;
using testing::update_errors;

std::string svc(const std::string& spec) { return "metadata: {name: web}\nspec: " + spec + "\n"; }

TEST(ServiceValidation, PortNumbersAndTargetPorts) {
  // A zero targetPort defaults to the port, so port 0 is reported twice, as upstream does.
  EXPECT_EQ(create_errors("services", svc("{ports: [{port: 0}]}")),
            (Errors{"spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
                    "spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive"}));
  EXPECT_EQ(create_errors("services", svc("{ports: [{port: 80, targetPort: 70000}]}")),
            Errors{"spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive"});
  EXPECT_EQ(create_errors("services", svc("{ports: [{port: 80, targetPort: web_port}]}")),
            Errors{"spec.ports[0].targetPort: Invalid value: \"web_port\": must contain only alpha-numeric characters (a-z, "
                   "0-9), and hyphens (-)"});
  EXPECT_EQ(create_errors("services", svc("{ports: [{port: 80, targetPort: http}]}")), Errors{});
}

TEST(ServiceValidation, SeveralPortsNeedUniqueNames) {
  EXPECT_EQ(create_errors("services", svc("{ports: [{port: 80}, {port: 443, name: https}]}")),
            Errors{"spec.ports[0].name: Required value"});
  EXPECT_EQ(create_errors("services", svc("{ports: [{port: 80, name: web}, {port: 81, name: web}]}")),
            Errors{"spec.ports[1].name: Duplicate value: \"web\""});
  EXPECT_EQ(create_errors("services", svc("{ports: [{port: 80, name: a}, {port: 80, name: b}]}")),
            Errors{"spec.ports[1]: Duplicate value: {\"Name\":\"\",\"Protocol\":\"TCP\",\"AppProtocol\":null,\"Port\":80,\"TargetPort\":0,"
                   "\"NodePort\":0}"});
  EXPECT_EQ(create_errors("services", svc("{ports: [{port: 80, name: a}, {port: 80, name: b, protocol: UDP}]}")), Errors{});
}

TEST(ServiceValidation, PortsAreRequiredUnlessHeadlessOrExternalName) {
  EXPECT_EQ(create_errors("services", svc("{selector: {app: web}}")), Errors{"spec.ports: Required value"});
  EXPECT_EQ(create_errors("services", svc("{clusterIP: None}")), Errors{});
  EXPECT_EQ(create_errors("services", svc("{type: ExternalName, externalName: db.example.com.}")), Errors{});
  EXPECT_EQ(create_errors("services", svc("{type: ExternalName}")), Errors{"spec.externalName: Required value"});
}

TEST(ServiceValidation, TypeAndAffinityAreEnumerations) {
  EXPECT_EQ(create_errors("services", svc("{type: Public, sessionAffinity: Sticky, ports: [{port: 80}]}")),
            (Errors{"spec.sessionAffinity: Unsupported value: \"Sticky\": supported values: \"ClientIP\", \"None\"",
                    "spec.type: Unsupported value: \"Public\": supported values: \"ClusterIP\", \"ExternalName\", "
                    "\"LoadBalancer\", \"NodePort\""}));
  EXPECT_EQ(create_errors("services", svc("{ports: [{port: 80, nodePort: 30080}]}")),
            Errors{"spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"});
}

TEST(ServiceValidation, ClusterIPStaysAndTheSpecIsRevalidatedOnUpdate) {
  EXPECT_EQ(update_errors("services", svc("{clusterIP: 10.96.0.10, ports: [{port: 80}]}"),
                          svc("{clusterIP: 10.96.0.11, ports: [{port: 0}]}")),
            (Errors{"spec.clusterIPs[0]: Invalid value: \"10.96.0.11\": may not change once set",
                    "spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
                    "spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive"}));
}

}  // namespace
}  // namespace capstan::apiserver::builtin
