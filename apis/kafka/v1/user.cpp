// The fields of KafkaUser: Strimzi's (kafka.strimzi.io KafkaUser, the user operator's), the
// authentication and authorization types Capstan implements, with bounds.
#include "apis/kafka/v1/crds.h"
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/types.h"

namespace capstan::apis::kafka::v1 {
namespace {

using codec::field;
using openapi::Schema;

const auto& secret_key_ref_fields() {
  static const auto table = codec::table<SecretKeyRef>(
      "A key of a Secret in the user's namespace.",
      field("name", &SecretKeyRef::name, Schema::string("The Secret.").min_length(1).max_length(253)).required(),
      field("key", &SecretKeyRef::key, Schema::string("Its key.").pattern("^[-._a-zA-Z0-9]+$").max_length(253)).required());
  return table;
}

const auto& password_source_fields() {
  static const auto table = codec::table<PasswordSource>(
      "Where the password is.", field("secretKeyRef", &PasswordSource::secret_key_ref, SecretKeyRef::schema()).required());
  return table;
}

const auto& password_fields() {
  static const auto table = codec::table<KafkaUserPassword>(
      "The user's own password (scram-sha-512), instead of a generated one.",
      field("valueFrom", &KafkaUserPassword::value_from, PasswordSource::schema()).required());
  return table;
}

const auto& authentication_fields() {
  static const auto table = codec::table<KafkaUserAuthentication>(
      "How the user authenticates.",
      field("type", &KafkaUserAuthentication::type,
            Schema::string_enum({"tls", "scram-sha-512"},
                                "tls: a client certificate from the cluster's clients CA, in the Secret named after the user. "
                                "scram-sha-512: SASL SCRAM-SHA-512 with the password (generated, or the one given) in the Secret named "
                                "after the user (keys password and sasl.jaas.config)."))
          .required(),
      field("password", &KafkaUserAuthentication::password, KafkaUserPassword::schema()));
  return table;
}

const auto& resource_fields() {
  static const auto table = codec::table<AclRuleResource>(
      "What the rule is about.",
      field("type", &AclRuleResource::type,
            Schema::string_enum({"topic", "group", "cluster", "transactionalId"},
                                "The kind of resource: a topic, a consumer group, the cluster, or a transactional producer's "
                                "transactional.id (whose operations are Describe, Write and All)."))
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

constexpr std::int64_t kMaxQuota = 2'147'483'647;  // Strimzi's int32

const auto& quotas_fields() {
  static const auto table = codec::table<KafkaUserQuotas>(
      "The user's client quotas in Kafka (unset: the broker's defaults).",
      field("producerByteRate", &KafkaUserQuotas::producer_byte_rate,
            Schema::integer("Bytes per second the user may produce, per broker.", "int32").range(0, kMaxQuota)),
      field("consumerByteRate", &KafkaUserQuotas::consumer_byte_rate,
            Schema::integer("Bytes per second the user may fetch, per broker.", "int32").range(0, kMaxQuota)),
      field("requestPercentage", &KafkaUserQuotas::request_percentage,
            Schema::integer("Percent of one network and I/O thread the user's requests may use, per broker.", "int32").range(0, kMaxQuota)),
      field("controllerMutationRate", &KafkaUserQuotas::controller_mutation_rate,
            Schema::number("Partitions the user may create or delete per second.").minimum(0).maximum(1'000'000)));
  return table;
}

const auto& spec_fields() {
  static const auto table = codec::table<KafkaUserSpec>(
      "A user of the Kafka cluster named by the kafka.capstan.dev/cluster label, in the Kafka's namespace.",
      field("authentication", &KafkaUserSpec::authentication, KafkaUserAuthentication::schema()),
      field("authorization", &KafkaUserSpec::authorization, KafkaUserAuthorization::schema()),
      field("quotas", &KafkaUserSpec::quotas, KafkaUserQuotas::schema()));
  return table;
}

const auto& status_fields() {
  static const auto table = codec::table<KafkaUserStatus>(
      "The observed state of the user.",
      field("conditions", &KafkaUserStatus::conditions, openapi::conditions("Conditions: Ready.", "Ready", true)),
      field("observedGeneration", &KafkaUserStatus::observed_generation, openapi::observed_generation()),
      field("username", &KafkaUserStatus::username, Schema::string("The user's principal name (CN=<name> for tls, <name> for scram-sha-512).")),
      field("secret", &KafkaUserStatus::secret, Schema::string("The Secret of its credentials (certificate or password).")));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(SecretKeyRef, secret_key_ref_fields)
CAPSTAN_CODEC_FROM(PasswordSource, password_source_fields)
CAPSTAN_CODEC_FROM(KafkaUserPassword, password_fields)
CAPSTAN_CODEC_FROM(KafkaUserAuthentication, authentication_fields)
CAPSTAN_CODEC_FROM(AclRuleResource, resource_fields)
CAPSTAN_CODEC_FROM(AclRule, rule_fields)
CAPSTAN_CODEC_FROM(KafkaUserAuthorization, authorization_fields)
CAPSTAN_CODEC_FROM(KafkaUserQuotas, quotas_fields)
CAPSTAN_CODEC_FROM(KafkaUserSpec, spec_fields)
CAPSTAN_CODEC_FROM(KafkaUserStatus, status_fields)

json::Value user_schema() {
  return openapi::root(kApiVersion, "A Kafka user: its client certificate and ACLs, kept by the user operator.", KafkaUserSpec::schema(),
                       KafkaUserStatus::schema())
      .json();
}

}  // namespace capstan::apis::kafka::v1
