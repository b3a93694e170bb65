#include "testing/kustomize_trees.h"

#include "runtime/json/json.h"

#include <random>
#include <set>
#include <vector>

namespace capstan::e2e {
namespace {

using Files = std::map<std::string, std::string>;


class TreeGenerator {
 public:
  explicit TreeGenerator(unsigned seed) : rng_(seed) {}

  Files tree() {
    Files files;
    base(files);
    std::string top = "base";
    const int overlays = pick(0, 2);
    for (int i = 0; i < overlays; ++i) {
      std::string dir = "overlay" + std::to_string(i);
      overlay(files, dir, "../" + top, i);
      top = dir;
    }
    files["kustomization.yaml"] = json::serialize(json::Object{{"resources", json::Array{top}}});
    return files;
  }

 private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool coin(int percent = 50) { return pick(1, 100) <= percent; }
  template <class T>
  const T& one(const std::vector<T>& v) {
    return v[static_cast<std::size_t>(pick(0, static_cast<int>(v.size()) - 1))];
  }

  static json::Value meta(const std::string& name) { return json::Object{{"name", name}}; }

  json::Value pod_spec() {
    json::Object container{{"name", "app"}, {"image", one<std::string>({"nginx", "nginx:1.25", "registry.example.com/team/api:v2", "busybox"})}};
    json::Array env_from, env, volumes, mounts;
    if (coin(70)) env_from.push_back(json::Object{{"configMapRef", json::Object{{"name", "settings"}}}});
    if (coin(50)) env.push_back(json::Object{{"name", "PASSWORD"}, {"valueFrom", json::Object{{"secretKeyRef", json::Object{{"name", "creds"}, {"key", "password"}}}}}});
    if (coin(40)) env.push_back(json::Object{{"name", "MODE"}, {"valueFrom", json::Object{{"configMapKeyRef", json::Object{{"name", "extra"}, {"key", "mode"}}}}}});
    if (coin(50)) volumes.push_back(json::Object{{"name", "conf"}, {"configMap", json::Object{{"name", "files"}}}});
    if (coin(40)) volumes.push_back(json::Object{{"name", "tls"}, {"secret", json::Object{{"secretName", "tls"}}}});
    if (coin(30)) volumes.push_back(json::Object{{"name", "data"}, {"persistentVolumeClaim", json::Object{{"claimName", "data"}}}});
    if (coin(20)) volumes.push_back(json::Object{{"name", "ext"}, {"configMap", json::Object{{"name", "not-in-the-build"}}}});
    if (!env_from.empty()) container["envFrom"] = env_from;
    if (!env.empty()) container["env"] = env;
    json::Object spec{{"containers", json::Array{container}}};
    if (!volumes.empty()) spec["volumes"] = volumes;
    if (coin(60)) spec["serviceAccountName"] = "runner";
    if (coin(20)) spec["imagePullSecrets"] = json::Array{json::Object{{"name", "pull"}}};
    return spec;
  }

  json::Value workload(const std::string& kind, const std::string& name) {
    json::Object labels{{"app", name}};
    json::Object template_{{"metadata", json::Object{{"labels", labels}}}, {"spec", pod_spec()}};
    json::Object spec{{"template", template_}};
    if (kind != "Job") spec["selector"] = json::Object{{"matchLabels", labels}};
    if (kind == "Deployment" || kind == "StatefulSet") spec["replicas"] = pick(1, 3);
    if (kind == "StatefulSet") {
      spec["serviceName"] = "web";
      if (coin())
        spec["volumeClaimTemplates"] = json::Array{json::Object{
            {"metadata", meta("data")},
            {"spec", json::Object{{"accessModes", json::Array{"ReadWriteOnce"}}, {"storageClassName", "fast"},
                                  {"resources", json::Object{{"requests", json::Object{{"storage", "1Gi"}}}}}}}}};
    }
    std::string api = kind == "Job" ? "batch/v1" : "apps/v1";
    if (kind == "CronJob")
      return json::Object{{"apiVersion", "batch/v1"}, {"kind", "CronJob"}, {"metadata", meta(name)},
                          {"spec", json::Object{{"schedule", "*/5 * * * *"}, {"jobTemplate", json::Object{{"spec", json::Object{{"template", template_}}}}}}}};
    return json::Object{{"apiVersion", api}, {"kind", kind}, {"metadata", meta(name)}, {"spec", spec}};
  }

