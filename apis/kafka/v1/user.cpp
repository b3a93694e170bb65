// The fields of KafkaUser: Strimzi's (kafka.strimzi.io KafkaUser, the user operator's), the
// authentication and authorization types Capstan implements, with bounds.
#include "apis/kafka/v1/crds.h"
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/types.h"

namespace capstan::apis::kafka::v1 {
namespace {

using codec::field;
using openapi::Schema;

const auto& authentication_fields() {
  static const auto table = codec::table<KafkaUserAuthentication>(
      "How the user authenticates.",
      field("type", &KafkaUserAuthentication::type,
            Schema::string_enum({"tls"}, "tls: a client certificate from the cluster's clients CA, in the Secret named after the user."))
          .required());
  return table;
}

const auto& resource_fields() {
  static const auto table = codec::table<AclRuleResource>(
      "What the rule is about.",
      field("type", &AclRuleResource::type,
            Schema::string_enum({"topic", "group", "cluster"}, "The kind of resource (transactionalId: not yet)."))
          .required(),
      field("name", &AclRuleResource::name, Schema::string("Its name (or prefix); not for cluster.").max_length(249)),
      field("patternType", &AclRuleResource::pattern_type,
            Schema::string_enum({"literal", "prefix"}, "literal: the name; prefix: every name starting with it (default literal).")));
  return table;
}

const auto& rule_fields() {
  static const auto table = codec::table<AclRule>(
      "An ACL rule of the user.", field("resource", &AclRule::resource, AclRuleResource::schema()).required(),
      field("operations", &AclRule::operations,
            Schema::array(Schema::string_enum({"Read", "Write", "Create", "Delete", "Alter", "Describe", "ClusterAction", "AlterConfigs",
                                               "DescribeConfigs", "IdempotentWrite", "All"},
                                              "An operation."),
                          "The operations allowed (or denied).")
                .min_items(1)
                .max_items(11))
          .required(),
      field("type", &AclRule::type, Schema::string_enum({"allow", "deny"}, "allow or deny (default allow).")),
      field("host", &AclRule::host, Schema::string("The client host the rule is for (default *: any).").max_length(253)));
  return table;
}

const auto& authorization_fields() {
  static const auto table = codec::table<KafkaUserAuthorization>(
      "The user's rights: simple (ACLs).", field("type", &KafkaUserAuthorization::type, Schema::string_enum({"simple"}, "simple: ACLs.")).required(),
      field("acls", &KafkaUserAuthorization::acls, Schema::array(AclRule::schema(), "The ACL rules.").max_items(kMaxUserAcls)).required());
  return table;
}

const auto& spec_fields() {
  static const auto table = codec::table<KafkaUserSpec>(
      "A user of the Kafka cluster named by the kafka.capstan.dev/cluster label, in the Kafka's namespace.",
      field("authentication", &KafkaUserSpec::authentication, KafkaUserAuthentication::schema()),
      field("authorization", &KafkaUserSpec::authorization, KafkaUserAuthorization::schema()));
  return table;
}

const auto& status_fields() {
  static const auto table = codec::table<KafkaUserStatus>(
      "The observed state of the user.",
      field("conditions", &KafkaUserStatus::conditions, openapi::conditions("Conditions: Ready.", "Ready", true)),
      field("observedGeneration", &KafkaUserStatus::observed_generation, openapi::observed_generation()),
      field("username", &KafkaUserStatus::username, Schema::string("The user's principal name (CN=<name> for tls).")),
      field("secret", &KafkaUserStatus::secret, Schema::string("The Secret of its credentials.")));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(KafkaUserAuthentication, authentication_fields)
CAPSTAN_CODEC_FROM(AclRuleResource, resource_fields)
CAPSTAN_CODEC_FROM(AclRule, rule_fields)
CAPSTAN_CODEC_FROM(KafkaUserAuthorization, authorization_fields)
CAPSTAN_CODEC_FROM(KafkaUserSpec, spec_fields)
CAPSTAN_CODEC_FROM(KafkaUserStatus, status_fields)

json::Value user_schema() {
  return openapi::root(kApiVersion, "A Kafka user: its client certificate and ACLs, kept by the user operator.", KafkaUserSpec::schema(),
                       KafkaUserStatus::schema())
      .json();
}

}  // namespace capstan::apis::kafka::v1
