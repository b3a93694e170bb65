#include "controllers/kafka/plugin.h"

#include "apis/kafka/v1/crds.h"
#include "apis/kafka/v1/group.h"
#include "apis/monitoring/v1/group.h"
#include "controllers/kafka/kafka_controller.h"
#include "controllers/kafka/rack.h"
#include "controllers/kafka/security.h"
#include "controllers/kafka/topic_controller.h"
#include "controllers/kafka/user_controller.h"
#include "runtime/cache/factory.h"
#include "runtime/cache/informer.h"
#include "runtime/controller/manager.h"
#include "runtime/flags/flags.h"
#include "runtime/meta/object.h"
#include "webhooks/kafka/webhooks.h"

#include <algorithm>
#include <set>

namespace capstan::kafka {
namespace {

// Spec changes and the pause and scale-down-check annotations; not the controller's own status writes.
controller::Predicate spec_or_pause_changed() {
  controller::Predicate p;
  p.update = [](const cache::ObjectPtr& a, const cache::ObjectPtr& b) {
    if (a->generation() != b->generation()) return true;
    const json::Value va = a->value(), vb = b->value();
    for (auto key : {apis::kafka::v1::kPauseAnnotation, apis::kafka::v1::kSkipScaleDownCheckAnnotation})
      if (meta::annotation(va, key) != meta::annotation(vb, key)) return true;
    return false;
  };
  return p;
}

constexpr std::string_view kClusterIndex = "cluster";

// KafkaTopics and KafkaUsers by "<namespace>/<cluster label>".
void index_by_cluster(cache::Informer& informer) {
  informer.ensure_index(std::string(kClusterIndex), [](const cache::CachedObject& o) {
    std::string cluster(o.label(apis::kafka::v1::kClusterLabel));
    return cluster.empty() ? std::vector<std::string>{} : std::vector<std::string>{std::string(o.ns()) + "/" + cluster};
  });
}

// A Kafka's objects of `informer` (indexed by index_by_cluster): reconciled when it becomes ready
// (or changes).
controller::MapFunc objects_of_cluster(cache::Informer& informer) {
  return [&informer](const cache::ObjectPtr& o) {
    return controller::requests_by_index(informer, kClusterIndex, std::string(o->ns()) + "/" + std::string(o->name()));
  };
}

// The operator's certificate for a cluster's internal listeners (mutual TLS with the
// certificates controller), from the cached Secret of its Certificate.
ClusterAdmins::Credentials operator_credentials(const std::shared_ptr<Env>& env) {
  return [env](std::string_view cluster, std::string_view ns) -> std::optional<ClientTls> {
    const std::string name = operator_certificate_name(cluster);
    auto field = [&](std::string_view key) { return cached_secret_value(env->secrets, ns, name, key); };
    // The brokers' CA as the clients trust it (the public Secret: the new and the old certificate
    // while the CA key is replaced, ca_replacement.h), else as it signed the operator's.
    std::string trusted = cached_secret_value(env->secrets, ns, ca_cert_secret_name(cluster_ca_name(cluster)), "ca.crt");
    ClientTls tls{trusted.empty() ? field("ca.crt") : std::move(trusted), field("tls.crt"), field("tls.key")};
    if (tls.ca_pem.empty() || tls.certificate_pem.empty() || tls.key_pem.empty())
      throw AdminError("_SSL", "the operator's certificate for the cluster's internal listeners (Secret " + std::string(ns) + "/" + name +
                                   ") is not issued yet");
    return tls;
  };
}

}  // namespace

std::shared_ptr<TopicEnv> wire_topics(controller::Manager& mgr, std::shared_ptr<ClusterAdmins> admins, TopicOptions options) {
  auto env = std::shared_ptr<TopicEnv>(
      new TopicEnv{mgr.client(), mgr.informer(apis::kafka::v1::kKafkaTopicType), mgr.informer(kKafkaType), std::move(admins), std::move(options)});
  index_by_cluster(env->topics);
  // Spec, labels, deletion and the managed annotation; not the controller's own status writes.
  controller::Predicate changed;
  changed.update = [](const cache::ObjectPtr& a, const cache::ObjectPtr& b) {
    if (a->generation() != b->generation() || a->deleting() != b->deleting() ||
        a->label(apis::kafka::v1::kClusterLabel) != b->label(apis::kafka::v1::kClusterLabel))
      return true;
    return meta::annotation(a->value(), apis::kafka::v1::kManagedAnnotation) !=
           meta::annotation(b->value(), apis::kafka::v1::kManagedAnnotation);
  };
  mgr.controller("kafkatopic")
      .for_(apis::kafka::v1::kKafkaTopicType, {changed})
      .watches(kKafkaType, objects_of_cluster(env->topics))
      .with_max_concurrent(2)
      .records_faults("Ready")
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_topic(*env, r, c); });
  return env;
}

