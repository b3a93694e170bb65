#include "controllers/kafka/kafka_controller.h"

#include "apis/certs/v1/group.h"
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/metadata_versions.h"
#include "apis/kafka/v1/types.h"
#include "apis/kafka/v1/validation.h"
#include "apis/monitoring/v1/group.h"
#include "controllers/kafka/ca_key_rollout.h"
#include "controllers/kafka/env.h"
#include "controllers/kafka/listeners.h"
#include "controllers/kafka/nodes.h"
#include "controllers/kafka/objects.h"
#include "controllers/kafka/rack.h"
#include "controllers/kafka/rolling.h"
#include "controllers/kafka/security.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/controller/status.h"
#include "runtime/meta/object.h"
#include "runtime/meta/pod.h"
#include "runtime/meta/time.h"
#include "runtime/pki/digest.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

namespace capstan::kafka {
namespace {

namespace v1 = apis::kafka::v1;
using controller::remove_condition;
using controller::set_condition;
using std::chrono::milliseconds;

// When the cached Kafka was behind a status this manager wrote: soon, once the cache caught up.
constexpr milliseconds kStaleRetry{500};

// A pool of the cluster and its spec, or why its spec cannot be read.
struct Pool {
  cache::ObjectPtr object;
  v1::KafkaNodePool pool;
  std::string decode_error;
};

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : std::string(sep)) + s;
  return out;
}

class Reconciler {
 public:
  Reconciler(Env& env, const controller::Request& r, controller::Context& ctx) : env_(env), req_(r), ctx_(ctx) {}

