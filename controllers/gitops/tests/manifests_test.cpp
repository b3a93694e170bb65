#include "controllers/gitops/manifests.h"
#include "controllers/gitops/substitute.h"

#include "runtime/json/yaml.h"

#include <gtest/gtest.h>

namespace capstan::gitops {
namespace {

using Files = std::map<std::string, std::string>;
using Strings = std::vector<std::string>;

Strings ids(const std::vector<json::Value>& objects) {
  Strings out;
  for (const auto& o : objects)
    out.push_back(std::string(json::get_string(o, {"kind"})) + "/" + std::string(json::get_string(o, {"metadata", "namespace"})) +
                  "/" + std::string(json::get_string(o, {"metadata", "name"})));
  return out;
}

std::string build_error(const Files& files, const BuildOptions& options) {
  try {
    build_manifests(files, options);
  } catch (const BuildError& e) {
    return e.what();
  }
  return "";
}


std::string cm(const std::string& name, const std::string& ns = "") {
  return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + name + (ns.empty() ? "" : ", namespace: " + ns) + "}\ndata: {a: b}\n";
}

TEST(GitopsManifests, PlainDirectoriesAreReadRecursivelyInOrderKeepingOnlyObjects) {
  Files files{{"deploy/a.yaml", cm("a") + "---\n" + cm("b", "other")},
              {"deploy/sub/c.yml", cm("c")},
              {"deploy/values.yaml", "replicas: 3\n"},  // not a Kubernetes object: skipped
              {"deploy/README.md", "# not YAML"},
              {"deploy/z.json", R"({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}})"},
              {"other/d.yaml", cm("d")}};
  BuildOptions o;
  o.path = "./deploy/";
  o.labels = {{"gitops.capstan.dev/name", "app"}};
  auto objects = build_manifests(files, o);
  EXPECT_EQ(ids(objects), (Strings{"ConfigMap//a", "ConfigMap/other/b", "ConfigMap//c", "Namespace//shop"}));
  for (const auto& obj : objects) EXPECT_EQ(json::get_string(obj, {"metadata", "labels", "gitops.capstan.dev/name"}), "app");
  o.path = "";
  EXPECT_EQ(build_manifests(files, o).size(), 5u);
}

TEST(GitopsManifests, KustomizationResourcesAndTransforms) {
  Files files{{"base/kustomization.yaml", "resources: [deploy.yaml, svc.yaml]\ncommonLabels: {app: web}\n"},
              {"base/deploy.yaml", R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {run: web}}
  template: {metadata: {labels: {run: web}}, spec: {containers: [{name: c, image: nginx}]}}
)"},
              {"base/svc.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {run: web}}\n"},
              {"prod/kustomization.yaml", R"(apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: prod
namePrefix: prod-
resources: [../base, extra]
labels: [{pairs: {tier: front}}]
commonAnnotations: {owner: team-a}
)"},
              {"prod/extra/cm.yaml", cm("settings")}};
  BuildOptions o;
  o.path = "prod";
  o.name_suffix = "-v1";
  auto objects = build_manifests(files, o);
  EXPECT_EQ(ids(objects), (Strings{"Deployment/prod/prod-web-v1", "Service/prod/prod-web-v1", "ConfigMap/prod/prod-settings-v1"}));
  const auto& deploy = objects[0];
  EXPECT_EQ(json::get_string(deploy, {"metadata", "labels", "app"}), "web");
  EXPECT_EQ(json::get_string(deploy, {"metadata", "labels", "tier"}), "front");
  EXPECT_EQ(json::get_string(deploy, {"metadata", "annotations", "owner"}), "team-a");
  // commonLabels reach selectors and templates; labels without includeSelectors do not.
  EXPECT_EQ(json::get_string(deploy, {"spec", "selector", "matchLabels", "app"}), "web");
  EXPECT_EQ(json::get_string(deploy, {"spec", "template", "metadata", "labels", "app"}), "web");
  EXPECT_EQ(json::find(deploy, {"spec", "selector", "matchLabels", "tier"}), nullptr);
  EXPECT_EQ(json::get_string(objects[1], {"spec", "selector", "app"}), "web");
  EXPECT_EQ(json::get_string(objects[2], {"metadata", "labels", "tier"}), "front");
  EXPECT_EQ(json::find(objects[2], {"metadata", "labels", "app"}), nullptr);
}

TEST(GitopsManifests, APlainDirectoryBuildsNestedKustomizationsOnce) {
  Files files{{"apps/a/kustomization.yaml", "resources: [cm.yaml]\nnamespace: a\n"},
              {"apps/a/cm.yaml", cm("one")},
              {"apps/a/unused.yaml", cm("unused")},
              {"apps/b.yaml", cm("two")}};
  BuildOptions o;
  o.path = "apps";
  EXPECT_EQ(ids(build_manifests(files, o)), (Strings{"ConfigMap/a/one", "ConfigMap//two"}));
}

TEST(GitopsManifests, NamespacesAndCrdsKeepTheirNames) {
  Files files{{"k/kustomization.yaml", "namePrefix: p-\nresources: [ns.yaml]\n"},
              {"k/ns.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n---\n" + cm("x")}};
  BuildOptions o;
  o.path = "k";
  EXPECT_EQ(ids(build_manifests(files, o)), (Strings{"Namespace//shop", "ConfigMap//p-x"}));
}

TEST(GitopsManifests, ErrorsNameTheFileAndTheReason) {
  BuildOptions o;
  o.path = "k";
  EXPECT_NE(build_error({{"k/kustomization.yaml", "resources: [a.yaml]\nvars: []\n"}}, o).find("k/kustomization.yaml: 'vars' is not supported"),
            std::string::npos);
  // Of crds, only the name references are read; the other extensions are refused by name.
  const std::string crd = R"({"x.v1.Bee": {"Schema": {"properties": {"kind": {}, "apiVersion": {}, "metadata": {},
      "spec": {"x-kubernetes-label-selector": ""}}}}})";
  EXPECT_NE(build_error({{"k/kustomization.yaml", "crds: [bee.json]\n"}, {"k/bee.json", crd}}, o)
                .find("k/bee.json: x.v1.Bee property spec: x-kubernetes-label-selector is not supported"),
            std::string::npos)
      << build_error({{"k/kustomization.yaml", "crds: [bee.json]\n"}, {"k/bee.json", crd}}, o);
  EXPECT_NE(build_error({{"k/kustomization.yaml", "resources: [missing.yaml]\n"}}, o).find("resource missing.yaml not found"),
            std::string::npos);
  EXPECT_NE(build_error({{"k/kustomization.yaml", "resources: [../../x]\n"}}, o).find("outside the repository"), std::string::npos);
  EXPECT_NE(build_error({{"k/kustomization.yaml", "resources: [https://example.com/x.yaml]\n"}}, o).find("remote resource"),
            std::string::npos);
  EXPECT_NE(build_error({{"k/a.yaml", "a: [unclosed\n"}}, o).find("k/a.yaml"), std::string::npos);
  EXPECT_NE(build_error({{"k/a.yaml", cm("x") + "---\n" + cm("x")}}, o).find("two objects are ConfigMap. /x"), std::string::npos);
  EXPECT_NE(build_error({{"other/a.yaml", cm("x")}}, o).find("path k not found"), std::string::npos);
  o.path = "../up";
  EXPECT_NE(build_error({{"a.yaml", cm("x")}}, o).find("leaves the repository"), std::string::npos);
}

