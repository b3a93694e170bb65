// The real kubectl against `capstan apiserver`: every command a user runs, asserting on what
// kubectl prints. A kubectl command that works against kube-apiserver must work here.
#include "testing/kubectl.h"
#include "runtime/json/json.h"

#include <gtest/gtest.h>

#include <csignal>
#include <regex>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const char* kWidgetCrd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    - {name: Color, type: string, jsonPath: .spec.color, priority: 1}
    - {name: Ready, type: string, jsonPath: '.status.conditions[?(@.type=="Ready")].status'}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
    schema:
      openAPIV3Schema:
        type: object
        description: A Widget is a thing with a size.
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size: {type: integer, minimum: 1, description: How big the widget is.}
              color: {type: string, enum: [red, blue], default: red}
          status:
            type: object
            properties:
              conditions:
                type: array
                items:
                  type: object
                  required: [type, status]
                  properties:
                    type: {type: string}
                    status: {type: string}
)";

const char* kConfigMap = R"(apiVersion: v1
kind: ConfigMap
metadata:
  name: demo
  labels: {app: web}
data:
  k: v
)";

const char* kDeployment = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: app, image: "nginx:1.25", ports: [{containerPort: 80}]}
      - {name: side, image: "busybox:1"}
)";

class KubectlE2E : public KubectlFixture {
 protected:
  KubectlE2E() : KubectlFixture("kubectl") {}
  // ConfigMap `name`; with `owner`, a dependent of that ConfigMap (by uid) that blocks its
  // foreground deletion; with `finalizer`, held by it.
  void configmap(const std::string& name, const std::string& owner = "", const std::string& finalizer = "") {
    std::string md = "  name: " + name + "\n";
    if (!owner.empty()) {
      std::string uid = k().ok({"get", "cm", owner, "-o", "jsonpath={.metadata.uid}"});
      md += "  ownerReferences:\n  - {apiVersion: v1, kind: ConfigMap, name: " + owner + ", uid: " + uid + ", blockOwnerDeletion: true}\n";
    }
    if (!finalizer.empty()) md += "  finalizers: [" + finalizer + "]\n";
    k().ok({"create", "-f", "-"}, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n" + md);
  }
  bool gone(const std::string& name) { return k()({"get", "cm", name}).code == 1; }
  void install_widgets() {
    k().ok({"apply", "-f", "-"}, kWidgetCrd);
    ASSERT_TRUE(eventually([&] { return k()({"get", "widgets"}).code == 0; }, 5s)) << "CRD not served";
  }
};

TEST_P(KubectlE2E, ClientSideApplyCreateUnchangedConfigured) {
  EXPECT_EQ(k().ok({"apply", "-f", "-"}, kConfigMap), "configmap/demo created\n");
  EXPECT_EQ(k().ok({"apply", "-f", "-"}, kConfigMap), "configmap/demo unchanged\n");
  std::string changed = std::regex_replace(kConfigMap, std::regex("k: v"), "k: v2\n  x: \"y\"");
  EXPECT_EQ(k().ok({"apply", "-f", "-"}, changed), "configmap/demo configured\n");
  EXPECT_EQ(k().ok({"get", "cm", "demo", "-o", "jsonpath={.data.k},{.data.x}"}), "v2,y");
  // The last-applied annotation drives removals: dropping x from the manifest deletes it.
  EXPECT_EQ(k().ok({"apply", "-f", "-"}, kConfigMap), "configmap/demo configured\n");
  EXPECT_EQ(k().ok({"get", "cm", "demo", "-o", "jsonpath={.data}"}), "{\"k\":\"v\"}");
}

TEST_P(KubectlE2E, ServerSideApplyAndConflicts) {
  EXPECT_EQ(k().ok({"apply", "--server-side", "-f", "-"}, kConfigMap), "configmap/demo serverside-applied\n");
  std::string other = std::regex_replace(kConfigMap, std::regex("k: v"), "k: other");
  auto r = k()({"apply", "--server-side", "--field-manager=other", "-f", "-"}, other);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("Apply failed with 1 conflict: conflict with \"kubectl\": .data.k"), std::string::npos) << r.err;
  EXPECT_EQ(k().ok({"apply", "--server-side", "--field-manager=other", "--force-conflicts", "-f", "-"}, other),
            "configmap/demo serverside-applied\n");
  EXPECT_EQ(k().ok({"get", "cm", "demo", "-o", "jsonpath={.data.k}"}), "other");
  auto mf = k().ok({"get", "cm", "demo", "-o", "json", "--show-managed-fields"});
  auto v = json::parse(mf);
  const auto* entries = json::get_array(v, {"metadata", "managedFields"});
  ASSERT_NE(entries, nullptr);
  std::set<std::string> managers;
  for (const auto& e : *entries) managers.insert(std::string(json::get_string(e, {"manager"})));
  EXPECT_TRUE(managers.count("other"));
}