  std::vector<json::Value> resources() {
    std::vector<json::Value> out;
    out.push_back(workload("Deployment", "web"));
    if (coin()) out.push_back(workload("StatefulSet", "db"));
    if (coin(30)) out.push_back(workload(one<std::string>({"DaemonSet", "Job", "CronJob"}), "task"));
    if (coin(70))
      out.push_back(json::Object{{"apiVersion", "v1"}, {"kind", "Service"}, {"metadata", meta("web")},
                                 {"spec", json::Object{{"selector", json::Object{{"app", "web"}}}, {"ports", json::Array{json::Object{{"port", 80}}}}}}});
    if (coin(70)) out.push_back(json::Object{{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", meta("runner")}});
    if (coin(40)) {
      out.push_back(json::Object{{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", "Role"}, {"metadata", meta("reader")},
                                 {"rules", json::Array{json::Object{{"apiGroups", json::Array{""}}, {"resources", json::Array{"pods"}}, {"verbs", json::Array{"get"}}}}}});
      json::Array subjects{json::Object{{"kind", "ServiceAccount"}, {"name", "runner"}}};
      if (coin()) subjects.push_back(json::Object{{"kind", "ServiceAccount"}, {"name", "elsewhere"}, {"namespace", "kube-system"}});
      out.push_back(json::Object{{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", "RoleBinding"}, {"metadata", meta("reader")},
                                 {"roleRef", json::Object{{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "Role"}, {"name", "reader"}}},
                                 {"subjects", subjects}});
    }
    if (coin(30)) {
      out.push_back(json::Object{{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", "ClusterRole"}, {"metadata", meta("viewer")},
                                 {"rules", json::Array{json::Object{{"apiGroups", json::Array{""}}, {"resources", json::Array{"nodes"}}, {"verbs", json::Array{"list"}}}}}});
      out.push_back(json::Object{{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", "ClusterRoleBinding"}, {"metadata", meta("viewer")},
                                 {"roleRef", json::Object{{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", "viewer"}}},
                                 {"subjects", json::Array{json::Object{{"kind", "ServiceAccount"}, {"name", "runner"}, {"namespace", "default"}}}}});
    }
    if (coin(40)) {
      json::Object backend{{"service", json::Object{{"name", "web"}, {"port", json::Object{{"number", 80}}}}}};
      out.push_back(json::Object{
          {"apiVersion", "networking.k8s.io/v1"}, {"kind", "Ingress"}, {"metadata", meta("web")},
          {"spec", json::Object{{"tls", json::Array{json::Object{{"hosts", json::Array{"shop.example.com"}}, {"secretName", "tls"}}}},
                                {"rules", json::Array{json::Object{{"host", "shop.example.com"},
                                                                   {"http", json::Object{{"paths", json::Array{json::Object{
                                                                                             {"path", "/"}, {"pathType", "Prefix"}, {"backend", backend}}}}}}}}}}}});
    }
    if (coin(30))
      out.push_back(json::Object{{"apiVersion", "v1"}, {"kind", "PersistentVolumeClaim"}, {"metadata", meta("data")},
                                 {"spec", json::Object{{"accessModes", json::Array{"ReadWriteOnce"}}, {"storageClassName", "fast"},
                                                       {"resources", json::Object{{"requests", json::Object{{"storage", "1Gi"}}}}}}}});
    if (coin(20)) out.push_back(json::Object{{"apiVersion", "storage.k8s.io/v1"}, {"kind", "StorageClass"}, {"metadata", meta("fast")}, {"provisioner", "example.com/disk"}});
    if (coin(30))
      out.push_back(json::Object{{"apiVersion", "autoscaling/v2"}, {"kind", "HorizontalPodAutoscaler"}, {"metadata", meta("web")},
                                 {"spec", json::Object{{"scaleTargetRef", json::Object{{"apiVersion", "apps/v1"}, {"kind", "Deployment"}, {"name", "web"}}},
                                                       {"minReplicas", 1}, {"maxReplicas", 4}}}});
    if (coin(20)) out.push_back(json::Object{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", meta("team")}});
    if (coin(20))
      out.push_back(json::Object{{"apiVersion", "example.com/v1"}, {"kind", "Widget"}, {"metadata", meta("gadget")},
                                 {"spec", json::Object{{"size", 3}, {"tags", json::Array{"old"}},
                                                       {"items", json::Array{json::Object{{"name", "a"}, {"weight", 1}}, json::Object{{"name", "b"}, {"weight", 2}}}}}}});
    if (coin(20))
      out.push_back(json::Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta("extra")}, {"data", json::Object{{"mode", "fast"}}}});
    return out;
  }

  std::string literal_value() {
    return one<std::string>({"1", "on", "a b", "<tag>&amp;", "\"quoted\"", "'single'", "x=y", "caf\xC3\xA9", "", "line"});
  }

  json::Value generator(Files& files, const std::string& dir, const std::string& name, const std::string& behavior, bool secret) {
    json::Object g{{"name", name}};
    if (behavior != "create") g["behavior"] = behavior;
    json::Array literals;
    for (int i = 0, n = pick(0, 3); i < n; ++i) { std::string l = "k" + std::to_string(pick(0, 5)) + "=" + literal_value(); literals.emplace_back(l); }
    std::set<std::string> keys;
    json::Array unique;
    for (const auto& l : literals) {
      std::string key(l.as_string().subview().substr(0, l.as_string().subview().find('=')));
      if (keys.insert(key).second) unique.push_back(l);
    }
    if (!unique.empty()) g["literals"] = unique;
    if (coin(40)) {
      std::string file = name + "-" + std::to_string(pick(0, 99)) + ".conf";
      files[dir + "/" + file] = coin(85) ? "server {\n  listen 80;\n}\n" : std::string("\x89PNG\r\n\x1a\n\x00\x01", 10);
      g["files"] = json::Array{coin() ? json::Value(file) : json::Value("custom.conf=" + file)};
    }
    if (coin(30)) {
      std::string file = name + ".env";
      files[dir + "/" + file] = "# settings\nLOG_LEVEL=debug\n\n  TIMEOUT=30s\nEMPTY=\n";
      g["envs"] = json::Array{file};
    }
    if (g.size() == 1 || (g.size() == 2 && g.contains("behavior"))) g["literals"] = json::Array{"fallback=" + literal_value()};
    if (coin(15)) g["options"] = json::Object{{"disableNameSuffixHash", true}};
    if (coin(15)) g["options"] = json::Object{{"labels", json::Object{{"generated", "yes"}}}, {"annotations", json::Object{{"note", "from a generator"}}}};
    if (secret && coin(20)) g["type"] = "kubernetes.io/tls-like";
    return g;
  }

  void transforms(json::Object& k, int level) {
    if (coin(40)) k["namespace"] = one<std::string>({"shop", "team", "default", "prod"});
    if (coin(50)) k["namePrefix"] = one<std::string>({"p-", "team-", "x"}) + (level ? std::to_string(level) : "");
    if (coin(30)) k["nameSuffix"] = one<std::string>({"-s", "-v2"});
    if (coin(30)) k["commonLabels"] = json::Object{{"tier", one<std::string>({"front", "back"})}};
    if (coin(30)) {
      // A key of its own per level: kustomize (v5.5) also rewrites a Service selector's key that a
      // lower level's includeSelectors set, even without includeSelectors here (a quirk of its
      // YAML node handling that we do not copy).
      json::Object l{{"pairs", json::Object{{"team" + std::to_string(level), "shop"}}}};
      if (coin()) l["includeSelectors"] = true;
      k["labels"] = json::Array{l};
    }
    if (coin(30)) k["commonAnnotations"] = json::Object{{"owner", "platform"}};
    if (coin(30)) k["images"] = json::Array{json::Object{{"name", "nginx"}, {"newTag", "1.27"}}};
    if (coin(25)) k["replicas"] = json::Array{json::Object{{"name", "web"}, {"count", pick(2, 5)}}};
    json::Array patches;
    if (coin(20))
      patches.push_back(json::Object{{"target", json::Object{{"kind", "Deployment"}, {"name", "web"}}},
                                     {"patch", "- op: add\n  path: /metadata/annotations/patched\n  value: \"yes\"\n"}});
    if (coin(30))  // strategic merge, naming its object: lists merged by their keys
      patches.push_back(json::Object{{"patch", R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  template:
    metadata:
      annotations: {rollout: "2"}
    spec:
      containers:
      - name: app
        env:
        - {name: EXTRA, value: "1"}
        - {name: PASSWORD, $patch: delete}
        ports:
        - {containerPort: 8080, name: http}
      - name: sidecar
        image: busybox
      volumes:
      - name: cache
        emptyDir: {}
      - name: conf
        configMap: {name: files, defaultMode: 420}
)"}});
    if (coin(20))  // strategic merge on every object of a target; a map replaced; a field removed
      patches.push_back(json::Object{{"target", json::Object{{"kind", "StatefulSet|Deployment"}}},
                                     {"patch", "kind: Any\nmetadata: {name: any, labels: {patched: \"yes\"}}\nspec:\n  selector: null\n"
                                               "  template:\n    metadata:\n      labels: {$patch: replace, app: replaced}\n"}});
    if (coin(15))  // custom resources: maps merged, lists replaced (no schema)
      patches.push_back(json::Object{{"target", json::Object{{"kind", "Widget"}}},
                                     {"patch", "kind: Widget\nmetadata: {name: any}\nspec:\n  items:\n  - {name: b, weight: 5}\n  - {name: c}\n  tags: [new]\n"}});
    if (coin(10))  // deleting objects
      patches.push_back(json::Object{{"target", json::Object{{"kind", "HorizontalPodAutoscaler"}}},
                                     {"patch", "$patch: delete\nkind: HorizontalPodAutoscaler\nmetadata: {name: any}\n"}});
    if (!patches.empty()) k["patches"] = patches;
    if (coin(10) && level == 0)
      k["patchesStrategicMerge"] = json::Array{"apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: runner}\nimagePullSecrets:\n- name: pull\n"};
  }

  void base(Files& files) {
    json::Array names;
    std::string docs;
    for (auto& r : resources()) docs += (docs.empty() ? "" : "---\n") + json::serialize(r) + "\n";
    files["base/resources.yaml"] = docs;
    json::Object k{{"resources", json::Array{"resources.yaml"}}};
    json::Array cms{generator(files, "base", "settings", "create", false)};
    if (coin(70)) cms.push_back(generator(files, "base", "files", "create", false));
    k["configMapGenerator"] = cms;
    json::Array secrets{generator(files, "base", "creds", "create", true)};
    if (coin(40)) secrets.push_back(generator(files, "base", "tls", "create", true));
    k["secretGenerator"] = secrets;
    if (coin(15)) k["generatorOptions"] = json::Object{{"labels", json::Object{{"kustomize", "made"}}}};
    transforms(k, 0);
    files["base/kustomization.yaml"] = json::serialize(k);
  }

  void overlay(Files& files, const std::string& dir, const std::string& below, int level) {
    json::Object k{{"resources", json::Array{below}}};
    if (coin(60)) k["configMapGenerator"] = json::Array{generator(files, dir, "settings", coin() ? "merge" : "replace", false)};
    if (coin(30)) k["secretGenerator"] = json::Array{generator(files, dir, "pull", "create", true)};
    if (coin(30)) {
      std::string comp = dir + "/component";
      json::Object c{{"apiVersion", "kustomize.config.k8s.io/v1alpha1"}, {"kind", "Component"}};
      c["configMapGenerator"] = json::Array{generator(files, comp, "extra-" + std::to_string(level), "create", false)};
      if (coin()) c["commonAnnotations"] = json::Object{{"component", "on"}};
      files[comp + "/kustomization.yaml"] = json::serialize(c);
      k["components"] = json::Array{"component"};
    }
    transforms(k, level + 1);
    files[dir + "/kustomization.yaml"] = json::serialize(k);
  }

  std::mt19937 rng_;
};

}  // namespace

std::map<std::string, std::string> kustomize_tree(unsigned seed) { return TreeGenerator(seed).tree(); }

}  // namespace capstan::e2e
