#include "testing/kafka_pods.h"

#include "apis/kafka/v1/group.h"
#include "runtime/json/json.h"
#include "runtime/meta/base64.h"

#include <sstream>

namespace capstan::e2e {
namespace {

using apis::kafka::v1::kClusterLabel;
using apis::kafka::v1::kPodNameLabel;

// kubectl get ... -o json, parsed; null when it fails (not there).
json::Value get_json(const Kubectl& kubectl, const std::vector<std::string>& args) {
  auto r = kubectl(args);
  if (r.code != 0 || r.out.empty()) return nullptr;
  return json::parse(r.out);
}

std::string mount_path(const json::Value& container, std::string_view volume) {
  if (const json::Value* mounts = json::find(container, {"volumeMounts"}); mounts && mounts->is_array())
    for (const auto& m : mounts->as_array())
      if (json::get_string(m, {"name"}) == volume) return std::string(json::get_string(m, {"mountPath"}));
  return "";
}

}  // namespace

std::map<std::string, std::string> read_secret_data(const Kubectl& kubectl, const std::string& ns, const std::string& name) {
  std::map<std::string, std::string> out;
  const json::Value secret = get_json(kubectl, {"get", "secret", name, "-n", ns, "-o", "json"});
  if (secret.is_null()) return out;
  if (const json::Value* data = json::find(secret, {"data"}); data && data->is_object())
    for (const auto& kv : data->as_object()) out[std::string(kv.key())] = meta::base64_decode(kv.value().as_string()).value_or("");
  return out;
}

KafkaNodeSpec read_kafka_node(const Kubectl& kubectl, const std::string& ns, const std::string& pod, KafkaNetwork* network) {
  const json::Value object = get_json(kubectl, {"get", "pod", pod, "-n", ns, "-o", "json"});
  const json::Value config = get_json(kubectl, {"get", "configmap", pod, "-n", ns, "-o", "json"});
  if (object.is_null() || config.is_null()) throw std::runtime_error("Kafka node " + pod + ": no pod or ConfigMap of that name in " + ns);
  const json::Value& container = object.at("spec").at("containers").at(0);
  KafkaNodeSpec n;
  n.pod = pod;
  n.host = std::string(json::get_string(object, {"spec", "hostname"})) + "." + std::string(json::get_string(object, {"spec", "subdomain"})) +
           "." + ns + ".svc";
  n.server_config = json::get_string(config, {"data", "server.config"});
  n.cluster_id = json::get_string(config, {"data", "cluster.id"});
  n.metadata_version = json::get_string(config, {"data", "metadata.version"});
  // The release Strimzi's image runs: the node runs that release's jars (kafka_libs_dir).
  const std::string_view image = json::get_string(container, {"image"});
  if (const auto at = image.rfind("-kafka-"); at != std::string_view::npos) n.kafka_version = image.substr(at + 7);
  if (network) {
    const json::Value services = get_json(kubectl, {"get", "services", "-n", ns, "-o", "json"});
    if (!services.is_null())
      for (const auto& svc : services.at("items").as_array())
        if (json::get_string(svc, {"spec", "selector", std::string(kPodNameLabel)}) == pod)
          network->alias(std::string(json::get_string(svc, {"metadata", "name"})) + "." + ns + ".svc", n.host);
  }
  if (const json::Value* env = json::find(container, {"env"}); env && env->is_array())
    for (const auto& e : env->as_array())
      if (json::get_string(e, {"name"}) == "KAFKA_METRICS_ENABLED" && json::get_string(e, {"value"}) == "true")
        n.metrics_config = json::get_string(config, {"data", "metrics-config.json"});
  // The rack init container's part (controllers/kafka/rack.h): rack.id on its volume, the label
  // RACK_TOPOLOGY_KEY names of the pod's Node.
  if (const json::Value* init = json::find(object, {"spec", "initContainers"}); init && init->is_array())
    for (const auto& c : init->as_array())
      if (const json::Value* env = json::find(c, {"env"}); env && env->is_array())
        for (const auto& e : env->as_array())
          if (json::get_string(e, {"name"}) == "RACK_TOPOLOGY_KEY") {
            const std::string node(json::get_string(object, {"spec", "nodeName"}));
            const json::Value labels = get_json(kubectl, {"get", "node", node, "-o", "jsonpath={.metadata.labels}"});
            const std::string rack = labels.is_null() ? "" : std::string(json::get_string(labels, {json::get_string(e, {"value"})}));
            if (rack.empty()) throw std::runtime_error("Kafka node " + pod + ": its Node " + node + " has no label " +
                                                       std::string(json::get_string(e, {"value"})));
            const json::Value* mounts = json::find(c, {"volumeMounts"});
            if (!mounts || !mounts->is_array() || mounts->as_array().empty())
              throw std::runtime_error("Kafka node " + pod + ": its rack init container mounts no volume");
            n.mounts[std::string(json::get_string(mounts->as_array()[0], {"mountPath"}))]["rack.id"] = rack;
          }
  for (const auto& volume : object.at("spec").at("volumes").as_array()) {
    const std::string_view name = json::get_string(volume, {"name"});
    if (name == "data" || name.rfind("data-", 0) == 0) n.data_mount_paths.push_back(mount_path(container, name));
    const std::string_view secret = json::get_string(volume, {"secret", "secretName"});
    if (secret.empty()) continue;
    const std::string path = mount_path(container, json::get_string(volume, {"name"}));
    for (const auto& [file, content] : read_secret_data(kubectl, ns, std::string(secret))) n.mounts[path][file] = content;
  }
  return n;
}

KafkaPodAgent::KafkaPodAgent(const Kubectl& kubectl, KafkaBrokers& brokers, std::string ns, std::string cluster,
                             std::function<std::string()> in_sync_check)
    : kubectl_(kubectl), brokers_(brokers), ns_(std::move(ns)), cluster_(std::move(cluster)), in_sync_check_(std::move(in_sync_check)) {
  thread_ = std::thread([this] { run(); });
}

KafkaPodAgent::~KafkaPodAgent() {
  stop_ = true;
  thread_.join();
}

void KafkaPodAgent::run() {
  while (!stop_) {
    try {
      sync();
    } catch (const std::exception& e) {
      record("", "error", e.what());  // a pod between two reads; the next round reads again
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

void KafkaPodAgent::sync() {
  const json::Value pods = get_json(kubectl_, {"get", "pods", "-n", ns_, "-l", std::string(kClusterLabel) + "=" + cluster_, "-o", "json"});
  if (pods.is_null()) return;
  std::map<std::string, const json::Value*> by_name;
  for (const auto& p : pods.at("items").as_array()) by_name[std::string(json::get_string(p, {"metadata", "name"}))] = &p;
  auto live_uid = [&](const std::string& pod) -> std::string {  // "" when gone or going
    auto it = by_name.find(pod);
    if (it == by_name.end() || json::find(*it->second, {"metadata", "deletionTimestamp"})) return "";
    return std::string(json::get_string(*it->second, {"metadata", "uid"}));
  };
  auto mark_ready = [&](const std::string& pod) {
    kubectl_({"annotate", "--overwrite", "pod", pod, "-n", ns_, "workloads.capstan.dev/ready=true"});
    record(pod, "ready");
  };
  if (first_) {  // the nodes running already are those of the pods there now
    first_ = false;
    for (const auto& [pod, p] : by_name)
      if (const std::string uid = live_uid(pod); !uid.empty() && brokers_.listening(pod)) {
        running_[pod] = uid;
        mark_ready(pod);
      }
  }
  for (auto* tracked : {&running_, &starting_})
    for (auto it = tracked->begin(); it != tracked->end();) {
      if (live_uid(it->first) == it->second) {
        ++it;
        continue;
      }
      const std::string note = in_sync_check_ ? in_sync_check_() : "";
      brokers_.stop(it->first);
      record(it->first, "stopped", note);
      it = tracked->erase(it);
    }
  for (const auto& [pod, p] : by_name) {
    const std::string uid = live_uid(pod);
    if (uid.empty() || running_.contains(pod) || starting_.contains(pod) || json::get_string(*p, {"status", "phase"}) != "Running" ||
        held(pod))
      continue;
    brokers_.start(read_kafka_node(kubectl_, ns_, pod));
    starting_[pod] = uid;
    record(pod, "started");
  }
  for (auto it = starting_.begin(); it != starting_.end();) {
    if (!brokers_.listening(it->first)) {
      ++it;
      continue;
    }
    mark_ready(it->first);
    running_[it->first] = it->second;
    it = starting_.erase(it);
  }
}

void KafkaPodAgent::hold(const std::string& pod, bool held) {
  std::lock_guard<std::mutex> lock(mu_);
  if (held) held_.insert(pod);
  else held_.erase(pod);
}

bool KafkaPodAgent::held(const std::string& pod) const {
  std::lock_guard<std::mutex> lock(mu_);
  return held_.contains(pod);
}

void KafkaPodAgent::record(const std::string& pod, const std::string& what, const std::string& note) {
  std::lock_guard<std::mutex> lock(mu_);
  steps_.push_back({std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count(), pod, what, note});
}

std::vector<KafkaPodAgent::Step> KafkaPodAgent::steps() const {
  std::lock_guard<std::mutex> lock(mu_);
  return steps_;
}

std::string KafkaPodAgent::journal() const {
  std::ostringstream out;
  for (const auto& s : steps()) out << s.at << " s " << s.pod << " " << s.what << (s.note.empty() ? "" : ": " + s.note) << "\n";
  return out.str();
}

}  // namespace capstan::e2e