std::shared_ptr<UserEnv> wire_users(controller::Manager& mgr, std::shared_ptr<ClusterAdmins> admins, UserOptions options) {
  auto env = std::shared_ptr<UserEnv>(
      new UserEnv{mgr.client(), mgr.informer(apis::kafka::v1::kKafkaUserType), mgr.informer(kKafkaType), std::move(admins), options});
  index_by_cluster(env->users);
  controller::Predicate changed;
  changed.update = [](const cache::ObjectPtr& a, const cache::ObjectPtr& b) {
    return a->generation() != b->generation() || a->deleting() != b->deleting() ||
           a->label(apis::kafka::v1::kClusterLabel) != b->label(apis::kafka::v1::kClusterLabel);
  };
  // A tls user's Secret, rewritten by the certificates controller: its user.* keys follow.
  cache::InformerOptions user_secrets;
  user_secrets.label_selector = std::string(kUserObjectsSelector);
  auto own_user = [](const cache::ObjectPtr& o) {
    return std::vector<controller::Request>{{std::string(o->ns()), std::string(o->name())}};
  };
  mgr.controller("kafkauser")
      .for_(apis::kafka::v1::kKafkaUserType, {changed})
      .watches(kKafkaType, objects_of_cluster(env->users))
      .watches(kSecretType, own_user, {}, user_secrets)
      .with_max_concurrent(2)
      .records_faults("Ready")
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_user(*env, r, c); });
  return env;
}

std::shared_ptr<Env> wire_kafka(controller::Manager& mgr, std::shared_ptr<ClusterAdmins> admins, KafkaOptions options) {
  auto env = std::shared_ptr<Env>(new Env{mgr.client(), mgr.informer(kKafkaType), mgr.informer(kNodePoolType),
                                          mgr.informer(kPodType, kClusterObjectsSelector),
                                          mgr.informer(kSecretType, kClusterObjectsSelector),
                                          mgr.informer(kServiceType, kClusterObjectsSelector),
                                          mgr.informer(kIngressType, kClusterObjectsSelector),
                                          mgr.informers().informer(node_cache_options(), /*namespaced=*/false),
                                          options.monitoring ? &mgr.informer(apis::monitoring::v1::kPodMonitorType, kClusterObjectsSelector) : nullptr,
                                          mgr.informer(kClusterRoleBindingType, kClusterObjectsSelector),
                                          std::move(admins), options});
  cache::InformerOptions narrow;
  narrow.label_selector = std::string(kClusterObjectsSelector);
  auto by_cluster_label = [](const cache::ObjectPtr& o) {
    std::string cluster(o->label(apis::kafka::v1::kClusterLabel));
    if (cluster.empty()) return std::vector<controller::Request>{};
    return std::vector<controller::Request>{{std::string(o->ns()), cluster}};
  };
  // A Node whose addresses change: the clusters with pods on it (nodeport listeners advertise them).
  auto clusters_on_node = [env](const cache::ObjectPtr& node) {
    std::set<std::pair<std::string, std::string>> clusters;
    for (const auto& pod : env->pods.list()) {
      const json::Value value = pod->value();
      std::string cluster(pod->label(apis::kafka::v1::kClusterLabel));
      if (!cluster.empty() && json::get_string(value, {"spec", "nodeName"}) == node->name()) clusters.emplace(std::string(pod->ns()), cluster);
    }
    std::vector<controller::Request> out;
    for (const auto& [ns, name] : clusters) out.push_back({ns, name});
    return out;
  };
  auto rack_binding_request = [](const cache::ObjectPtr& o) {
    auto owner = rack_binding_owner(o->value());
    if (!owner) return std::vector<controller::Request>{};
    return std::vector<controller::Request>{{owner->first, owner->second}};
  };
  controller::Predicate addresses_changed;
  addresses_changed.update = [](const cache::ObjectPtr& a, const cache::ObjectPtr& b) {
    const json::Value va = a->value(), vb = b->value();
    const json::Value* x = json::find(va, {"status", "addresses"});
    const json::Value* y = json::find(vb, {"status", "addresses"});
    return (x ? json::serialize(*x) : "") != (y ? json::serialize(*y) : "");
  };
  // A claim whose conditions change (FileSystemResizePending: its node restarts, storage.h).
  controller::Predicate claim_conditions_changed;
  claim_conditions_changed.update = [](const cache::ObjectPtr& a, const cache::ObjectPtr& b) {
    const json::Value va = a->value(), vb = b->value();
    const json::Value* x = json::find(va, {"status", "conditions"});
    const json::Value* y = json::find(vb, {"status", "conditions"});
    return (x ? json::serialize(*x) : "") != (y ? json::serialize(*y) : "");
  };
  mgr.controller("kafka")
      .for_(kKafkaType, {spec_or_pause_changed()})
      .owns(kPodType, {}, narrow)
      // The listeners' Services (a load balancer address or node port assigned) and Ingresses.
      .owns(kServiceType, {}, narrow)
      .owns(kIngressType, {}, narrow)
      .watches(kNodeType, clusters_on_node, {addresses_changed}, node_cache_options())
      // A rack-aware cluster's ClusterRoleBinding (rack.h): its Kafka, which deletes it when the
      // Kafka is gone (also one left behind while the manager was down).
      .watches(kClusterRoleBindingType, rack_binding_request, {}, narrow)
      .watches(kClaimType, by_cluster_label, {claim_conditions_changed}, narrow)
      // The certificates' Secrets (written by the certificates controller, labelled with the cluster).
      .watches(kSecretType, by_cluster_label, {}, narrow)
      // A pool belongs to the cluster its label names.
      .watches(kNodePoolType, by_cluster_label,
               {controller::any_of({controller::generation_changed(), controller::labels_changed(), controller::annotations_changed()})})
      .with_max_concurrent(options.max_concurrent_reconciles)
      .records_faults("Ready")
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_kafka(*env, r, c); });
  return env;
}

