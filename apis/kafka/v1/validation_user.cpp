// KafkaUser validation: the cluster label (required, immutable), a name Kafka's principal and a
// Secret can carry, and ACL rules whose resource the rule's type allows, and a transactional id
// only the operations Kafka checks on one (Strimzi's user operator refuses the same).
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/types.h"
#include "apis/kafka/v1/validation.h"
#include "runtime/meta/object.h"

#include <algorithm>

namespace capstan::apis::kafka::v1 {
namespace {

using validation::FieldPath;
using Causes = std::vector<validation::Cause>;

constexpr std::size_t kMaxUserNameLength = 64;  // the Certificate's commonName
// The operations Kafka's authorizer checks on a transactional id (Strimzi allows these alone).
const std::vector<std::string> kTransactionalIdOperations{"Describe", "Write", "All"};

// A transactionalId rule's operations beyond those of a transactional id.
void check_transactional_id_operations(const json::Value& rule, const FieldPath& rule_path, Causes& out) {
  const json::Value* operations = json::find(rule, {"operations"});
  if (!operations || !operations->is_array()) return;
  const auto& list = operations->get_array();
  for (std::size_t j = 0; j < list.size(); ++j) {
    const bool allowed = list[j].is_string() && std::find(kTransactionalIdOperations.begin(), kTransactionalIdOperations.end(),
                                                          std::string_view(list[j].get_string())) != kTransactionalIdOperations.end();
    if (!allowed) out.push_back(validation::field_not_supported(rule_path.child("operations").index(j), list[j], kTransactionalIdOperations));
  }
}

}  // namespace

std::vector<validation::Cause> validate_kafka_user(const json::Value& obj, const json::Value* old) {
  Causes out;
  const FieldPath cluster_label = FieldPath("metadata").child("labels").key(kClusterLabel);
  if (meta::label(obj, kClusterLabel).empty())
    out.push_back(validation::field_required(cluster_label, "the name of the Kafka cluster the user belongs to"));
  const std::string_view name = meta::name_of(obj);
  if (name.size() > kMaxUserNameLength)
    out.push_back(validation::field_too_long(FieldPath("metadata").child("name"), static_cast<std::int64_t>(kMaxUserNameLength)));
  if (const json::Value* acls = json::find(obj, {"spec", "authorization", "acls"}); acls && acls->is_array()) {
    const FieldPath path = FieldPath("spec").child("authorization").child("acls");
    const auto& rules = acls->get_array();
    for (std::size_t i = 0; i < rules.size(); ++i) {
      const FieldPath r = path.index(i).child("resource");
      const std::string_view type = json::get_string(rules[i], {"resource", "type"});
      const std::string_view resource = json::get_string(rules[i], {"resource", "name"});
      if (type == "cluster" && !resource.empty())
        out.push_back(validation::field_forbidden(r.child("name"), "the cluster resource has no name"));
      if (type != "cluster" && resource.empty()) out.push_back(validation::field_required(r.child("name"), "the " + std::string(type) + "'s name"));
      if (type == "cluster" && json::get_string(rules[i], {"resource", "patternType"}) == "prefix")
        out.push_back(validation::field_forbidden(r.child("patternType"), "the cluster resource has no prefix"));
      if (type == "transactionalId") check_transactional_id_operations(rules[i], path.index(i), out);
    }
  }
  if (json::find(obj, {"spec", "authentication", "password"}) && json::get_string(obj, {"spec", "authentication", "type"}) != "scram-sha-512")
    out.push_back(validation::field_forbidden(FieldPath("spec").child("authentication").child("password"),
                                              "a password is for scram-sha-512 authentication only"));
  if (const auto ref = json::get_string(obj, {"spec", "authentication", "password", "valueFrom", "secretKeyRef", "name"}); ref == name)
    out.push_back(validation::field_invalid(FieldPath("spec").child("authentication").child("password").child("valueFrom").child("secretKeyRef").child("name"),
                                            json::Value(std::string(ref)),
                                            "the Secret named after the user is the one the operator writes; keep the password in another"));
  if (old && meta::label(*old, kClusterLabel) != meta::label(obj, kClusterLabel))
    out.push_back(validation::field_invalid(cluster_label, json::Value(std::string(meta::label(obj, kClusterLabel))),
                                            "field is immutable: a user cannot move to another cluster"));
  return out;
}

}  // namespace capstan::apis::kafka::v1