TEST_P(KubectlE2E, GetOutputFormatsAndErrors) {
  k().ok({"apply", "-f", "-"}, kConfigMap);
  auto table = k().ok({"get", "cm"});
  EXPECT_TRUE(std::regex_search(table, std::regex("NAME\\s+DATA\\s+AGE\\n(.*\\n)*demo\\s+1\\s+\\d+s"))) << table;
  auto j = json::parse(k().ok({"get", "cm", "demo", "-o", "json"}));
  EXPECT_EQ(json::get_string(j, {"kind"}), "ConfigMap");
  EXPECT_FALSE(json::get_string(j, {"metadata", "uid"}).empty());
  auto y = k().ok({"get", "cm", "demo", "-o", "yaml"});
  EXPECT_NE(y.find("kind: ConfigMap"), std::string::npos);
  EXPECT_NE(y.find("  k: v"), std::string::npos);
  auto wide = k().ok({"get", "ns", "-o", "wide"});
  EXPECT_TRUE(std::regex_search(wide, std::regex("default\\s+Active"))) << wide;
  EXPECT_NE(k().ok({"get", "cm", "-l", "app=web", "-o", "name"}).find("configmap/demo"), std::string::npos);
  EXPECT_EQ(k().ok({"get", "cm", "-l", "app=other", "-o", "name"}), "");
  auto missing = k()({"get", "cm", "nope"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_EQ(missing.err, "Error from server (NotFound): configmaps \"nope\" not found\n");
  auto list = json::parse(k().ok({"get", "cm", "-A", "-o", "json"}));
  EXPECT_EQ(json::get_string(list, {"kind"}), "List");
}

TEST_P(KubectlE2E, WrongTypesInBuiltInKindsAreRejectedAsTheGoDecoderDoes) {
  // YAML 1.1 reads `yes` as a boolean: kube-apiserver refuses it in a ConfigMap's data.
  auto r = k()({"apply", "-f", "-"}, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: typed}\ndata: {flag: yes}\n");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err,
            "Error from server (BadRequest): error when creating \"STDIN\": ConfigMap in version \"v1\" cannot be handled as a "
            "ConfigMap: json: cannot unmarshal bool into Go struct field ConfigMap.data of type string\n");
  EXPECT_EQ(k()({"get", "cm", "typed"}).code, 1) << "nothing was stored";
}

TEST_P(KubectlE2E, DescribeShowsData) {
  k().ok({"apply", "-f", "-"}, kConfigMap);
  auto d = k().ok({"describe", "cm", "demo"});
  EXPECT_TRUE(std::regex_search(d, std::regex("Name:\\s+demo"))) << d;
  EXPECT_TRUE(std::regex_search(d, std::regex("Labels:\\s+app=web"))) << d;
  EXPECT_NE(d.find("Data\n===="), std::string::npos) << d;
}

TEST_P(KubectlE2E, WatchPrintsChanges) {
  k().ok({"apply", "-f", "-"}, kConfigMap);
  Process::Options po;
  po.args = {"/usr/bin/kubectl", "get", "cm", "demo", "-w", "--output-watch-events"};
  po.env = k().env();
  Process watch(po);
  ASSERT_TRUE(eventually([&] { return watch.out().find("demo") != std::string::npos; }, 10s)) << watch.err();
  k().ok({"label", "cm", "demo", "tier=db"});
  k().ok({"delete", "cm", "demo"});
  bool seen = eventually(
      [&] {
        auto o = watch.out();
        return o.find("MODIFIED") != std::string::npos && o.find("DELETED") != std::string::npos;
      },
      10s);
  watch.stop(2s);
  EXPECT_TRUE(seen) << watch.out() << watch.err();
  EXPECT_TRUE(std::regex_search(watch.out(), std::regex("ADDED\\s+demo\\s+1"))) << watch.out();
}

TEST_P(KubectlE2E, PatchTypesLabelAnnotate) {
  k().ok({"apply", "-f", "-"}, kDeployment);
  EXPECT_EQ(k().ok({"patch", "deploy", "web", "--type=merge", "-p", R"({"spec":{"replicas":2}})"}), "deployment.apps/web patched\n");
  EXPECT_EQ(k().ok({"patch", "deploy", "web", "--type=json", "-p", R"([{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:2"}])"}),
            "deployment.apps/web patched\n");
  // Strategic merge: the container list merges by name.
  EXPECT_EQ(k().ok({"patch", "deploy", "web", "-p", R"({"spec":{"template":{"spec":{"containers":[{"name":"side","image":"busybox:2"}]}}}})"}),
            "deployment.apps/web patched\n");
  EXPECT_EQ(k().ok({"get", "deploy", "web", "-o", "jsonpath={.spec.replicas} {.spec.template.spec.containers[*].image}"}),
            "2 nginx:2 busybox:2");
  EXPECT_EQ(k().ok({"patch", "deploy", "web", "--type=merge", "-p", R"({"spec":{"replicas":2}})"}),
            "deployment.apps/web patched (no change)\n");
  EXPECT_EQ(k().ok({"label", "deploy", "web", "tier=front"}), "deployment.apps/web labeled\n");
  auto again = k()({"label", "deploy", "web", "tier=back"});
  EXPECT_NE(again.code, 0);
  EXPECT_NE(again.err.find("'tier' already has a value (front), and --overwrite is false"), std::string::npos) << again.err;
  k().ok({"label", "deploy", "web", "tier=back", "--overwrite"});
  EXPECT_EQ(k().ok({"annotate", "deploy", "web", "owner=team-a"}), "deployment.apps/web annotated\n");
  EXPECT_EQ(k().ok({"get", "deploy", "web", "-o", "jsonpath={.metadata.labels.tier} {.metadata.annotations.owner}"}), "back team-a");
  k().ok({"label", "deploy", "web", "tier-"});
  EXPECT_EQ(k().ok({"get", "deploy", "web", "-o", "jsonpath={.metadata.labels}"}), "");
}

