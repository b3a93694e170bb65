#include "controllers/kafka/topic_controller.h"

#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/types.h"
#include "apis/kafka/v1/validation.h"
#include "controllers/kafka/ready_status.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/controller/finalizer.h"
#include "runtime/controller/status.h"
#include "runtime/meta/object.h"

#include <optional>
#include <utility>

namespace capstan::kafka {
namespace {

namespace v1 = apis::kafka::v1;
using controller::set_condition;
using std::chrono::milliseconds;

constexpr milliseconds kRetry{10'000};

void write_finalizer(client::Client& c, const json::Value& obj, bool present) {
  controller::write_finalizer(c, v1::kKafkaTopicType.gvr, obj, v1::kTopicFinalizer, present);
}

std::string topic_name_of(const json::Value& obj) {
  std::string_view n = json::get_string(obj, {"spec", "topicName"});
  return std::string(n.empty() ? meta::name_of(obj) : n);
}

class TopicReconciler {
 public:
  TopicReconciler(TopicEnv& env, const controller::Request& r, controller::Context& ctx) : env_(env), req_(r), ctx_(ctx) {}

  controller::Result run() {
    auto cached = env_.topics.get(req_.ns, req_.name);
    if (!cached) return controller::Result::done();
    before_ = cached->value();
    cluster_ = std::string(meta::label(before_, v1::kClusterLabel));
    managed_ = meta::annotation(before_, v1::kManagedAnnotation) != "false";
    if (cached->deleting()) return finalize();
    try {
      topic_ = v1::KafkaTopic::from_json(before_);
    } catch (const apis::codec::DecodeError& e) {  // written around the CRD schema: said on this object only
      return write_not_ready(env_.client, v1::kKafkaTopicType, before_, v1::reason::kInvalidResourceTopic, e.what(), env_.options.full_reconciliation);
    }
    generation_ = meta::generation_of(before_);
    topic_.status.observed_generation = generation_;
    if (!managed_) {
      write_finalizer(env_.client, before_, false);
      return ready("Unmanaged", "the topic is not managed (" + std::string(v1::kManagedAnnotation) + ": \"false\")");
    }
    std::string errors;
    for (const auto& c : v1::validate_kafka_topic(before_)) errors += (errors.empty() ? "" : "; ") + c.error();
    if (!errors.empty()) return not_ready(v1::reason::kInvalidResourceTopic, errors, env_.options.full_reconciliation);
    name_ = topic_name_of(before_);
    if (!topic_.status.topic_name.empty() && topic_.status.topic_name != name_)
      return not_ready(v1::reason::kNotSupported, "Changing spec.topicName is not supported (the topic is " + topic_.status.topic_name + ")",
                       env_.options.full_reconciliation);
    if (auto owner = conflicting_owner(); !owner.empty())
      return not_ready(v1::reason::kResourceConflict, "Managed by Ref{namespace='" + req_.ns + "', name='" + owner + "'}",
                       env_.options.full_reconciliation);
    auto kafka = env_.kafkas.get(req_.ns, cluster_);
    if (!kafka || kafka->deleting())
      return not_ready(v1::reason::kKafkaError, "Kafka cluster " + req_.ns + "/" + cluster_ + " not found", env_.options.full_reconciliation);
    auto kafka_ready = meta::find_condition(kafka->value(), v1::condition::kReady);
    if (!kafka_ready || kafka_ready->status != "True")
      return not_ready(v1::reason::kKafkaError, "Kafka cluster " + req_.ns + "/" + cluster_ + " is not ready yet", kRetry);

    write_finalizer(env_.client, before_, true);  // before the topic exists, so that it never outlives its KafkaTopic
    std::string unsupported;
    try {
      unsupported = sync();
    } catch (const AdminError& e) {
      ctx_.log.warn("topic not reconciled", {{"topic", name_}, {"error", e.what()}});
      return not_ready(v1::reason::kKafkaError, e.what(), kRetry);
    }
    topic_.status.topic_name = name_;
    if (!unsupported.empty()) return not_ready(v1::reason::kNotSupported, unsupported, env_.options.full_reconciliation);
    return ready("", "");
  }

 private:
  std::shared_ptr<ClusterAdmin> admin() { return env_.admins->for_cluster(cluster_, req_.ns); }

  // Makes the topic what the spec says; returns what the spec asks that Kafka cannot do.
  std::string sync() {
    auto a = admin();
    const auto& spec = topic_.spec;
    const auto want = spec.configs();
    auto have = a->describe(name_);
    if (!have) {
      a->create(name_, spec.partitions.value_or(-1), spec.replicas.value_or(-1), want);
      ctx_.log.info("created topic", {{"topic", name_}});
      return {};
    }
    std::string unsupported;
    if (spec.partitions && *spec.partitions < have->partitions) {
      unsupported = "Decreasing partitions not supported (the topic has " + std::to_string(have->partitions) + ", spec.partitions is " +
                    std::to_string(*spec.partitions) + ")";
    } else if (spec.partitions && *spec.partitions > have->partitions) {
      a->create_partitions(name_, *spec.partitions);
      ctx_.log.info("added partitions", {{"topic", name_}, {"from", have->partitions}, {"to", *spec.partitions}});
    }
    if (spec.replicas && *spec.replicas != have->replicas)
      unsupported += (unsupported.empty() ? "" : "; ") + std::string("Changing spec.replicas is not supported (the topic has ") +
                     std::to_string(have->replicas) + " replicas per partition)";
    // Key by key, as Strimzi's topic operator: what differs is set, what the spec does not name goes.
    const auto current = a->overrides(name_);
    std::map<std::string, std::string> set;
    std::vector<std::string> remove;
    for (const auto& [k, v] : want)
      if (auto it = current.find(k); it == current.end() || it->second != v) set[k] = v;
    for (const auto& [k, v] : current)
      if (!want.contains(k)) remove.push_back(k);
    if (!set.empty() || !remove.empty()) {
      a->alter_overrides(name_, set, remove);
      ctx_.log.info("changed topic configuration", {{"topic", name_},
                                                    {"set", static_cast<std::int64_t>(set.size())},
                                                    {"removed", static_cast<std::int64_t>(remove.size())}});
    }
    return unsupported;
  }

  // A deleted KafkaTopic: its topic goes first (unless unmanaged, or its cluster is gone).
  controller::Result finalize() {
    if (!meta::has_finalizer(before_, v1::kTopicFinalizer)) return controller::Result::done();
    auto kafka = env_.kafkas.get(req_.ns, cluster_);
    const std::string name = topic_name_of(before_);
    if (managed_ && kafka && !kafka->deleting() && conflicting_owner().empty()) {
      try {
        admin()->remove(name);
        ctx_.log.info("deleted topic", {{"topic", name}});
      } catch (const AdminError& e) {
        ctx_.log.warn("topic not deleted", {{"topic", name}, {"error", e.what()}});
        return write_not_ready(env_.client, v1::kKafkaTopicType, before_, v1::reason::kKafkaError, e.what(), kRetry);
      }
    }
    write_finalizer(env_.client, before_, false);
    return controller::Result::done();
  }

  // The name of an older KafkaTopic of the same cluster and namespace for the same topic, or "".
  std::string conflicting_owner() const {
    using Age = std::pair<std::string, std::string>;  // (creationTimestamp, name): older first
    const std::string mine = topic_name_of(before_);
    const Age my_age{std::string(json::get_string(before_, {"metadata", "creationTimestamp"})), req_.name};
    std::optional<Age> oldest;
    for (const auto& o : env_.topics.list(req_.ns)) {
      if (o->name() == req_.name || o->label(v1::kClusterLabel) != cluster_ || o->deleting()) continue;
      json::Value v = o->value();
      if (topic_name_of(v) != mine) continue;
      // RFC 3339 times in UTC order as text; the name decides within one second.
      Age age{std::string(json::get_string(v, {"metadata", "creationTimestamp"})), std::string(o->name())};
      if (age < my_age && (!oldest || age < *oldest)) oldest = std::move(age);
    }
    return oldest ? oldest->second : std::string();
  }

  controller::Result ready(std::string_view reason, std::string_view message) {
    auto& s = topic_.status;
    set_condition(s.conditions, v1::condition::kReady, "True", reason, message, generation_);
    controller::write_status(env_.client, v1::kKafkaTopicType.gvr, before_, s);
    return controller::Result::after(env_.options.full_reconciliation);
  }

  controller::Result not_ready(std::string_view reason, const std::string& message, milliseconds again) {
    return write_not_ready(env_.client, v1::kKafkaTopicType, before_, topic_.status, reason, message, again);
  }

  TopicEnv& env_;
  const controller::Request& req_;
  controller::Context& ctx_;
  json::Value before_;
  v1::KafkaTopic topic_;
  std::string cluster_, name_;
  bool managed_ = true;
  std::int64_t generation_ = 0;
};

}  // namespace

controller::Result reconcile_topic(TopicEnv& env, const controller::Request& request, controller::Context& ctx) {
  return TopicReconciler(env, request, ctx).run();
}

}  // namespace capstan::kafka
