#include "apiserver/simulator/kubelet.h"

#include "apiserver/simulator/objects.h"
#include "apiserver/simulator/resources.h"
#include "runtime/json/patch.h"
#include "runtime/meta/object.h"

#include <cstdio>
#include <tuple>

namespace capstan::simulator {
namespace {

constexpr std::uint32_t kPodNet = 0x0AF40000u;  // 10.244.0.0
constexpr std::uint32_t kPodNetSize = 1u << 16;

std::optional<std::uint32_t> parse_ip(std::string_view ip) {
  unsigned a, b, c, d;
  char tail;
  std::string s(ip);
  if (std::sscanf(s.c_str(), "%u.%u.%u.%u%c", &a, &b, &c, &d, &tail) != 4 || a > 255 || b > 255 || c > 255 || d > 255)
    return std::nullopt;
  return (a << 24) | (b << 16) | (c << 8) | d;
}

std::string format_ip(std::uint32_t v) {
  return std::to_string(v >> 24) + "." + std::to_string((v >> 16) & 255) + "." + std::to_string((v >> 8) & 255) + "." +
         std::to_string(v & 255);
}

// 64 hex digits derived from `seed` (stable, so rewriting a status never changes ids).
std::string hex64(std::string_view seed) {
  std::string out;
  std::uint32_t h = fnv32a(seed);
  char buf[9];
  for (int i = 0; i < 8; ++i) {
    h = fnv32a(std::string_view(reinterpret_cast<const char*>(&h), sizeof h), h ^ static_cast<std::uint32_t>(i));
    std::snprintf(buf, sizeof buf, "%08x", h);
    out += buf;
  }
  return out;
}

json::Object condition(std::string_view type, bool status, std::string_view reason, std::string_view message,
                       const json::Value& old_status, const std::string& now) {
  std::string st = status ? "True" : "False";
  std::string ltt = now;
  if (const auto* conds = json::get_array(old_status, {"conditions"}))
    for (const auto& c : *conds)
      if (json::get_string(c, {"type"}) == type && json::get_string(c, {"status"}) == st) {
        auto prev = json::get_string(c, {"lastTransitionTime"});
        if (!prev.empty()) ltt = std::string(prev);
      }
  json::Object o{{"type", type}, {"status", st}, {"lastProbeTime", nullptr}, {"lastTransitionTime", ltt}};
  if (!reason.empty()) o["reason"] = reason;
  if (!message.empty()) o["message"] = message;
  return o;
}

// Replaces the kubelet-owned conditions, keeping the others (readiness gates set by others).
void set_conditions(json::Object& status, std::vector<json::Object> ours) {
  json::Array out;
  for (auto& c : ours) out.emplace_back(std::move(c));
  if (const auto* old = status.if_contains("conditions"); old && old->is_array())
    for (const auto& c : old->as_array()) {
      auto t = json::get_string(c, {"type"});
      bool mine = false;
      for (const auto& o : out) mine |= json::get_string(o, {"type"}) == t;
      if (!mine) out.push_back(c);
    }
  status["conditions"] = std::move(out);
}

bool readiness_gates_pass(const json::Value& pod) {
  const auto* gates = json::get_array(pod, {"spec", "readinessGates"});
  if (!gates) return true;
  for (const auto& g : *gates) {
    auto c = meta::find_condition(pod, json::get_string(g, {"conditionType"}));
    if (!c || c->status != "True") return false;
  }
  return true;
}

json::Object container_status(const json::Value& c, std::string_view pod_uid, bool ready, bool started,
                              const json::Object& state) {
  std::string name(json::get_string(c, {"name"}));
  std::string image = normalize_image(json::get_string(c, {"image"}));
  // The repository without tag or digest: "docker.io/library/nginx".
  std::string repo = image.substr(0, image.find('@'));
  if (auto colon = repo.rfind(':'); colon != std::string::npos && colon > repo.rfind('/')) repo.resize(colon);
  return json::Object{{"name", name},
                      {"image", image},
                      {"imageID", repo + "@sha256:" + hex64(image)},
                      {"containerID", "containerd://" + hex64(std::string(pod_uid) + "/" + name)},
                      {"ready", ready},
                      {"started", started},
                      {"restartCount", 0},
                      {"lastState", json::Object{}},
                      {"state", state}};
}

std::vector<const json::Value*> sorted_containers(const json::Value& pod, std::string_view key) {
  std::vector<const json::Value*> out;
  if (const auto* cs = json::get_array(pod, {"spec", key}))
    for (const auto& c : *cs) out.push_back(&c);
  return out;
}

// The scheduler's binding of a pod to a node (POST pods/NAME/binding); false when the pod
// is gone or already bound (a 409).
bool bind_to_node(Api& api, const std::string& ns, const std::string& name, const std::string& node) {
  json::Value binding = json::Object{{"apiVersion", "v1"},
                                     {"kind", "Binding"},
                                     {"metadata", json::Object{{"name", name}, {"namespace", ns}}},
                                     {"target", json::Object{{"apiVersion", "v1"}, {"kind", "Node"}, {"name", node}}}};
  std::string path = gvr("pods").path(ns) + "/" + name + "/binding?fieldManager=" + api.field_manager();
  try {
    api.client().raw("POST", path, json::serialize(binding), "application/json");
    return true;
  } catch (const ApiError& e) {
    if (client::is_not_found(e) || client::is_conflict(e)) return false;
    throw;
  }
}

}  // namespace

std::optional<std::string> IpPool::allocate() {
  for (std::uint32_t i = 0; i < kPodNetSize; ++i) {
    std::uint32_t off = (next_ + i) % kPodNetSize;
    std::uint32_t host = off & 255;
    if (off < 2 || host == 0 || host == 255) continue;
    std::uint32_t ip = kPodNet + off;
    if (used_.count(ip)) continue;
    used_.insert(ip);
    next_ = off + 1;
    return format_ip(ip);
  }
  return std::nullopt;
}

void IpPool::reserve(std::string_view ip) {
  if (auto v = parse_ip(ip)) used_.insert(*v);
}

void IpPool::release(std::string_view ip) {
  if (auto v = parse_ip(ip)) used_.erase(*v);
}

std::string normalize_image(std::string_view image) {
  std::string img(image);
  if (img.empty()) return img;
  auto slash = img.find('/');
  std::string first = slash == std::string::npos ? "" : img.substr(0, slash);
  bool has_domain = slash != std::string::npos &&
                    (first.find('.') != std::string::npos || first.find(':') != std::string::npos || first == "localhost");
  if (!has_domain) img = (slash == std::string::npos ? "docker.io/library/" : "docker.io/") + img;
  if (img.find('@') == std::string::npos) {
    auto last_slash = img.rfind('/');
    auto colon = img.rfind(':');
    if (colon == std::string::npos || colon < last_slash) img += ":latest";
  }
  return img;
}

Kubelet::Kubelet(client::Client& client, Watches& watches, const WorkloadOptions& options)
    : opts_(options),
      kubelet_(client, "kubelet"),
      scheduler_(client, "kube-scheduler"),
      loop_("kubelet", watches, [this](const Key& k) { return reconcile(k); }) {}

void Kubelet::start() {
  // Addresses of pods that already run (a restarted simulator) are taken before any new pod starts.
  for (const auto& p : kubelet_.list("pods", ""))
    if (auto ip = json::get_string(*p, {"status", "podIP"}); !ip.empty()) ips_.reserve(ip);
  loop_.watch("pods");
  loop_.watch("persistentvolumeclaims");
  for (auto r : {"secrets", "configmaps"})
    loop_.watch(r, [](const Event& e) -> std::vector<Key> {
      if (e.type == EventType::Deleted) return {};  // running containers keep what they read
      return {Key{e.resource, std::string(meta::namespace_of(*e.object)), std::string(meta::name_of(*e.object))}};
    });
  loop_.start();
}

std::chrono::milliseconds Kubelet::reconcile(const Key& k) {
  if (k.resource == "persistentvolumeclaims") {
    wake_pods_using_claim(k);
    return {};
  }
  if (k.resource == "secrets" || k.resource == "configmaps") {
    wake_waiting_pods(k);
    return {};
  }
  return sync_pod(k);
}

void Kubelet::wake_pods_using_claim(const Key& claim) {
  for (const auto& p : kubelet_.list("pods", claim.ns)) {
    if (!json::get_string(*p, {"spec", "nodeName"}).empty()) continue;
    if (const auto* vols = json::get_array(*p, {"spec", "volumes"}))
      for (const auto& v : *vols)
        if (json::get_string(v, {"persistentVolumeClaim", "claimName"}) == claim.name)
          loop_.enqueue(Key{"pods", claim.ns, std::string(meta::name_of(*p))});
  }
}

void Kubelet::wake_waiting_pods(const Key& dep) {
  for (const auto& p : kubelet_.list("pods", dep.ns))
    if (pod_phase(*p) == "Pending" && !meta::is_deleting(*p))
      loop_.enqueue(Key{"pods", dep.ns, std::string(meta::name_of(*p))});
}

std::optional<Kubelet::Blocked> Kubelet::missing_dependency(const json::Value& pod) {
  std::string_view ns = meta::namespace_of(pod);
  auto lookup = [&](std::string_view resource, std::string_view name) {
    return kubelet_.get(resource, ns, name);
  };
  if (const auto* vols = json::get_array(pod, {"spec", "volumes"}))
    for (const auto& v : *vols) {
      for (auto [key, resource, name_key, kind] :
           {std::tuple<const char*, const char*, const char*, const char*>{"secret", "secrets", "secretName", "secret"},
            {"configMap", "configmaps", "name", "configmap"}}) {
        const auto* src = json::get_object(v, {key});
        if (!src || json::get_bool(v, {key, "optional"})) continue;
        auto name = json::get_string(v, {key, name_key});
        if (!name.empty() && !lookup(resource, name))
          return Blocked{"ContainerCreating", "MountVolume.SetUp failed for volume \"" + std::string(json::get_string(v, {"name"})) +
                                                  "\" : " + kind + " \"" + std::string(name) + "\" not found"};
      }
    }
  for (auto list : {"initContainers", "containers"}) {
    const auto* cs = json::get_array(pod, {"spec", list});
    if (!cs) continue;
    for (const auto& c : *cs) {
      if (const auto* env = json::get_array(c, {"env"}))
        for (const auto& e : *env)
          for (auto [key, resource, kind] : {std::tuple<const char*, const char*, const char*>{"secretKeyRef", "secrets", "Secret"},
                                             {"configMapKeyRef", "configmaps", "ConfigMap"}}) {
            const auto* ref = json::get_object(e, {"valueFrom", key});
            if (!ref || json::get_bool(e, {"valueFrom", key, "optional"})) continue;
            auto name = json::get_string(e, {"valueFrom", key, "name"});
            auto want = json::get_string(e, {"valueFrom", key, "key"});
            auto obj = lookup(resource, name);
            std::string lower = std::string(resource).substr(0, std::string(resource).size() - 1);
            if (!obj) return Blocked{"CreateContainerConfigError", lower + " \"" + std::string(name) + "\" not found"};
            bool has = json::find(*obj, {"data", want}) || json::find(*obj, {"binaryData", want}) ||
                       (std::string_view(resource) == "secrets" && json::find(*obj, {"stringData", want}));
            if (!has)
              return Blocked{"CreateContainerConfigError", "couldn't find key " + std::string(want) + " in " + kind + " " +
                                                               std::string(ns) + "/" + std::string(name)};
          }
      if (const auto* from = json::get_array(c, {"envFrom"}))
        for (const auto& f : *from)
          for (auto [key, resource] : {std::pair<const char*, const char*>{"secretRef", "secrets"}, {"configMapRef", "configmaps"}}) {
            if (!json::get_object(f, {key}) || json::get_bool(f, {key, "optional"})) continue;
            auto name = json::get_string(f, {key, "name"});
            std::string lower = std::string(resource).substr(0, std::string(resource).size() - 1);
            if (!lookup(resource, name)) return Blocked{"CreateContainerConfigError", lower + " \"" + std::string(name) + "\" not found"};
          }
    }
  }
  return std::nullopt;
}

void Kubelet::forget(const std::string& key) {
  auto it = running_.find(key);
  if (it == running_.end()) return;
  if (!it->second.ip.empty() && it->second.ip != opts_.host_ip) ips_.release(it->second.ip);
  running_.erase(it);
}

Kubelet::Running& Kubelet::track(const std::string& key, const json::Value& pod) {
  std::string uid(meta::uid_of(pod));
  auto it = running_.find(key);
  if (it != running_.end() && it->second.uid == uid) return it->second;
  if (it != running_.end()) forget(key);
  Running r;
  r.uid = uid;
  auto now_sys = meta::Clock::now();
  r.since = std::chrono::steady_clock::now();
  r.started_at = meta::format_rfc3339(now_sys);
  if (auto st = json::get_string(pod, {"status", "startTime"}); !st.empty() && pod_phase(pod) == "Running") {
    // Already running before we (re)started: count its time from then.
    if (auto t = meta::parse_rfc3339(st); t && *t <= now_sys) {
      r.since -= std::chrono::duration_cast<std::chrono::steady_clock::duration>(now_sys - *t);
      r.started_at = std::string(st);
    }
  }
  if (json::get_bool(pod, {"spec", "hostNetwork"})) {
    r.ip = opts_.host_ip;
  } else if (auto ip = json::get_string(pod, {"status", "podIP"}); !ip.empty()) {
    r.ip = std::string(ip);
    ips_.reserve(ip);
  } else if (auto fresh = ips_.allocate()) {
    r.ip = *fresh;
  } else {
    throw std::runtime_error("pod network 10.244.0.0/16 is exhausted");
  }
  return running_[key] = std::move(r);
}

std::optional<std::string> Kubelet::unbound_claim(const json::Value& pod) {
  const auto* vols = json::get_array(pod, {"spec", "volumes"});
  if (!vols) return std::nullopt;
  std::string_view ns = meta::namespace_of(pod);
  for (const auto& v : *vols) {
    auto claim = json::get_string(v, {"persistentVolumeClaim", "claimName"});
    if (claim.empty()) continue;
    auto pvc = kubelet_.get("persistentvolumeclaims", ns, claim);
    if (!pvc || meta::is_deleting(*pvc) || json::get_string(*pvc, {"status", "phase"}) != "Bound") return std::string(claim);
  }
  return std::nullopt;
}

std::chrono::milliseconds Kubelet::ready_delay(const json::Value& container) const {
  auto d = opts_.pod_ready_delay;
  if (opts_.honor_probe_delays)
    d += std::chrono::seconds(int_at(container, {"readinessProbe", "initialDelaySeconds"}));
  return d;
}

std::chrono::milliseconds Kubelet::sync_pod(const Key& k) {
  std::string key = meta::make_key(k.ns, k.name);
  auto obj = kubelet_.get("pods", k.ns, k.name);
  if (!obj) {
    forget(key);
    return {};
  }
  const json::Value& pod = *obj;
  if (auto node = json::get_string(pod, {"spec", "nodeName"}); !node.empty() && node != opts_.node_name) {
    forget(key);
    return {};  // another node's kubelet runs it
  }
  std::string now = meta::format_rfc3339(meta::Clock::now());

  if (meta::is_deleting(pod)) {
    // Held by finalizers: the containers stop; the pod ends Succeeded (exit code 0).
    if (json::get_string(pod, {"spec", "nodeName"}).empty()) return {};
    if (!pod_terminal(pod)) kubelet_.mutate("pods", k.ns, k.name, true, [&](json::Value& cur) {
      json::Value before = cur;
      auto& status = json::ensure_object(cur, {"status"});
      json::Value old_status = status;
      status["phase"] = "Succeeded";
      set_conditions(status, {condition("PodReadyToStartContainers", false, "", "", old_status, now),
                              condition("Initialized", true, "", "", old_status, now),
                              condition("Ready", false, "PodCompleted", "", old_status, now),
                              condition("ContainersReady", false, "PodCompleted", "", old_status, now),
                              condition("PodScheduled", true, "", "", old_status, now)});
      if (auto* cs = status.if_contains("containerStatuses"); cs && cs->is_array())
        for (auto& c : cs->as_array()) {
          auto& co = c.as_object();
          std::string started(json::get_string(c, {"state", "running", "startedAt"}, now));
          co["ready"] = false;
          co["started"] = false;
          co["state"] = json::Object{{"terminated", json::Object{{"exitCode", 0},
                                                                {"reason", "Completed"},
                                                                {"startedAt", started},
                                                                {"finishedAt", now},
                                                                {"containerID", co["containerID"]}}}};
        }
      return !json::deep_equal(before, cur);
    });
    // Graceful deletion (kube-apiserver) ends when the kubelet deletes with grace 0 once the
    // containers have stopped; finalizers may still hold the object afterwards.
    if (int_at(pod, {"metadata", "deletionGracePeriodSeconds"}) > 0)
      kubelet_.remove("pods", k.ns, k.name, meta::uid_of(pod), client::Propagation::Unset, 0);
    return {};
  }
  if (pod_terminal(pod)) return {};

  if (json::get_string(pod, {"spec", "nodeName"}).empty()) {
    if (auto claim = unbound_claim(pod)) {
      kubelet_.mutate("pods", k.ns, k.name, true, [&](json::Value& cur) {
        json::Value before = cur;
        auto& status = json::ensure_object(cur, {"status"});
        json::Value old_status = status;
        status["phase"] = "Pending";
        set_conditions(status, {condition("PodScheduled", false, "Unschedulable",
                                          "0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims.",
                                          old_status, now)});
        return !json::deep_equal(before, cur);
      });
      return {};  // woken when the claim changes
    }
    if (!meta::is_deleting(pod)) bind_to_node(scheduler_, k.ns, k.name, opts_.node_name);
    return {};  // the binding's event brings the pod back here
  }

  std::optional<Blocked> blocked;
  if (pod_phase(pod) != "Running") blocked = missing_dependency(pod);  // started containers keep running
  if (blocked) {
    // The containers cannot start: Pending, waiting with the kubelet's reason.
    forget(key);
    kubelet_.mutate("pods", k.ns, k.name, true, [&](json::Value& cur) {
      if (meta::is_deleting(cur)) return false;
      json::Value before = cur;
      auto& status = json::ensure_object(cur, {"status"});
      json::Value old_status = status;
      status["phase"] = "Pending";
      status["hostIP"] = opts_.host_ip;
      status["hostIPs"] = json::Array{json::Object{{"ip", opts_.host_ip}}};
      status.erase("podIP");
      status.erase("podIPs");
      if (!status.contains("startTime")) status["startTime"] = now;
      json::Array statuses;
      std::string names;
      for (const auto* c : sorted_containers(cur, "containers")) {
        std::string name(json::get_string(*c, {"name"}));
        names += (names.empty() ? "" : " ") + name;
        json::Object waiting{{"reason", blocked->reason}};
        if (blocked->reason != "ContainerCreating") waiting["message"] = blocked->message;
        auto st = container_status(*c, meta::uid_of(cur), false, false, json::Object{{"waiting", std::move(waiting)}});
        st.erase("containerID");
        st.erase("imageID");
        statuses.emplace_back(std::move(st));
      }
      std::sort(statuses.begin(), statuses.end(), [](const json::Value& x, const json::Value& y) {
        return json::get_string(x, {"name"}) < json::get_string(y, {"name"});
      });
      status["containerStatuses"] = std::move(statuses);
      std::string msg = "containers with unready status: [" + names + "]";
      set_conditions(status, {condition("PodReadyToStartContainers", blocked->reason != "ContainerCreating", "", "", old_status, now),
                              condition("Initialized", true, "", "", old_status, now),
                              condition("Ready", false, "ContainersNotReady", msg, old_status, now),
                              condition("ContainersReady", false, "ContainersNotReady", msg, old_status, now),
                              condition("PodScheduled", true, "", "", old_status, now)});
      return !json::deep_equal(before, cur);
    });
    return {};  // woken when a Secret or ConfigMap in the namespace changes
  }

  Running& run = track(key, pod);
  auto elapsed = std::chrono::steady_clock::now() - run.since;
  const std::string_view ready_annotation = meta::annotation(pod, kSimulateReadyAnnotation);
  std::chrono::milliseconds next{0};
  auto ready_now = [&](const json::Value& c) {
    auto d = ready_delay(c);
    if (ready_annotation == "false") return false;
    if (ready_annotation == "true") return true;
    if (elapsed >= d) return true;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(d - elapsed) + std::chrono::milliseconds(1);
    if (next.count() == 0 || left < next) next = left;
    return false;
  };

  json::Array statuses, init_statuses;
  bool all_ready = true;
  for (const auto* c : sorted_containers(pod, "containers")) {
    bool r = ready_now(*c);
    all_ready &= r;
    statuses.emplace_back(container_status(*c, run.uid, r, true,
                                           json::Object{{"running", json::Object{{"startedAt", run.started_at}}}}));
  }
  for (const auto* c : sorted_containers(pod, "initContainers")) {
    if (json::get_string(*c, {"restartPolicy"}) == "Always") {  // a sidecar: runs alongside
      bool r = ready_now(*c);
      all_ready &= r;
      init_statuses.emplace_back(container_status(*c, run.uid, r, true,
                                                  json::Object{{"running", json::Object{{"startedAt", run.started_at}}}}));
    } else {
      init_statuses.emplace_back(container_status(
          *c, run.uid, true, false,
          json::Object{{"terminated", json::Object{{"exitCode", 0},
                                                  {"reason", "Completed"},
                                                  {"startedAt", run.started_at},
                                                  {"finishedAt", run.started_at}}}}));
    }
  }
  auto by_name = [](json::Array& a) {
    std::sort(a.begin(), a.end(), [](const json::Value& x, const json::Value& y) {
      return json::get_string(x, {"name"}) < json::get_string(y, {"name"});
    });
  };
  by_name(statuses);
  by_name(init_statuses);

  kubelet_.mutate("pods", k.ns, k.name, true, [&](json::Value& cur) {
    if (meta::uid_of(cur) != run.uid || meta::is_deleting(cur)) return false;
    json::Value before = cur;
    auto& status = json::ensure_object(cur, {"status"});
    json::Value old_status = status;
    bool gates = readiness_gates_pass(cur);
    bool pod_is_ready = all_ready && gates;
    status["phase"] = "Running";
    status["hostIP"] = opts_.host_ip;
    status["hostIPs"] = json::Array{json::Object{{"ip", opts_.host_ip}}};
    status["podIP"] = run.ip;
    status["podIPs"] = json::Array{json::Object{{"ip", run.ip}}};
    status["startTime"] = run.started_at;
    status["containerStatuses"] = statuses;
    if (!init_statuses.empty()) status["initContainerStatuses"] = init_statuses;
    std::string not_ready_msg;
    if (!all_ready) {
      std::string names;
      for (const auto& s : statuses)
        if (!json::get_bool(s, {"ready"})) names += (names.empty() ? "" : " ") + std::string(json::get_string(s, {"name"}));
      not_ready_msg = "containers with unready status: [" + names + "]";
    }
    std::string gate_msg = "corresponding condition of pod readiness gate is not True";
    set_conditions(status,
                   {condition("PodReadyToStartContainers", true, "", "", old_status, now),
                    condition("Initialized", true, "", "", old_status, now),
                    condition("Ready", pod_is_ready, pod_is_ready ? "" : (all_ready ? "ReadinessGatesNotReady" : "ContainersNotReady"),
                              pod_is_ready ? "" : (all_ready ? gate_msg : not_ready_msg), old_status, now),
                    condition("ContainersReady", all_ready, all_ready ? "" : "ContainersNotReady", not_ready_msg, old_status, now),
                    condition("PodScheduled", true, "", "", old_status, now)});
    return !json::deep_equal(before, cur);
  });
  return next;
}

}  // namespace capstan::simulator