TEST_P(KubectlE2E, ScaleUsesTheScaleSubresource) {
  k().ok({"apply", "-f", "-"}, kDeployment);
  EXPECT_EQ(k().ok({"scale", "deploy", "web", "--replicas=3"}), "deployment.apps/web scaled\n");
  EXPECT_EQ(k().ok({"get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"}), "3");
  auto scale = json::parse(k().ok({"get", "--raw", "/apis/apps/v1/namespaces/default/deployments/web/scale"}));
  EXPECT_EQ(json::get_string(scale, {"kind"}), "Scale");
  EXPECT_EQ(json::get_int(scale, {"spec", "replicas"}).value_or(-1), 3);
  EXPECT_EQ(json::get_string(scale, {"status", "selector"}), "app=web");
  auto table = k().ok({"get", "deploy", "web"});
  EXPECT_TRUE(std::regex_search(table, std::regex("web\\s+0/3\\s+0\\s+0"))) << table;
}

TEST_P(KubectlE2E, ApiResourcesAndExplain) {
  install_widgets();
  auto ar = k().ok({"api-resources"});
  EXPECT_TRUE(std::regex_search(ar, std::regex("configmaps\\s+cm\\s+v1\\s+true\\s+ConfigMap"))) << ar;
  EXPECT_TRUE(std::regex_search(ar, std::regex("deployments\\s+deploy\\s+apps/v1\\s+true\\s+Deployment"))) << ar;
  EXPECT_TRUE(std::regex_search(ar, std::regex("widgets\\s+wd\\s+example.com/v1\\s+true\\s+Widget"))) << ar;
  // kube-apiserver publishes a new CRD's OpenAPI a moment after serving it (as users see:
  // explain may fail for a few seconds after the CRD is applied).
  ASSERT_TRUE(eventually([&] { return k()({"explain", "widgets.spec"}).code == 0; }, 30s, 200ms));
  auto ex = k().ok({"explain", "widgets.spec"});
  EXPECT_NE(ex.find("KIND:       Widget"), std::string::npos) << ex;
  EXPECT_TRUE(std::regex_search(ex, std::regex("size\\s+<integer> -required-"))) << ex;
  EXPECT_NE(ex.find("How big the widget is."), std::string::npos) << ex;
  auto top = k().ok({"explain", "widget"});
  EXPECT_NE(top.find("A Widget is a thing with a size."), std::string::npos) << top;
}

