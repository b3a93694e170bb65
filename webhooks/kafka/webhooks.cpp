#include "webhooks/kafka/webhooks.h"

#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/validation.h"
#include "apis/kafka/v1beta2/conversion.h"
#include "apis/kafka/v1beta2/group.h"
#include "runtime/webhook/conversion.h"
#include "runtime/webhook/admission.h"
#include "runtime/webhook/paths.h"
#include "runtime/webhook/server.h"

namespace capstan::webhooks::kafka {
namespace {

namespace v1 = apis::kafka::v1;
using Causes = std::vector<validation::Cause>;

// A resource's hook, which also judges its status updates (the cluster ID rule).
webhook::Hook hook(const meta::ResourceType& type) {
  webhook::Hook h = webhook::kind_hook(type);
  h.resources.push_back(type.gvr.resource + "/status");
  return h;
}

// The object (with oldObject on UPDATE) through `validate`; status updates only through the
// cluster ID rule.
webhook::Handler handler(Causes (*validate)(const json::Value&, const json::Value*), std::vector<std::string> (*warn)(const json::Value&)) {
  return webhook::make_admission_handler([validate, warn](const webhook::AdmissionRequest& req) {
    if (req.operation != "CREATE" && req.operation != "UPDATE") return webhook::allowed();
    const json::Value* old = req.operation == "UPDATE" && !req.old_object.is_null() ? &req.old_object : nullptr;
    if (req.sub_resource == "status") {
      if (old) webhook::deny_if_any(v1::validate_status_update(req.object, *old));
      return webhook::allowed();
    }
    webhook::deny_if_any(validate(req.object, old));
    auto r = webhook::allowed();
    if (warn) r.warnings = warn(req.object);
    return r;
  });
}

}  // namespace

const std::vector<webhook::Hook>& hooks() {
  static const std::vector<webhook::Hook> all = {hook(v1::kKafkaType), hook(v1::kKafkaNodePoolType), hook(v1::kKafkaTopicType),
                                                  hook(v1::kKafkaUserType)};
  return all;
}

webhook::Handler kafka_validating_handler() { return handler(&v1::validate_kafka, nullptr); }
webhook::Handler node_pool_validating_handler() { return handler(&v1::validate_kafka_node_pool, &v1::kafka_node_pool_warnings); }
webhook::Handler topic_validating_handler() { return handler(&v1::validate_kafka_topic, nullptr); }
webhook::Handler user_validating_handler() { return handler(&v1::validate_kafka_user, nullptr); }

std::string conversion_path() { return webhook::convert_path(v1::kGroup); }

webhook::Handler conversion_handler() {
  auto hub = std::make_shared<webhook::HubAndSpoke>(std::string(v1::kGroup), std::string(v1::kVersion));
  hub->add_spoke(std::string(v1::kKafkaKind), std::string(apis::kafka::v1beta2::kVersion), apis::kafka::v1beta2::kafka_to_v1,
                 apis::kafka::v1beta2::kafka_from_v1);
  hub->add_spoke(std::string(v1::kKafkaUserKind), std::string(apis::kafka::v1beta2::kVersion), apis::kafka::v1beta2::user_to_v1,
                 apis::kafka::v1beta2::user_from_v1);
  return webhook::make_conversion_handler(std::move(hub));
}

void register_webhooks(webhook::Server& server) {
  server.register_path(hooks()[0].path, kafka_validating_handler());
  server.register_path(hooks()[1].path, node_pool_validating_handler());
  server.register_path(hooks()[2].path, topic_validating_handler());
  server.register_path(hooks()[3].path, user_validating_handler());
  server.register_path(conversion_path(), conversion_handler());
}

std::vector<json::Value> configurations(const webhook::Endpoint& endpoint) {
  return webhook::configurations("capstan-kafka", "kafka", hooks(), endpoint);
}

}  // namespace capstan::webhooks::kafka