plugin::Plugin plugin() {
  auto kafka_options = std::make_shared<KafkaOptions>();
  auto address_map = std::make_shared<std::map<std::string, std::string>>();
  return plugin::Plugin("kafka")
      .alias("strimzi")
      .describe("Kafka clusters (Strimzi's Kafka, KafkaNodePool, KafkaTopic and KafkaUser under kafka.capstan.dev, KRaft): "
                "node IDs, per-node configuration, pods rolled one at a time, Services, a PodDisruptionBudget, TLS from the "
                "certificates controller and status; topics and users' ACLs through Kafka's Admin API")
      .flags([kafka_options, address_map](flags::FlagSet& fs) {
        fs.add_custom(
            "kafka-address-map",
            [address_map](const std::string& v) {
              for (const auto& entry : flags::split_csv(v)) {
                auto eq = entry.find('=');
                if (eq == std::string::npos || eq == 0 || eq + 1 == entry.size())
                  throw flags::UsageError("--kafka-address-map: \"" + entry + "\" is not HOST:PORT=HOST:PORT");
                (*address_map)[entry.substr(0, eq)] = entry.substr(eq + 1);
              }
            },
            "where the addresses the operator connects to (Kafka's Admin API) lead, comma-separated HOST:PORT=HOST:PORT "
            "(e.g. events-kafka-bootstrap.data.svc:9091=127.0.0.1:19091), for a manager running outside the cluster's "
            "network (through port-forwards): the bootstrap Service's and each broker's advertised replication address; "
            "the names stay what TLS checks",
            "");
        fs.add_duration("kafka-full-reconciliation-interval", &kafka_options->full_reconciliation,
                        "how often every Kafka cluster and topic is compared with what runs, changed or not (Strimzi's "
                        "STRIMZI_FULL_RECONCILIATION_INTERVAL_MS; at least 1s): a topic setting changed behind the operator's "
                        "back is set back then",
                        "2m0s");
        fs.add_string("kafka-broker-cluster-role", &kafka_options->broker_cluster_role,
                      "the ClusterRole (get on nodes) the ServiceAccount of a Kafka cluster with spec.kafka.rack is bound to, "
                      "so that its brokers' init container reads their Node's rack label (Strimzi's strimzi-kafka-broker; the "
                      "chart and config/rbac ship it)");
        fs.add_duration("kafka-operation-timeout", &kafka_options->operation_timeout,
                        "how long a Kafka node's pod may stay not Ready (after a roll, or once it turned unready) before its "
                        "cluster is NotReady with reason TimeoutException (Strimzi's STRIMZI_OPERATION_TIMEOUT_MS)",
                        "5m0s");
      })
      .crds(apis::kafka::v1::crds)
      .permits({"kafka.capstan.dev"}, {"kafkas/status", "kafkanodepools/status", "kafkatopics/status", "kafkausers/status"},
               {"get", "update", "patch"})
      // The topic and user operators' finalizers; a pool's manual-rolling-update annotation, removed once handed to its pods.
      .permits({"kafka.capstan.dev"}, {"kafkatopics", "kafkausers", "kafkanodepools"}, {"update", "patch"})
      .permits({""}, {"pods"}, {"create", "update", "patch", "delete"})
      .permits({""}, {"services", "configmaps", "persistentvolumeclaims"}, {"get", "create", "update", "patch", "delete"})
      .permits({"policy"}, {"poddisruptionbudgets"}, {"get", "create", "update", "patch", "delete"})
      // The ingress listeners' Ingresses.
      .permits({"networking.k8s.io"}, {"ingresses"}, {"get", "create", "update", "patch", "delete"})
      // The Nodes the brokers of nodeport listeners run on: the addresses they advertise (cluster-scoped).
      // Holding get on nodes is also what lets the manager bind rack-aware clusters' ServiceAccounts
      // to the broker ClusterRole (get nodes; rack.h): Kubernetes refuses a binding that grants
      // more than its maker holds (without the bind verb, which the manager does not need).
      .permits({""}, {"nodes"}, {"get", "list", "watch"})
      // Rack awareness (rack.h): the nodes' ServiceAccount and its ClusterRoleBinding.
      .permits({""}, {"serviceaccounts"}, {"get", "create", "update", "patch", "delete"})
      .permits({"rbac.authorization.k8s.io"}, {"clusterrolebindings"}, {"create", "update", "patch", "delete"})
      // The clusters' CAs and node certificates (security.h), and the CAs' public Secrets.
      .permits({"certs.capstan.dev"}, {"certificates", "issuers"}, {"get", "create", "update", "patch", "delete"})
      // A CA key replacement (ca_replacement.h): the certificates a CA signs, issued again (Issuing).
      .permits({"certs.capstan.dev"}, {"certificates"}, {"list"})
      .permits({"certs.capstan.dev"}, {"certificates/status"}, {"get", "update"})
      .permits({""}, {"secrets"}, {"get", "create", "update", "patch", "delete"})
      // The PodMonitor of a cluster with metricsConfig (with the monitoring controller).
      .permits({"monitoring.capstan.dev"}, {"podmonitors"}, {"get", "create", "update", "patch", "delete"})
      .webhooks({webhooks::kafka::configurations, [](plugin::Wiring& w) { webhooks::kafka::register_webhooks(w.webhooks); },
                 {{kKafkaType.gvr.resource + "." + kKafkaType.gvr.group, webhooks::kafka::conversion_path()},
                  {apis::kafka::v1::kKafkaUserType.gvr.resource + "." + apis::kafka::v1::kKafkaUserType.gvr.group,
                   webhooks::kafka::conversion_path()}}})
      .setup([kafka_options, address_map](plugin::Wiring& w) {
        kafka_options->full_reconciliation = std::max<std::chrono::milliseconds>(kafka_options->full_reconciliation, std::chrono::seconds(1));
        kafka_options->certificates = w.env.runs("certificates");
        kafka_options->monitoring = w.env.runs("monitoring");
        auto admins = std::make_shared<ClusterAdmins>(std::chrono::seconds(30), std::chrono::minutes(10), *address_map);
        auto env = wire_kafka(w.manager, admins, *kafka_options);
        if (kafka_options->certificates) admins->set_credentials(operator_credentials(env));
        TopicOptions topics;
        topics.full_reconciliation = kafka_options->full_reconciliation;
        wire_topics(w.manager, admins, topics);
        wire_users(w.manager, admins, UserOptions{kafka_options->full_reconciliation, kafka_options->certificates});
      });
}

}  // namespace capstan::kafka