TEST_P(KubectlE2E, CustomResourcePrinterColumnsAndValidation) {
  install_widgets();
  EXPECT_EQ(k().ok({"apply", "-f", "-"}, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {size: 3}\n"),
            "widget.example.com/w1 created\n");
  auto table = k().ok({"get", "widgets"});
  EXPECT_TRUE(std::regex_search(table, std::regex("NAME\\s+SIZE\\s+READY\\s+AGE\\n"))) << table;
  EXPECT_TRUE(std::regex_search(table, std::regex("w1\\s+3\\s+\\s+\\d+s"))) << table;
  auto wide = k().ok({"get", "wd", "-o", "wide"});
  EXPECT_TRUE(std::regex_search(wide, std::regex("NAME\\s+SIZE\\s+COLOR\\s+READY\\s+AGE\\n(.*\\n)*w1\\s+3\\s+red"))) << wide;
  auto bad = k()({"apply", "-f", "-"}, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: bad}\nspec: {size: 0, color: green}\n");
  EXPECT_EQ(bad.code, 1);
  // kube-apiserver lists the two errors in either order (its validator walks a Go map).
  EXPECT_EQ(bad.err.rfind("The Widget \"bad\" is invalid: \n", 0), 0u) << bad.err;
  EXPECT_NE(bad.err.find("\n* spec.color: Unsupported value: \"green\": supported values: \"red\", \"blue\"\n"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("\n* spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1\n"), std::string::npos)
      << bad.err;
  auto unknown = k()({"apply", "-f", "-"}, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: u}\nspec: {size: 1, extra: 1}\n");
  EXPECT_EQ(unknown.code, 1);
  EXPECT_NE(unknown.err.find("strict decoding error: unknown field \"spec.extra\""), std::string::npos) << unknown.err;
}

TEST_P(KubectlE2E, WaitForCondition) {
  install_widgets();
  k().ok({"apply", "-f", "-"}, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {size: 3}\n");
  Process::Options po;
  po.args = {"/usr/bin/kubectl", "wait", "--for=condition=Ready", "widget/w1", "--timeout=20s"};
  po.env = k().env();
  Process wait(po);
  std::this_thread::sleep_for(500ms);
  EXPECT_TRUE(wait.running()) << "wait returned before the condition was set: " << wait.out() << wait.err();
  k().ok({"patch", "widget", "w1", "--subresource=status", "--type=merge", "-p",
          R"({"status":{"conditions":[{"type":"Ready","status":"True"}]}})"});
  auto code = wait.wait(15s);
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, 0) << wait.err();
  EXPECT_EQ(wait.out(), "widget.example.com/w1 condition met\n");
  auto table = k().ok({"get", "widgets"});
  EXPECT_TRUE(std::regex_search(table, std::regex("w1\\s+3\\s+True"))) << table;
}

TEST_P(KubectlE2E, ReplaceAndOptimisticConcurrency) {
  k().ok({"apply", "-f", "-"}, kConfigMap);
  auto obj = k().ok({"get", "cm", "demo", "-o", "json"});
  EXPECT_EQ(k().ok({"replace", "-f", "-"}, obj), "configmap/demo replaced\n");
  // The resourceVersion in `obj` is now stale.
  auto stale = k()({"replace", "-f", "-"}, obj);
  EXPECT_EQ(stale.code, 1);
  EXPECT_NE(stale.err.find("Operation cannot be fulfilled on configmaps \"demo\": the object has been modified; please apply your "
                           "changes to the latest version and try again"),
            std::string::npos)
      << stale.err;
}

TEST_P(KubectlE2E, DeleteWaitsForFinalizers) {
  k().ok({"apply", "-f", "-"},
         "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  finalizers: [example.com/hold]\n");
  auto del = k()({"delete", "cm", "held", "--wait=false"});
  EXPECT_EQ(del.code, 0) << del.err;
  auto ts = k().ok({"get", "cm", "held", "-o", "jsonpath={.metadata.deletionTimestamp}"});
  EXPECT_FALSE(ts.empty()) << "a deleting object with finalizers stays, with a deletionTimestamp";
  auto add = k()({"patch", "cm", "held", "--type=json", "-p", R"([{"op":"add","path":"/metadata/finalizers/-","value":"x/y"}])"});
  EXPECT_NE(add.code, 0);
  EXPECT_NE(add.err.find("no new finalizers can be added if the object is being deleted"), std::string::npos) << add.err;
  k().ok({"patch", "cm", "held", "--type=merge", "-p", R"({"metadata":{"finalizers":null}})"});
  auto gone = k()({"get", "cm", "held"});
  EXPECT_EQ(gone.err, "Error from server (NotFound): configmaps \"held\" not found\n");
}

TEST_P(KubectlE2E, DeleteCascadeForegroundRemovesTheOwnerOnlyAfterItsDependents) {
  configmap("fg");
  configmap("fg-a", "fg");
  configmap("fg-held", "fg", "example.com/hold");
  Process::Options po;
  po.args = {"/usr/bin/kubectl", "delete", "cm", "fg", "--cascade=foreground", "--timeout=60s"};
  po.env = k().env();
  Process del(po);
  // The dependents go first; the one held by its finalizer keeps the owner (and kubectl) waiting.
  ASSERT_TRUE(eventually([&] { return gone("fg-a"); }, 10s)) << "the free dependent is collected";
  ASSERT_TRUE(eventually([&] { return !k().ok({"get", "cm", "fg-held", "-o", "jsonpath={.metadata.deletionTimestamp}"}).empty(); }, 10s));
  EXPECT_EQ(k().ok({"get", "cm", "fg", "-o", "jsonpath={.metadata.finalizers}"}), "[\"foregroundDeletion\"]");
  EXPECT_FALSE(k().ok({"get", "cm", "fg", "-o", "jsonpath={.metadata.deletionTimestamp}"}).empty());
  EXPECT_TRUE(del.running()) << "kubectl waits for the owner: " << del.out() << del.err();
  k().ok({"patch", "cm", "fg-held", "--type=merge", "-p", R"({"metadata":{"finalizers":null}})"});
  auto code = del.wait(30s);
  ASSERT_TRUE(code.has_value()) << "kubectl still waiting";
  EXPECT_EQ(*code, 0) << del.err();
  EXPECT_EQ(del.out(), "configmap \"fg\" deleted\n");
  EXPECT_TRUE(gone("fg"));
  EXPECT_TRUE(gone("fg-held"));
}

TEST_P(KubectlE2E, DeleteCascadeBackgroundCollectsTheDependentsAfterTheOwner) {
  configmap("bg");
  configmap("bg-a", "bg");
  configmap("bg-b", "bg");
  EXPECT_EQ(k().ok({"delete", "cm", "bg", "--cascade=background"}), "configmap \"bg\" deleted\n");
  EXPECT_TRUE(gone("bg"));
  EXPECT_TRUE(eventually([&] { return gone("bg-a") && gone("bg-b"); }, 10s)) << k().ok({"get", "cm"});
}

TEST_P(KubectlE2E, DeleteCascadeOrphanLeavesTheDependentsWithoutTheOwnerReference) {
  configmap("or");
  configmap("or-a", "or");
  configmap("or-b", "or");
  configmap("other");
  configmap("or-c", "other");
  EXPECT_EQ(k().ok({"delete", "cm", "or", "--cascade=orphan"}), "configmap \"or\" deleted\n");
  EXPECT_TRUE(gone("or"));
  for (auto d : {"or-a", "or-b"}) {
    auto r = k()({"get", "cm", d, "-o", "jsonpath={.metadata.ownerReferences}"});
    EXPECT_EQ(r.code, 0) << d << " was collected: " << r.err;
    EXPECT_EQ(r.out, "") << d;
  }
  // A dependent of another owner keeps its reference.
  EXPECT_EQ(k().ok({"get", "cm", "or-c", "-o", "jsonpath={.metadata.ownerReferences[0].name}"}), "other");
}

TEST_P(KubectlE2E, InvalidBuiltInObjectsAreRefusedWithTheirFieldErrors) {
  auto pod = k()({"apply", "-f", "-"}, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: []}\n");
  EXPECT_EQ(pod.code, 1);
  EXPECT_EQ(pod.err, "The Pod \"p\" is invalid: spec.containers: Required value\n");
  auto deploy = k()({"apply", "-f", "-"}, std::regex_replace(kDeployment, std::regex("name: side, image: \"busybox:1\""), "name: C_1"));
  EXPECT_EQ(deploy.code, 1);
  EXPECT_EQ(deploy.err,
            "The Deployment \"web\" is invalid: \n"
            "* spec.template.spec.containers[1].name: Invalid value: \"C_1\": a lowercase RFC 1123 label must consist of lower "
            "case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
            "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\n"
            "* spec.template.spec.containers[1].image: Required value\n");
  auto svc = k()({"create", "service", "clusterip", "web", "--tcp=0"});
  EXPECT_EQ(svc.code, 1);
  EXPECT_NE(svc.err.find("spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive"), std::string::npos) << svc.err;
  auto gen = k()({"create", "-f", "-"}, "apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: Bad_}\n");
  EXPECT_EQ(gen.code, 1);
  EXPECT_TRUE(std::regex_search(gen.err, std::regex("^The ConfigMap \"Bad_[a-z0-9]{5}\" is invalid: \n"
                                                    "\\* metadata.generateName: Invalid value: \"Bad_\": a lowercase RFC 1123 subdomain")))
      << gen.err;
  for (auto what : {"pod/p", "deployment/web", "service/web"}) EXPECT_EQ(k()({"get", what}).code, 1) << what << " was stored";
}

CAPSTAN_E2E_BACKENDS(KubectlE2E);

}  // namespace
}  // namespace capstan::e2e
