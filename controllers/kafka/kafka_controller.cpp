#include "controllers/kafka/kafka_controller.h"

#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/types.h"
#include "apis/kafka/v1/validation.h"
#include "controllers/kafka/env.h"
#include "controllers/kafka/nodes.h"
#include "controllers/kafka/objects.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/controller/status.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"
#include "runtime/meta/pod.h"

#include <openssl/rand.h>

#include <algorithm>
#include <map>
#include <set>

namespace capstan::kafka {
namespace {

namespace v1 = apis::kafka::v1;
using controller::remove_condition;
using controller::set_condition;
using std::chrono::milliseconds;

struct Pool {
  cache::ObjectPtr object;
  v1::NodePoolSpec spec;
};

std::string new_cluster_id() {
  unsigned char bytes[16];
  RAND_bytes(bytes, sizeof bytes);
  return meta::base64url_encode(std::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes));
}

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
    if (!cached || cached->deleting()) return controller::Result::done();  // its objects go with it (GC)
    before_ = cached->value();
    obj_ = before_;
    controller::status_of(obj_)["observedGeneration"] = meta::generation_of(obj_);
    if (meta::annotation(obj_, v1::kPauseAnnotation) == "true") {
      set_condition(obj_, v1::condition::kReconciliationPaused, "True", "", "");
      write();
      return controller::Result::done();
    }
    remove_condition(obj_, v1::condition::kReconciliationPaused);
    spec_ = v1::parse_kafka_spec(obj_);
    auto pools = pools_of_cluster();
    std::vector<std::string> errors;
    for (const auto& c : v1::validate_kafka(obj_)) errors.push_back(c.error());
    check_roles(pools, errors);
    if (!errors.empty()) {
      not_ready(v1::reason::kInvalidResource, join(errors, "; "));
      write();
      return controller::Result::after(env_.options.full_reconciliation);
    }

    auto& status = controller::status_of(obj_);
    std::string cluster_id(json::get_string(before_, {"status", "clusterId"}));
    if (cluster_id.empty()) cluster_id = new_cluster_id();
    status["clusterId"] = cluster_id;

    std::vector<PoolNodes> wanted;
    for (const auto& p : pools) {
      PoolNodes pn{std::string(p.object->name()), static_cast<std::int32_t>(p.spec.replicas), {}, p.spec.broker, p.spec.controller};
      const json::Value pool = p.object->value();  // value() parses: keep it while reading into it
      if (const auto* ids = json::get_array(pool, {"status", "nodeIds"}))
        for (const auto& id : *ids)
          if (id.is_int64()) pn.current.push_back(static_cast<std::int32_t>(id.as_int64()));
      wanted.push_back(std::move(pn));
    }
    auto ids = assign_node_ids(wanted);
    std::vector<Node> nodes;
    for (const auto& p : pools)
      for (auto id : ids[std::string(p.object->name())]) nodes.push_back({id, std::string(p.object->name()), p.spec.broker, p.spec.controller});

    const std::string_view fm = kFieldManager;
    env_.client.apply(kServiceType.gvr, req_.ns, brokers_service(before_, spec_), fm, true);
    env_.client.apply(kServiceType.gvr, req_.ns, bootstrap_service(before_, spec_), fm, true);
    std::map<std::string, json::Value> desired_pods;
    for (const auto& n : nodes) {
      const auto& pool = *std::find_if(pools.begin(), pools.end(), [&](const Pool& p) { return p.object->name() == n.pool; });
      std::string config = server_config(spec_, req_.name, req_.ns, n, nodes);
      env_.client.apply(kConfigMapType.gvr, req_.ns, node_configmap(before_, n, config), fm, true);
      if (pool.spec.storage.type == "persistent-claim")
        env_.client.apply(kClaimType.gvr, req_.ns, node_claim(before_, n, pool.spec.storage), fm, true);
      desired_pods[n.pod_name(req_.name)] = node_pod(before_, spec_, pool.spec, n, config);
    }
    bool settled = manage_pods(desired_pods, nodes, pools);

    for (const auto& p : pools) write_pool_status(p, ids[std::string(p.object->name())], cluster_id);

    json::Array listeners;
    for (const auto& l : spec_.listeners) {
      std::string host = bootstrap_service_name(req_.name) + "." + req_.ns + ".svc";
      listeners.push_back(json::Object{{"name", l.name},
                                       {"addresses", json::Array{json::Object{{"host", host}, {"port", l.port}}}},
                                       {"bootstrapServers", host + ":" + std::to_string(l.port)}});
    }
    status["listeners"] = std::move(listeners);
    json::Array pool_names;
    for (const auto& p : pools) pool_names.push_back(json::Object{{"name", p.object->name()}});
    status["kafkaNodePools"] = std::move(pool_names);
    status["kafkaVersion"] = spec_.effective_version();
    status["kafkaMetadataVersion"] = spec_.effective_metadata_version();