TEST(GitopsManifests, CleanPath) {
  EXPECT_EQ(clean_path("./deploy/"), "deploy");
  EXPECT_EQ(clean_path("."), "");
  EXPECT_EQ(clean_path(""), "");
  EXPECT_EQ(clean_path("a/../b//c"), "b/c");
  EXPECT_THROW(clean_path("a/../../b"), BuildError);
}

}  // namespace
}  // namespace capstan::gitops

namespace capstan::gitops {
namespace {

const char* kDeployment = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {tier: front}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      initContainers: [{name: init, image: "busybox:1.36"}]
      containers:
      - {name: web, image: "registry.example:5000/shop/web:1.0"}
      - {name: sidecar, image: "envoyproxy/envoy@sha256:aaaa"}
)";

TEST(GitopsManifests, Json6902PatchesAndImagesAsKustomizeAppliesThem) {
  std::map<std::string, std::string> files{
      {"app/deploy.yaml", std::string(kDeployment) + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: web-config}\ndata: {a: b}\n"},
      {"app/replicas.yaml", "- {op: replace, path: /spec/replicas, value: 3}\n"},
      {"app/kustomization.yaml", R"(resources: [deploy.yaml]
namePrefix: prod-
patches:
- path: replicas.yaml
  target: {kind: Deployment, name: web}
- patch: '[{"op": "add", "path": "/data/c", "value": "d"}]'
  target: {version: v1, kind: ConfigMap, name: "web-.*"}
- patch: '[{"op": "add", "path": "/metadata/annotations", "value": {"front": "yes"}}]'
  target: {labelSelector: tier=front}
images:
- {name: registry.example:5000/shop/web, newTag: "1.1"}
- {name: busybox, newName: mirror.example/busybox}
- {name: envoyproxy/envoy, digest: "sha256:bbbb"}
)"}};
  BuildOptions o;
  o.path = "app";
  auto objects = build_manifests(files, o);
  ASSERT_EQ(objects.size(), 2u);
  const json::Value& d = objects[0];
  EXPECT_EQ(json::get_string(d, {"metadata", "name"}), "prod-web") << "patches select the names before the prefix";
  EXPECT_EQ(json::serialize(*json::find(d, {"spec", "replicas"})), "3");
  EXPECT_EQ(json::get_string(d, {"metadata", "annotations", "front"}), "yes");
  const auto& containers = *json::get_array(d, {"spec", "template", "spec", "containers"});
  EXPECT_EQ(json::get_string(containers[0], {"image"}), "registry.example:5000/shop/web:1.1");
  EXPECT_EQ(json::get_string(containers[1], {"image"}), "envoyproxy/envoy@sha256:bbbb");
  EXPECT_EQ(json::get_string((*json::get_array(d, {"spec", "template", "spec", "initContainers"}))[0], {"image"}), "mirror.example/busybox:1.36");
  EXPECT_EQ(json::get_string(objects[1], {"data", "c"}), "d");
  EXPECT_EQ(json::get_string(objects[1], {"metadata", "annotations", "front"}), "") << "the label selector kept the patch off it";
}

// The build error of app/kustomization.yaml (with `more` files beside it), "" when it builds.
std::string app_error(const std::string& kustomization, Files more = {}) {
  more["app/kustomization.yaml"] = kustomization;
  BuildOptions o;
  o.path = "app";
  return build_error(more, o);
}

TEST(GitopsManifests, PatchErrorsNameTheEntry) {
  auto error = [](const std::string& kustomization) {
    return app_error("resources: [deploy.yaml]\n" + kustomization, {{"app/deploy.yaml", kDeployment}});
  };
  EXPECT_EQ(error("patches: [{patch: 'just words'}]\n"),
            "app/kustomization.yaml: patches[0]: neither a JSON 6902 patch (a list of operations) nor a strategic-merge patch (a map)");
  EXPECT_EQ(error("patches: [{patch: 'apiVersion: apps/v1\n\nkind: Deployment\n\nmetadata: {name: api}'}]\n"),
            "app/kustomization.yaml: patches[0]: no object of the build is the patch's Deployment api");
  EXPECT_EQ(error("patchesStrategicMerge: ['apiVersion: apps/v1\n\nkind: Deployment\n\nmetadata: {name: web}\n\nspec: {template: {spec: {containers: [{image: x}]}}}']\n"),
            "app/kustomization.yaml: patchesStrategicMerge[0] on Deployment web.spec.template.spec.containers[0]: an item of containers without "
            "its merge key name");
  EXPECT_EQ(error("patches: [{path: ../../etc/passwd, target: {kind: Deployment}}]\n"),
            "app/kustomization.yaml: patch ../../etc/passwd is outside the repository");
  EXPECT_EQ(error("patches: [{patch: '[{op: remove, path: /spec/nothing}]', target: {kind: Deployment}}]\n").find(
                "app/kustomization.yaml: patches[0]: patching Deployment web: "),
            0u);
  EXPECT_EQ(error("patches: [{patch: '[]', target: {name: '(web'}}]\n").find("app/kustomization.yaml: patches[0].target.name: invalid regular expression"), 0u);
  EXPECT_EQ(error("images: [{newTag: '2'}]\n"), "app/kustomization.yaml: images[0]: name is required");
}

TEST(GitopsManifests, GeneratorErrorsNameTheEntry) {
  auto error = [](const std::string& kustomization, Files more = {}) { return app_error(kustomization, std::move(more)); };
  // kustomize would read TOKEN from its own environment: a controller's is not the repository's.
  EXPECT_EQ(error("configMapGenerator: [{name: c, envs: [app.env]}]\n", {{"app/app.env", "A=1\nTOKEN\n"}}),
            "app/kustomization.yaml: configMapGenerator[0]: envs app.env line 2: TOKEN has no '=value' (kustomize would read it "
            "from its own environment; Capstan refuses)");
  EXPECT_EQ(error("configMapGenerator: [{name: c, literals: [a=1, a=2]}]\n"),
            "app/kustomization.yaml: configMapGenerator[0]: literal a: key \"a\" is there twice");
  EXPECT_EQ(error("configMapGenerator: [{name: c, literals: [\"a b=1\"]}]\n"),
            "app/kustomization.yaml: configMapGenerator[0]: literal a b: \"a b\" is not a valid key (letters, digits, '-', '_', '.')");
  EXPECT_EQ(error("secretGenerator: [{name: s, behavior: merge, literals: [a=1]}]\n"),
            "app/kustomization.yaml: secretGenerator[0]: behavior merge needs a Secret s in the resources, and there is none");
  EXPECT_EQ(error("configMapGenerator: [{name: c, files: [../../etc/passwd]}]\n"),
            "app/kustomization.yaml: generator source ../../etc/passwd is outside the repository");
  EXPECT_EQ(error("configMapGenerator: [{name: c, literals: [a=1], options: {prune: true}}]\n"),
            "app/kustomization.yaml: configMapGenerator[0].options.prune is not supported (labels, annotations, disableNameSuffixHash, immutable)");
  EXPECT_EQ(error("components: [.]\nresources: []\n"),
            "app/kustomization.yaml: component . is not a Component (kind: Kustomization)");
  const std::string big(700 * 1024, 'x');
  EXPECT_EQ(error("configMapGenerator: [{name: c, files: [a.txt, b.txt]}]\n", {{"app/a.txt", big}, {"app/b.txt", big}}),
            "app/kustomization.yaml: configMapGenerator[0]: the data exceeds 1 MiB");
}

TEST(GitopsManifests, PostBuildSubstitutionAsFlux) {
  Files files{{"app/web.yaml", R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    env: ${ENV}
    team: '${TEAM:=platform}'
spec:
  replicas: ${REPLICAS}
  paused: ${PAUSED:-false}
  template:
    spec:
      containers:
      - name: web
        image: nginx:${TAG}
        env:
        - {name: PORT, value: "${PORT}"}
        - {name: SCRIPT, value: 'echo $HOME and $${HOME}'}
        - {name: EMPTY, value: "${UNSET}"}
)"},
              {"app/skip.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: skip\n  annotations: {gitops.capstan.dev/substitute: disabled}\n"
                                "data: {a: \"${ENV}\"}\n"}};
  BuildOptions o;
  o.path = "app";
  o.variables = Variables{{"ENV", "prod"}, {"REPLICAS", "3"}, {"TAG", "1.27"}, {"PORT", "8080"}};
  auto objects = build_manifests(files, o);
  ASSERT_EQ(objects.size(), 2u);
  const auto& web = json::get_string(objects[1], {"kind"}) == "Deployment" ? objects[1] : objects[0];
  const auto& skip = &web == &objects[0] ? objects[1] : objects[0];
  EXPECT_EQ(json::serialize(*json::find(web, {"metadata", "labels"})), R"({"env":"prod","team":"platform"})");
  EXPECT_EQ(json::serialize(*json::find(web, {"spec", "replicas"})), "3");        // a plain ${} reads back as a number
  EXPECT_EQ(json::serialize(*json::find(web, {"spec", "paused"})), "false");      // and a boolean
  const auto& c = json::find(web, {"spec", "template", "spec", "containers"})->as_array()[0];
  EXPECT_EQ(json::get_string(c, {"image"}), "nginx:1.27");
  EXPECT_EQ(json::serialize(c.at("env")),
            R"([{"name":"PORT","value":"8080"},{"name":"SCRIPT","value":"echo $HOME and ${HOME}"},{"name":"EMPTY","value":""}])");
  EXPECT_EQ(json::get_string(skip, {"data", "a"}), "${ENV}");  // substitution disabled: as in Git, without marks

  // Without postBuild nothing is touched; bad forms name the object and the field.
  o.variables.reset();
  EXPECT_EQ(json::get_string(build_manifests(files, o)[1], {"spec", "replicas"}), "${REPLICAS}");
  o.variables = Variables{};
  files["app/web.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bad}\ndata: {a: '${A^^}'}\n";
  EXPECT_EQ(build_error(files, o), "postBuild: ConfigMap/bad .data.a: ${A^^}: this form of substitution is not supported (${VAR}, "
                                   "${VAR:=default}, ${VAR:-default})");
}

}  // namespace
}  // namespace capstan::gitops