  controller::Result run() {
    auto cached = env_.kafkas.get(req_.ns, req_.name);
    if (!cached || cached->deleting()) {  // its objects go with it (GC), but the cluster-scoped rack binding
      remove_rack_binding();
      return controller::Result::done();
    }
    before_ = cached->value();
    try {
      kafka_ = v1::Kafka::from_json(before_);
    } catch (const apis::codec::DecodeError& e) {  // written around the CRD schema: said on this object only
      json::Value obj = before_;
      controller::set_condition(obj, v1::condition::kNotReady, "True", v1::reason::kInvalidResource, e.what());
      controller::write_status(env_.client, kKafkaType.gvr, before_, obj);
      ctx_.log.warn("unreadable Kafka cluster", {{"error", e.what()}});
      return controller::Result::done();
    }
    generation_ = meta::generation_of(before_);
    auto& status = kafka_.status;
    status.observed_generation = generation_;
    if (meta::annotation(before_, v1::kPauseAnnotation) == "true") {
      set_condition(status.conditions, v1::condition::kReconciliationPaused, "True", "", "", generation_);
      write();
      return controller::Result::done();
    }
    remove_condition(status.conditions, v1::condition::kReconciliationPaused);
    const v1::KafkaClusterSpec& spec = kafka_.spec.kafka;
    auto pools = pools_of_cluster();
    std::vector<std::string> errors;
    for (const auto& c : v1::validate_kafka(before_)) errors.push_back(c.error());
    check_roles(pools, errors);
    if (!errors.empty()) {
      not_ready(v1::reason::kInvalidResource, join(errors, "; "));
      write();
      return controller::Result::after(env_.options.full_reconciliation);
    }

    if (status.cluster_id.empty()) {
      status.cluster_id = new_cluster_id();
      if (!persist_cluster_id()) return controller::Result::after(kStaleRetry);
    }

    std::vector<PoolNodes> wanted;
    for (const auto& p : pools)
      wanted.push_back({std::string(p.object->name()), p.pool.spec.replicas, p.pool.status.node_ids, p.pool.spec.broker(),
                        p.pool.spec.controller()});
    auto ids = assign_node_ids(wanted);
    keep_brokers_holding_replicas(wanted, ids);
    std::vector<Node> nodes;
    for (const auto& p : pools)
      for (auto id : ids[std::string(p.object->name())])
        nodes.push_back({id, std::string(p.object->name()), p.pool.spec.broker(), p.pool.spec.controller(), data_volumes(p.pool.spec.storage)});

    // The metadata version a new quorum is formatted with (nodes joining a running cluster
    // follow the version the quorum has finalized).
    const std::string metadata_version = spec.effective_metadata_version();
    const std::string_view fm = kFieldManager;
    env_.client.apply(kServiceType.gvr, req_.ns, brokers_service(before_, spec), fm, true);
    env_.client.apply(kServiceType.gvr, req_.ns, bootstrap_service(before_, spec), fm, true);
    env_.client.apply(kDisruptionBudgetType.gvr, req_.ns, disruption_budget(before_, nodes.size()), fm, true);
    if (auto why = reconcile_rack_access(spec); !why.empty()) {  // before the pods, which name the ServiceAccount
      not_ready(v1::reason::kRackAccessDenied, why);
      write();
      return controller::Result::after(env_.options.full_reconciliation);
    }
    const ListenerAddresses addresses = reconcile_listeners(spec, nodes);
    addresses_ = &addresses;
    if (needs_certificates_controller(spec) && !env_.options.certificates) {
      not_ready(v1::reason::kCertificatesUnavailable,
                "TLS listeners and authorization need the certificates controller, which makes the cluster and clients CAs and "
                "the nodes' certificates (run the manager with it: --controllers=...,certificates)");
      write();
      return controller::Result::after(env_.options.full_reconciliation);
    }
    std::string metrics_config;
    if (spec.metrics_config) {
      if (auto why = read_metrics_config(*spec.metrics_config, metrics_config); !why.empty()) {
        not_ready(v1::reason::kInvalidResource, why);
        write();
        return controller::Result::after(env_.options.full_reconciliation);
      }
    }
    reconcile_pod_monitor(spec);
    reconcile_claims(nodes);
    const std::string waiting = reconcile_certificates(nodes);
    std::map<std::string, json::Value> desired_pods;
    for (const auto& n : nodes) {
      const auto& pool = std::find_if(pools.begin(), pools.end(), [&](const Pool& p) { return p.object->name() == n.pool; })->pool.spec;
      std::string config = server_config(spec, req_.name, req_.ns, n, nodes, internal_tls(), &addresses);
      env_.client.apply(kConfigMapType.gvr, req_.ns, node_configmap(before_, n, {config, status.cluster_id, metadata_version, metrics_config}), fm, true);
      auto cert = certificate_hashes_.find(n.pod_name(req_.name));
      desired_pods[n.pod_name(req_.name)] =
          node_pod(before_, spec, pool, n, config + (cert == certificate_hashes_.end() ? "" : cert->second), internal_tls());
    }
    hand_pool_rolls_to_pods(pools);
    bool settled = manage_pods(desired_pods, nodes, pools);
    const bool replacing_ca_key = advance_ca_key_replacement(settled);

    for (const auto& p : pools) write_pool_status(p, ids[std::string(p.object->name())], status.cluster_id);

    // Each listener's bootstrap as advertised (one not known yet is left out until it is).
    status.listeners.clear();
    for (const auto& l : spec.listeners) {
      auto bootstrap = addresses.bootstrap.find(l.name);
      if (bootstrap == addresses.bootstrap.end()) continue;
      std::vector<std::string> certificates;
      if (l.tls && !cluster_ca_pem_.empty()) certificates.push_back(cluster_ca_pem_);
      v1::ListenerStatus ls{l.name, {}, "", std::move(certificates)};
      for (const auto& a : bootstrap->second) {
        ls.addresses.push_back({a.host, a.port});
        ls.bootstrap_servers += (ls.bootstrap_servers.empty() ? "" : ",") + a.host + ":" + std::to_string(a.port);
      }
      status.listeners.push_back(std::move(ls));
    }
    status.kafka_node_pools.clear();
    for (const auto& p : pools) status.kafka_node_pools.push_back({std::string(p.object->name())});
    // The version every node runs (Strimzi's status.kafkaVersion): the spec's once the roll onto
    // its image is over, and only then the metadata version raised (a node still on the older
    // release would refuse a level it does not know).
    if (settled) {
      status.kafka_version = spec.effective_version();
      reconcile_metadata_version(spec);
    }

    if (!addresses.pending.empty()) {  // not Ready while a listener's address is not known
      not_ready(v1::reason::kListenerAddressPending, "waiting for listener addresses: " + join(addresses.pending, "; "));
      settled = false;
    } else if (!stuck_.empty()) {  // a node that did not come back (after a roll, or ever)
      not_ready(v1::reason::kTimeout, "Exceeded timeout of " + std::to_string(env_.options.operation_timeout.count()) +
                                          "ms while waiting for Pods " + join(stuck_, ", ") + " in namespace " + req_.ns + " to be ready");
    } else if (settled) {
      remove_condition(status.conditions, v1::condition::kNotReady);
      set_condition(status.conditions, v1::condition::kReady, "True", "", "", generation_);
    } else if (!meta::find_condition(before_, v1::condition::kReady)) {  // mid-roll, a Ready cluster stays Ready
      not_ready(v1::reason::kCreating, "Kafka cluster is being deployed: " + std::to_string(ready_) + " of " +
                                           std::to_string(nodes.size()) + " nodes ready" + (waiting.empty() ? "" : "; " + waiting));
    }
    write();
    return controller::Result::after(settled && !replacing_ca_key ? env_.options.full_reconciliation : milliseconds(5'000));
  }

 private:
  // The JMX exporter's configuration from metricsConfig's ConfigMap key (read when reconciled:
  // a change reaches the nodes' ConfigMaps at the next full reconciliation, and the agent
  // reloads it), or why it cannot be read.
  std::string read_metrics_config(const v1::MetricsConfig& metrics, std::string& out) {
    const auto& ref = metrics.value_from.config_map_key_ref;
    const std::string field = "spec.kafka.metricsConfig.valueFrom.configMapKeyRef";
    json::Value cm;
    try {
      cm = env_.client.get(kConfigMapType.gvr, req_.ns, ref.name);
    } catch (const client::ApiError& e) {
      if (!client::is_not_found(e)) throw;
      return field + ": ConfigMap " + ref.name + " not found";
    }
    const json::Value* value = json::find(cm, {"data", ref.key});
    if (!value || !value->is_string() || value->as_string().empty())
      return field + ": ConfigMap " + ref.name + " has no key " + ref.key;
    out = std::string(value->as_string());
    return "";
  }

  // Rack awareness (rack.h): the nodes' ServiceAccount and its ClusterRoleBinding to the broker
  // ClusterRole while spec.kafka.rack is set; both removed when it no longer is. Returns why the
  // API server refused the binding, or "".
  std::string reconcile_rack_access(const v1::KafkaClusterSpec& spec) {
    if (!spec.rack) {
      if (remove_rack_binding()) {
        client::DeleteOptions d;
        d.ignore_not_found = true;
        env_.client.remove(kServiceAccountType.gvr, req_.ns, kafka_service_account_name(req_.name), d);
      }
      return "";
    }
    env_.client.apply(kServiceAccountType.gvr, req_.ns, kafka_service_account(before_), kFieldManager, true);
    const std::string& role = env_.options.broker_cluster_role;
    if (auto live = env_.rack_bindings.get("", rack_binding_name(req_.ns, req_.name)))
      if (json::get_string(live->value(), {"roleRef", "name"}) != role) remove_rack_binding();  // roleRef is immutable
    try {
      env_.client.apply(kClusterRoleBindingType.gvr, "", rack_binding(before_, role), kFieldManager, true);
    } catch (const client::ApiError& e) {
      if (!client::is_forbidden(e) && !client::is_not_found(e)) throw;
      return "spec.kafka.rack: the ClusterRoleBinding " + rack_binding_name(req_.ns, req_.name) + " of ServiceAccount " +
             kafka_service_account_name(req_.name) + " to the ClusterRole " + role +
             " (--kafka-broker-cluster-role), which lets the brokers read their Node's label, was refused: " + e.message();
    }
    return "";
  }

  // Deletes the cluster's rack ClusterRoleBinding if the cache holds it; returns whether it did.
  bool remove_rack_binding() {
    const std::string name = rack_binding_name(req_.ns, req_.name);
    auto live = env_.rack_bindings.get("", name);
    if (!live || rack_binding_owner(live->value()) != std::pair{req_.ns, req_.name}) return false;
    client::DeleteOptions d;
    d.ignore_not_found = true;
    env_.client.remove(kClusterRoleBindingType.gvr, "", name, d);
    ctx_.log.info("removed the cluster's rack ClusterRoleBinding", {{"clusterRoleBinding", name}});
    return true;
  }

  // With the monitoring controller: the cluster's PodMonitor while metricsConfig asks for one;
  // removed when it no longer does.
  void reconcile_pod_monitor(const v1::KafkaClusterSpec& spec) {
    if (!env_.pod_monitors) return;
    const auto& type = apis::monitoring::v1::kPodMonitorType;
    if (spec.metrics_config && spec.metrics_config->pod_monitor_enabled()) {
      env_.client.apply(type.gvr, req_.ns, pod_monitor(before_, spec.metrics_config->pod_monitor.value_or(v1::KafkaPodMonitor{})),
                        kFieldManager, true);
      return;
    }
    auto existing = env_.pod_monitors->get(req_.ns, pod_monitor_name(req_.name));
    if (!existing || existing->controller_uid() != meta::uid_of(before_)) return;
    client::DeleteOptions d;
    d.ignore_not_found = true;
    env_.client.remove(type.gvr, req_.ns, pod_monitor_name(req_.name), d);
    ctx_.log.info("removed the cluster's PodMonitor", {{"podMonitor", pod_monitor_name(req_.name)}});
  }

  // The listeners' own Services and Ingresses (listeners.h), those no listener wants any more
  // deleted (a listener removed or of another type, a broker scaled away), and the addresses
  // the brokers advertise, from the Services as written and the brokers' Nodes.
  ListenerAddresses reconcile_listeners(const v1::KafkaClusterSpec& spec, const std::vector<Node>& nodes) {
    LiveState live;
    std::set<std::string> wanted_services{brokers_service_name(req_.name), bootstrap_service_name(req_.name)}, wanted_ingresses;
    for (const auto& svc : listener_services(before_, spec, nodes)) {
      std::string name(meta::name_of(svc));
      wanted_services.insert(name);
      live.services[name] = env_.client.apply(kServiceType.gvr, req_.ns, svc, kFieldManager, true);
    }
    for (const auto& ing : listener_ingresses(before_, spec, nodes)) {
      wanted_ingresses.insert(std::string(meta::name_of(ing)));
      env_.client.apply(kIngressType.gvr, req_.ns, ing, kFieldManager, true);
    }
    prune(env_.services, kServiceType, wanted_services);
    prune(env_.ingresses, kIngressType, wanted_ingresses);
    for (const auto& p : env_.pods.list(req_.ns))
      if (p->label(v1::kClusterLabel) == req_.name) {
        const json::Value pod = p->value();
        live.pod_nodes[std::string(p->name())] = std::string(json::get_string(pod, {"spec", "nodeName"}));
      }
    for (const auto& [pod, node] : live.pod_nodes)
      if (!node.empty() && !live.nodes.contains(node))
        if (auto n = env_.nodes.get("", node)) live.nodes[node] = n->value();
    // A broker not on a Node (mid-roll), or on one not cached yet, keeps the nodeport hosts its
    // configuration advertises.
    const bool nodeport = std::any_of(spec.listeners.begin(), spec.listeners.end(),
                                      [](const auto& l) { return l.type == v1::listener_type::kNodePort; });
    for (const auto& n : nodes) {
      const std::string pod = n.pod_name(req_.name);
      if (!nodeport || !n.broker) continue;
      if (const std::string& on = live.pod_nodes[pod]; !on.empty() && live.nodes.contains(on)) continue;
      try {
        const json::Value cm = env_.client.get(kConfigMapType.gvr, req_.ns, pod);
        live.configs[pod] = std::string(json::get_string(cm, {"data", "server.config"}));
      } catch (const client::ApiError& e) {
        if (!client::is_not_found(e)) throw;
      }
    }
    return resolve_listener_addresses(spec, req_.name, req_.ns, nodes, live);
  }

  // Deletes the cluster's objects of `informer` (labelled with it and controlled by this Kafka)
  // not named in `wanted`.
  void prune(cache::Informer& informer, const meta::ResourceType& type, const std::set<std::string>& wanted) {
    client::DeleteOptions d;
    d.ignore_not_found = true;
    for (const auto& o : informer.list(req_.ns)) {
      if (o->label(v1::kClusterLabel) != req_.name || o->controller_uid() != meta::uid_of(before_) || wanted.contains(std::string(o->name())))
        continue;
      ctx_.log.info("removing an object no listener wants", {{"kind", type.kind}, {"name", std::string(o->name())}});
      env_.client.remove(type.gvr, req_.ns, o->name(), d);
    }
  }

  // With the certificates controller the internal listeners are mutual TLS, as Strimzi's.
  bool internal_tls() const { return env_.options.certificates; }

  // The CAs and the operator's certificate (whenever the certificates controller runs) and the
  // CAs' public Secrets; each node's Certificate where it needs one, and the hash of what its
  // Secret holds (a renewal rolls the node). A node whose Secret is not there yet is not started
  // (its pod would not start without it): returns which, or "".
  std::string reconcile_certificates(const std::vector<Node>& nodes) {
    if (!env_.options.certificates) return "";
    namespace certs = apis::certs::v1;
    // What the CAs' public Secrets say, with a CA key replacement's phase (ca_replacement.h).
    ca_keys_.emplace(env_, before_, ctx_.log);
    ca_keys_->follow();
    for (const auto& o : ca_objects(before_, ca_keys_->key_generation(cluster_ca_name(req_.name)), ca_keys_->key_generation(clients_ca_name(req_.name))))
      env_.client.apply(json::get_string(o, {"kind"}) == "Issuer" ? certs::kIssuerType.gvr : certs::kCertificateType.gvr, req_.ns, o, kFieldManager,
                        true);
    env_.client.apply(certs::kCertificateType.gvr, req_.ns, operator_certificate(before_), kFieldManager, true);
    ca_keys_->write();
    std::vector<std::string> missing;
    for (const auto& ca : {cluster_ca_name(req_.name), clients_ca_name(req_.name)}) {
      const std::string pem = ca_keys_->bundle(ca);
      if (pem.empty()) {
        missing.push_back("Secret " + ca + " of Certificate " + ca);
        continue;
      }
      (ca == cluster_ca_name(req_.name) ? cluster_ca_pem_ : clients_ca_pem_) = pem;
    }
    const bool authenticates = authenticates_clients(kafka_.spec.kafka);
    for (const auto& n : nodes) {
      if (!needs_certificate(kafka_.spec.kafka, n, internal_tls())) continue;
      const std::string name = n.pod_name(req_.name);
      const CertificateNames names =
          addresses_ ? listener_certificate_names(kafka_.spec.kafka, req_.name, req_.ns, n, *addresses_) : CertificateNames{};
      env_.client.apply(certs::kCertificateType.gvr, req_.ns, node_certificate(before_, n, names), kFieldManager, true);
      const std::string keystore = secret_value(name, kKeystoreFile);
      // A broker authenticating clients also mounts the clients CA (and rolls when it changes).
      const std::string clients_ca = n.broker && authenticates ? clients_ca_pem_ : "";
      if (keystore.empty() || cluster_ca_pem_.empty() || (n.broker && authenticates && clients_ca.empty())) {
        waiting_.insert(name);
        if (keystore.empty()) missing.push_back("Secret " + name + " of Certificate " + name);
        continue;
      }
      certificate_hashes_[name] = pki::sha256_hex(keystore + cluster_ca_pem_ + clients_ca, 16);
    }
    if (waiting_.empty()) return "";
    return "waiting for the certificates controller to issue " + join(missing, ", ");
  }

  // The next phase of a CA key replacement once the nodes settled, said by a Warning while one
  // runs (the cluster stays Ready: its nodes roll as for any change). Returns whether one runs.
  bool advance_ca_key_replacement(bool settled) {
    if (!ca_keys_) return false;
    const bool replacing = ca_keys_->advance(settled);
    if (replacing) set_warning(kCaKeyReplacementReason, ca_keys_->message());
    else clear_warning(kCaKeyReplacementReason);
    return replacing;
  }

  // The decoded `key` of the cluster's Secret `name` in the cache, or "".
  std::string secret_value(const std::string& name, std::string_view key) const {
    return cached_secret_value(env_.secrets, req_.ns, name, key);
  }

  // A pool annotated for a manual rolling update: the annotation moves onto each of its Pods
  // (which then roll one at a time, as for any change) and leaves the pool.
  void hand_pool_rolls_to_pods(const std::vector<Pool>& pools) {
    for (const auto& p : pools) {
      const json::Value pool = p.object->value();
      if (meta::annotation(pool, v1::kManualRollingUpdateAnnotation) != "true") continue;
      auto annotation_patch = [](json::Value value) {
        json::Object annotations;
        annotations[v1::kManualRollingUpdateAnnotation] = std::move(value);
        return json::Value(json::Object{{"metadata", json::Object{{"annotations", std::move(annotations)}}}});
      };
      const json::Value mark = annotation_patch("true");
      for (const auto& pod : env_.pods.list(req_.ns))
        if (pod->label(v1::kClusterLabel) == req_.name && pod->label(v1::kPoolNameLabel) == p.object->name())
          env_.client.patch(kPodType.gvr, req_.ns, pod->name(), client::PatchType::Merge, mark);
      env_.client.patch(kNodePoolType.gvr, req_.ns, p.object->name(), client::PatchType::Merge,
                        annotation_patch(nullptr));
      ctx_.log.info("manual rolling update of a node pool", {{"pool", std::string(p.object->name())}});
    }
  }

  std::vector<Pool> pools_of_cluster() {
    std::vector<Pool> out;
    for (const auto& p : env_.pools.list(req_.ns))
      if (p->label(v1::kClusterLabel) == req_.name) {
        Pool pool{p, {}, {}};
        try {
          pool.pool = v1::KafkaNodePool::from_json(p->value());
        } catch (const apis::codec::DecodeError& e) {
          pool.decode_error = e.what();
        }
        out.push_back(std::move(pool));
      }
    std::sort(out.begin(), out.end(), [](const Pool& a, const Pool& b) { return a.object->name() < b.object->name(); });
    return out;
  }

  void check_roles(const std::vector<Pool>& pools, std::vector<std::string>& errors) {
    if (pools.empty()) {
      errors.push_back("No KafkaNodePools found for Kafka cluster " + req_.name +
                       " (label them kafka.capstan.dev/cluster=" + req_.name + ")");
      return;
    }
    bool broker = false, controller = false;
    std::int64_t nodes = 0;
    for (const auto& p : pools) {
      std::vector<std::string> pool_errors;
      if (!p.decode_error.empty()) pool_errors.push_back("KafkaNodePool " + std::string(p.object->name()) + " " + p.decode_error);
      for (const auto& c : v1::validate_kafka_node_pool(p.object->value()))
        pool_errors.push_back("KafkaNodePool " + std::string(p.object->name()) + " " + c.error());
      errors.insert(errors.end(), pool_errors.begin(), pool_errors.end());
      if (!pool_errors.empty()) continue;
      nodes += p.pool.spec.replicas;
      broker |= p.pool.spec.broker() && p.pool.spec.replicas > 0;
      controller |= p.pool.spec.controller() && p.pool.spec.replicas > 0;
    }
    // Checked before any node is planned: a hostile count must cost nothing but this condition.
    if (nodes > v1::kMaxNodes)
      errors.push_back("the KafkaNodePools of the cluster have " + std::to_string(nodes) + " nodes; at most " +
                       std::to_string(v1::kMaxNodes) + " are supported");
    if (!controller) errors.push_back("the cluster needs at least one node with the controller role");
    if (!broker) errors.push_back("the cluster needs at least one node with the broker role");
  }

  // Creates missing pods, removes the nodes a scale-down dropped, rolls one changed pod when
  // every node is Ready. Returns whether every node runs its current revision and is Ready.
  bool manage_pods(const std::map<std::string, json::Value>& desired, const std::vector<Node>& nodes, const std::vector<Pool>& pools) {
    std::map<std::string, json::Value> live;
    for (const auto& p : env_.pods.list(req_.ns))
      if (p->label(v1::kClusterLabel) == req_.name) live.emplace(std::string(p->name()), p->value());
    client::DeleteOptions d;
    d.ignore_not_found = true;
    for (const auto& [name, pod] : live) {
      if (desired.contains(name)) continue;
      ctx_.log.info("removing a node of the scale-down", {{"pod", name}});
      env_.client.remove(kPodType.gvr, req_.ns, name, d);
      std::string pool(meta::label(pod, v1::kPoolNameLabel));
      for (const auto& p : pools)
        if (p.object->name() == pool)
          for (const auto& v : data_volumes(p.pool.spec.storage))
            if (v.persistent() && v.spec.delete_claim) env_.client.remove(kClaimType.gvr, req_.ns, v.claim_name(name), d);
    }
    // Broker-only nodes first, then the nodes with the controller role, the quorum's leader (the
    // active controller) last of all, each group in node order: one election per roll at most.
    // (Strimzi rolls KRaft controllers before brokers; either order keeps the quorum's majority
    // and every partition's in-sync replicas, and this is the one Capstan's users asked for.)
    std::vector<const Node*> stale, stale_controllers;
    std::map<std::string, std::string> reasons;     // why each of them rolls
    ready_ = 0;
    for (const auto& n : nodes) {
      std::string name = n.pod_name(req_.name);
      const auto& want = desired.at(name);
      auto it = live.find(name);
      if (it == live.end()) {
        if (!waiting_.contains(name)) env_.client.apply(kPodType.gvr, req_.ns, want, kFieldManager, true);
        continue;
      }
      if (!meta::pod_ready(it->second)) note_if_stuck(name, it->second);
      if (waiting_.contains(name)) {  // kept as it runs until its certificate is back
        if (meta::pod_ready(it->second)) ++ready_;
      } else if (std::string why = roll_reason(it->second, want); !why.empty()) {
        (n.controller ? stale_controllers : stale).push_back(&n);
        reasons[name] = std::move(why);
      } else if (meta::pod_ready(it->second)) {
        ++ready_;
      }
    }
    bool all_up = live.size() >= nodes.size();
    for (const auto& [name, pod] : live)
      if (desired.contains(name) && !meta::pod_ready(pod)) all_up = false;
    // The quorum, asked once a step when a controller is to roll: its leader goes last, and a
    // controller waits while its restart would leave too few voters caught up.
    std::optional<QuorumState> quorum;
    if (!stale_controllers.empty() && all_up) {
      quorum = ask_quorum();
      if (quorum)
        std::stable_partition(stale_controllers.begin(), stale_controllers.end(), [&](const Node* n) { return n->id != quorum->leader_id; });
    }
    stale.insert(stale.end(), stale_controllers.begin(), stale_controllers.end());
    if (!stale.empty() && all_up) {
      const std::string next = stale.front()->pod_name(req_.name);
      if (const std::string why = roll_waits_for(*stale.front(), quorum); !why.empty()) {
        ctx_.log.info("the roll of a node waits", {{"pod", next}, {"reason", why}});
      } else {
        ctx_.log.info("rolling a node", {{"pod", next}, {"reason", reasons[next]}});
        env_.client.remove(kPodType.gvr, req_.ns, next, d);  // recreated at its new revision next time
      }
    }
    return stale.empty() && waiting_.empty() && ready_ == static_cast<int>(nodes.size());
  }

  // Each persistent volume's claim, applied: made, and grown when the pool's size grows (the
  // claim's StorageClass must allow expansion). A change the API server refuses (a shrink,
  // another StorageClass, a resize the class does not allow) leaves the claim as it is and is a
  // Warning naming the pool's field and the claim, never an error that skips the status write.
  // Claims whose volume waits for its file system to grow (FileSystemResizePending) are
  // remembered: their pod restarts (Strimzi's FILE_SYSTEM_RESIZE_NEEDED), which lets the kubelet
  // grow it.
  void reconcile_claims(const std::vector<Node>& nodes) {
    std::vector<std::string> refused;
    for (const auto& n : nodes)
      for (const auto& v : n.volumes) {
        if (!v.persistent()) continue;
        const json::Value claim = node_claim(before_, n, v);
        const std::string name(meta::name_of(claim));
        try {
          const json::Value live = env_.client.apply(kClaimType.gvr, req_.ns, claim, kFieldManager, true);
          if (auto since = resize_pending_since(live)) resize_pending_[n.pod_name(req_.name)] = *since;
        } catch (const client::ApiError& e) {
          if (!client::is_invalid(e) && !client::is_forbidden(e)) throw;
          refused.push_back("KafkaNodePool " + n.pool + " " + v.field + " (claim " + name + "): " + e.what());
        }
      }
    if (refused.empty()) {
      clear_warning(v1::reason::kPvcResizing);
      return;
    }
    const std::size_t shown = std::min<std::size_t>(refused.size(), 3);
    std::string message = join({refused.begin(), refused.begin() + static_cast<std::ptrdiff_t>(shown)}, "; ");
    if (refused.size() > shown) message += "; and " + std::to_string(refused.size() - shown) + " more claims";
    if (set_warning(v1::reason::kPvcResizing, "the claims keep their size and class: " + message))
      ctx_.log.warn("the API server refused claim changes", {{"claims", std::to_string(refused.size())}, {"message", message}});
  }

  // When the claim's volume began waiting for its file system to grow, if it does.
  static std::optional<meta::TimePoint> resize_pending_since(const json::Value& claim) {
    if (const json::Value* conditions = json::find(claim, {"status", "conditions"}); conditions && conditions->is_array())
      for (const auto& c : conditions->as_array())
        if (json::get_string(c, {"type"}) == "FileSystemResizePending" && json::get_string(c, {"status"}) == "True")
          return meta::parse_rfc3339(json::get_string(c, {"lastTransitionTime"}));
    return std::nullopt;
  }

  // Why the live `pod` restarts (Strimzi's restart reasons), or "": a new revision, a manual
  // rolling update, or a claim of its that began waiting for a file system resize after it started.
  std::string roll_reason(const json::Value& pod, const json::Value& want) const {
    if (meta::annotation(pod, v1::kRevisionAnnotation) != meta::annotation(want, v1::kRevisionAnnotation)) return "PodHasOldRevision";
    if (meta::annotation(pod, v1::kManualRollingUpdateAnnotation) == "true") return "ManualRollingUpdate";
    if (auto it = resize_pending_.find(std::string(meta::name_of(pod))); it != resize_pending_.end()) {
      const auto started = meta::parse_rfc3339(json::get_string(pod, {"metadata", "creationTimestamp"}));
      if (started && *started < it->second) return "FileSystemResizeNeeded";
    }
    return "";
  }

  // The controller quorum (quorum.h), or nullopt when it cannot be asked (bounded as the
  // partitions' check): the roll then goes on without the quorum check.
  std::optional<QuorumState> ask_quorum() {
    try {
      return env_.admins->for_cluster(req_.name, req_.ns)->quorum(env_.options.check_timeout);
    } catch (const AdminError& e) {
      ctx_.log.warn("rolling without the quorum check: the controller quorum cannot be asked", {{"error", e.what()}});
      return std::nullopt;
    }
  }

  // controller.quorum.fetch.timeout.ms as the nodes run it (Kafka's default 2000).
  std::int64_t quorum_fetch_timeout_ms() const {
    const auto properties = kafka_.spec.kafka.properties();
    const auto it = properties.find("controller.quorum.fetch.timeout.ms");
    std::int64_t ms = 0;
    if (it != properties.end() && std::from_chars(it->second.data(), it->second.data() + it->second.size(), ms).ec == std::errc() && ms > 0)
      return ms;
    return 2000;
  }

  // Why node `n` may not restart yet (rolling.h), or "": a controller while the quorum `quorum`
  // would lose its majority of caught-up voters, a broker while a partition it keeps in sync is
  // under-replicated. A cluster that cannot be asked does not hold the roll back, as Strimzi's
  // roller restarts a broker it cannot reach: the check is bounded so that an unreachable cluster
  // costs a reconcile seconds, not the admin's full timeout.
  std::string roll_waits_for(const Node& n, const std::optional<QuorumState>& quorum) {
    if (n.controller && quorum)
      if (std::string why = controller_roll_blocker(n.id, *quorum, quorum_fetch_timeout_ms()); !why.empty()) return why;
    if (!n.broker) return "";
    try {
      return roll_blocker(n.id, env_.admins->for_cluster(req_.name, req_.ns)->partitions(env_.options.check_timeout));
    } catch (const AdminError& e) {
      ctx_.log.warn("rolling without the availability check: the cluster cannot be asked",
                    {{"pod", n.pod_name(req_.name)}, {"error", e.what()}});
      return "";
    }
  }

  // Strimzi's metadataVersion step (its KRaftMetadataManager), run once every node is at its
  // current revision and Ready, so a Kafka version upgrade rolls every node onto the new
  // binaries before the metadata version rises. The finalized metadata.version below the spec's
  // is upgraded (UpdateFeatures); above it, it stays, as KRaft metadata cannot be downgraded,
  // with a Warning. status.kafkaMetadataVersion says what the cluster finalized. A cluster that
  // cannot be asked keeps the status's value and holds nothing else of the reconcile back.
  void reconcile_metadata_version(const v1::KafkaClusterSpec& spec) {
    const std::string desired = spec.effective_metadata_version();
    // Where the version comes from, for the messages: the field, else the release's own.
    const std::string named = spec.metadata_version.empty() ? "the metadata version " + desired + " of spec.kafka.version " + spec.effective_version()
                                                            : "spec.kafka.metadataVersion " + desired;
    const auto want = v1::metadata_version_level(desired);
    if (!want) return;  // refused by validation before any of this
    std::shared_ptr<ClusterAdmin> admin;
    std::optional<std::int16_t> finalized;
    try {
      admin = env_.admins->for_cluster(req_.name, req_.ns);
      finalized = admin->metadata_version_level(env_.options.check_timeout);
    } catch (const AdminError& e) {
      ctx_.log.info("the metadata version is not known: the cluster cannot be asked", {{"error", e.what()}});
      return;
    }
    if (!finalized) {
      ctx_.log.warn("the cluster reports no finalized metadata.version", {{"bootstrap", env_.admins->bootstrap(req_.name, req_.ns)}});
      return;
    }
    auto& status = kafka_.status;
    const std::string current = metadata_version_text(*finalized);
    status.kafka_metadata_version = current;
    if (*finalized > *want) {
      clear_warning(v1::reason::kMetadataUpdateFailed);
      const std::string message = named + " is lower than the metadata version " + current +
                                  " the cluster runs: KRaft metadata cannot be downgraded, the cluster keeps " + current;
      if (set_warning(v1::reason::kKafkaMetadataVersion, message)) ctx_.log.warn("metadata version downgrade not applied", {{"message", message}});
      return;
    }
    clear_warning(v1::reason::kKafkaMetadataVersion);
    if (*finalized == *want) {
      clear_warning(v1::reason::kMetadataUpdateFailed);
      return;
    }
    const std::string target = metadata_version_text(*want);
    try {
      admin->upgrade_metadata_version(*want);
    } catch (const AdminError& e) {
      // Not a failed reconcile (Strimzi's neither): the cluster runs on at its version, and the
      // upgrade is tried again at the next reconcile.
      set_warning(v1::reason::kMetadataUpdateFailed, "Failed to update metadata version to " + target + " (" + named + "; the cluster runs " +
                                                         current + "): " + e.what());
      ctx_.log.warn("metadata version upgrade failed", {{"from", current}, {"to", target}, {"error", e.what()}});
      return;
    }
    clear_warning(v1::reason::kMetadataUpdateFailed);
    status.kafka_metadata_version = target;
    ctx_.log.info("upgraded the KRaft metadata version", {{"from", current}, {"to", target}});
  }

  // A feature level's metadata version name; a level the pinned release does not know (a cluster
  // formatted by a newer Kafka) is said as such.
  static std::string metadata_version_text(std::int16_t level) {
    if (auto name = v1::metadata_version_name(level)) return std::string(*name);
    return "unknown (feature level " + std::to_string(level) + ")";
  }

  // Warnings as Strimzi's: conditions of type Warning, one per reason, each set and cleared on
  // its own (lastTransitionTime kept while it stays). Returns whether it changed.
  bool set_warning(std::string_view reason, const std::string& message) {
    auto& conditions = kafka_.status.conditions;
    auto it = std::find_if(conditions.begin(), conditions.end(),
                           [&](const meta::Condition& c) { return c.type == v1::condition::kWarning && c.reason == reason; });
    std::vector<meta::Condition> one;
    if (it != conditions.end()) one.push_back(*it);
    const bool changed = set_condition(one, v1::condition::kWarning, "True", reason, message, generation_);
    if (it != conditions.end()) *it = std::move(one.front());
    else conditions.push_back(std::move(one.front()));
    return changed;
  }
  void clear_warning(std::string_view reason) {
    std::erase_if(kafka_.status.conditions, [&](const meta::Condition& c) { return c.type == v1::condition::kWarning && c.reason == reason; });
  }

  // A node's pod that has not been Ready for longer than the operation timeout (since it was
  // made, or since it last turned unready) is remembered: the cluster is not Ready while one is.
  void note_if_stuck(const std::string& name, const json::Value& pod) {
    std::string_view since = json::get_string(pod, {"metadata", "creationTimestamp"});
    if (const json::Value* conditions = json::find(pod, {"status", "conditions"}); conditions && conditions->is_array())
      for (const auto& c : conditions->as_array())
        if (json::get_string(c, {"type"}) == "Ready" && !json::get_string(c, {"lastTransitionTime"}).empty())
          since = std::max(since, json::get_string(c, {"lastTransitionTime"}));
    const auto t = meta::parse_rfc3339(since);
    if (!t || meta::Clock::now() - *t <= env_.options.operation_timeout) return;
    stuck_.push_back(name);
  }

  void write_pool_status(const Pool& p, const std::vector<std::int32_t>& ids, const std::string& cluster_id) {
    json::Value before = p.object->value();
    v1::KafkaNodePoolStatus status = p.pool.status;
    status.observed_generation = meta::generation_of(before);
    status.node_ids = ids;
    status.replicas = static_cast<std::int32_t>(ids.size());
    status.roles.clear();
    if (p.pool.spec.controller()) status.roles.emplace_back(v1::role::kController);
    if (p.pool.spec.broker()) status.roles.emplace_back(v1::role::kBroker);
    status.cluster_id = cluster_id;
    status.label_selector = pool_selector(req_.name, p.object->name());
    controller::write_status(env_.client, kNodePoolType.gvr, before, status);
  }

  // Strimzi's broker scale-down check: brokers a scale-down would remove while they still hold
  // partition replicas stay, their pools' scale-down reverted, with a Warning condition saying
  // so, until the replicas are moved away (kafka.capstan.dev/skip-broker-scaledown-check: "true"
  // skips it). When the cluster cannot be asked, the brokers stay too.
  void keep_brokers_holding_replicas(std::vector<PoolNodes>& wanted, std::map<std::string, std::vector<std::int32_t>>& ids) {
    std::map<std::int32_t, std::string> removed;  // node ID -> its pool
    for (const auto& w : wanted) {
      if (!w.broker) continue;
      const auto& keep = ids[w.name];
      for (auto id : w.current)
        if (std::find(keep.begin(), keep.end(), id) == keep.end()) removed[id] = w.name;
    }
    if (removed.empty() || meta::annotation(before_, v1::kSkipScaleDownCheckAnnotation) == "true") {
      clear_warning(v1::reason::kScaleDownPrevented);
      return;
    }
    std::set<std::int32_t> candidates, holding;
    for (const auto& [id, pool] : removed) candidates.insert(id);
    std::string why = "still hold partition replicas";
    try {
      holding = env_.admins->for_cluster(req_.name, req_.ns)->holding_replicas(candidates);
    } catch (const AdminError& e) {
      holding = candidates;
      why = "cannot be checked for partition replicas (" + std::string(e.what()) + ")";
    }
    if (holding.empty()) {
      clear_warning(v1::reason::kScaleDownPrevented);
      return;
    }
    std::set<std::string> reverted;
    std::string brokers;
    for (auto id : holding) {
      reverted.insert(removed[id]);
      brokers += (brokers.empty() ? "" : ", ") + std::to_string(id);
    }
    std::string message;
    for (auto& w : wanted)
      if (reverted.count(w.name)) {
        w.replicas = static_cast<std::int32_t>(w.current.size());
        message += (message.empty() ? "" : "; ") + std::string("Reverting scale-down of KafkaNodePool ") + w.name +
                   " by changing number of replicas to " + std::to_string(w.replicas);
      }
    ids = assign_node_ids(wanted);
    message += ": brokers [" + brokers + "] " + why;
    set_warning(v1::reason::kScaleDownPrevented, message);
    ctx_.log.warn("broker scale-down prevented", {{"message", message}});
  }

  void not_ready(std::string_view reason, const std::string& message) {
    remove_condition(kafka_.status.conditions, v1::condition::kReady);
    set_condition(kafka_.status.conditions, v1::condition::kNotReady, "True", reason, message, generation_);
    if (reason != v1::reason::kCreating) ctx_.log.warn("invalid Kafka cluster", {{"reason", std::string(reason)}, {"message", message}});
  }

  void write() { controller::write_status(env_.client, kKafkaType.gvr, before_, kafka_.status); }

  // A new KRaft cluster ID goes to the status before any node's configuration carries it, on
  // the condition that the Kafka is still the one this reconcile read (its resourceVersion): a
  // reconcile of a cached copy that has not caught up with the ID written before would make a
  // second one, and nodes formatted with two IDs never form a quorum (INCONSISTENT_CLUSTER_ID).
  // False when the copy was stale (the next reconcile reads the ID written).
  bool persist_cluster_id() {
    const json::Value patch = json::Object{
        {"metadata", json::Object{{"resourceVersion", std::string(meta::resource_version_of(before_))}}},
        {"status", json::Object{{"clusterId", kafka_.status.cluster_id}}}};
    try {
      before_ = env_.client.patch(kKafkaType.gvr, req_.ns, req_.name, client::PatchType::Merge, patch,
                                  client::PatchOptions{.subresource = "status"});
    } catch (const client::ApiError& e) {
      if (!client::is_conflict(e)) throw;
      ctx_.log.debug("cluster ID not written: the cached Kafka is behind", {{"resourceVersion", std::string(meta::resource_version_of(before_))}});
      return false;
    }
    ctx_.log.info("new KRaft cluster ID", {{"clusterId", kafka_.status.cluster_id}});
    return true;
  }

  Env& env_;
  const controller::Request& req_;
  controller::Context& ctx_;
  json::Value before_;
  v1::Kafka kafka_;
  std::int64_t generation_ = 0;
  int ready_ = 0;
  std::string cluster_ca_pem_, clients_ca_pem_;
  std::map<std::string, std::string> certificate_hashes_;  // node pod -> hash of its keystore and CAs
  std::optional<CaKeyRollout> ca_keys_;                    // the CAs' key replacement, with the certificates controller
  std::set<std::string> waiting_;                          // nodes whose certificate is not issued yet
  std::vector<std::string> stuck_;                         // nodes not Ready for longer than the operation timeout
  std::map<std::string, meta::TimePoint> resize_pending_;  // node -> when a claim of its began waiting for a file system resize
  const ListenerAddresses* addresses_ = nullptr;           // this reconcile's, once resolved
};

}  // namespace

controller::Result reconcile_kafka(Env& env, const controller::Request& request, controller::Context& ctx) {
  return Reconciler(env, request, ctx).run();
}

}  // namespace capstan::kafka