    if (settled) {
      remove_condition(obj_, v1::condition::kNotReady);
      set_condition(obj_, v1::condition::kReady, "True", "", "");
    } else if (!meta::find_condition(before_, v1::condition::kReady)) {  // mid-roll, a Ready cluster stays Ready
      not_ready(v1::reason::kCreating, "Kafka cluster is being deployed: " + std::to_string(ready_) + " of " +
                                           std::to_string(nodes.size()) + " nodes ready");
    }
    write();
    return controller::Result::after(settled ? env_.options.full_reconciliation : milliseconds(5'000));
  }

 private:
  std::vector<Pool> pools_of_cluster() {
    std::vector<Pool> out;
    for (const auto& p : env_.pools.list(req_.ns))
      if (p->label(v1::kClusterLabel) == req_.name) out.push_back({p, v1::parse_node_pool_spec(p->value())});
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
      for (const auto& c : v1::validate_kafka_node_pool(p.object->value()))
        pool_errors.push_back("KafkaNodePool " + std::string(p.object->name()) + " " + c.error());
      errors.insert(errors.end(), pool_errors.begin(), pool_errors.end());
      if (!pool_errors.empty()) continue;
      nodes += p.spec.replicas;
      broker |= p.spec.broker && p.spec.replicas > 0;
      controller |= p.spec.controller && p.spec.replicas > 0;
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
        if (p.object->name() == pool && p.spec.storage.delete_claim) env_.client.remove(kClaimType.gvr, req_.ns, "data-" + name, d);
    }
    std::vector<std::string> stale;  // controllers first, then brokers
    ready_ = 0;
    for (const auto& n : nodes) {
      std::string name = n.pod_name(req_.name);
      const auto& want = desired.at(name);
      auto it = live.find(name);
      if (it == live.end()) {
        env_.client.apply(kPodType.gvr, req_.ns, want, kFieldManager, true);
        continue;
      }
      if (meta::annotation(it->second, v1::kRevisionAnnotation) != meta::annotation(want, v1::kRevisionAnnotation)) {
        if (n.controller) stale.insert(stale.begin(), name);
        else stale.push_back(name);
      } else if (meta::pod_ready(it->second)) {
        ++ready_;
      }
    }
    bool all_up = live.size() >= nodes.size();
    for (const auto& [name, pod] : live)
      if (desired.contains(name) && !meta::pod_ready(pod)) all_up = false;
    if (!stale.empty() && all_up) {
      ctx_.log.info("rolling a node to its new revision", {{"pod", stale.front()}});
      env_.client.remove(kPodType.gvr, req_.ns, stale.front(), d);  // recreated at its new revision next time
    }
    return stale.empty() && ready_ == static_cast<int>(nodes.size());
  }

  void write_pool_status(const Pool& p, const std::vector<std::int32_t>& ids, const std::string& cluster_id) {
    json::Value before = p.object->value();
    json::Value pool = before;
    auto& s = controller::status_of(pool);
    json::Array node_ids, roles;
    for (auto id : ids) node_ids.emplace_back(id);
    if (p.spec.controller) roles.emplace_back("controller");
    if (p.spec.broker) roles.emplace_back("broker");
    s["observedGeneration"] = meta::generation_of(pool);
    s["nodeIds"] = std::move(node_ids);
    s["replicas"] = static_cast<std::int64_t>(ids.size());
    s["roles"] = std::move(roles);
    s["clusterId"] = cluster_id;
    s["labelSelector"] = pool_selector(req_.name, p.object->name());
    controller::write_status(env_.client, kNodePoolType.gvr, before, pool);
  }

  void not_ready(std::string_view reason, const std::string& message) {
    remove_condition(obj_, v1::condition::kReady);
    set_condition(obj_, v1::condition::kNotReady, "True", reason, message);
    if (reason != v1::reason::kCreating) ctx_.log.warn("invalid Kafka cluster", {{"reason", std::string(reason)}, {"message", message}});
  }

  void write() { controller::write_status(env_.client, kKafkaType.gvr, before_, obj_); }

  Env& env_;
  const controller::Request& req_;
  controller::Context& ctx_;
  json::Value before_, obj_;
  v1::KafkaSpec spec_;
  int ready_ = 0;
};

}  // namespace

controller::Result reconcile_kafka(Env& env, const controller::Request& request, controller::Context& ctx) {
  return Reconciler(env, request, ctx).run();
}

}  // namespace capstan::kafka
