// PATCH in every content type, server-side apply with conflicts and force, and the
// client-side apply kubectl does (its last-applied annotation and strategic merge).
#include "e2e/differential/session.h"

namespace capstan::e2e::diff {
namespace {

const std::string kCms = "/api/v1/namespaces/{ns}/configmaps";
const std::string kDeploys = "/apis/apps/v1/namespaces/{ns}/deployments";

const char* kDeployment = R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
  "spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
  "spec":{"containers":[{"name":"app","image":"nginx:1.25","env":[{"name":"A","value":"1"}]},{"name":"side","image":"busybox:1"}]}}}})";

Request patch(const std::string& path, const std::string& body, const std::string& type) {
  return {.method = "PATCH", .path = path, .body = body, .content_type = type};
}

}  // namespace

DIFF_CASE(patch, MergeAndJsonPatch) {
  s.setup({.method = "POST", .path = kCms,
           .body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"m","labels":{"a":"1","b":"2"}},"data":{"x":"1","y":"2"}})"});
  s.send("merge: change, add, delete", patch(kCms + "/m", R"({"metadata":{"labels":{"a":"10","b":null,"c":"3"}},"data":{"y":null}})",
                                             "application/merge-patch+json"));
  s.send("json patch: add, replace, remove",
         patch(kCms + "/m", R"([{"op":"add","path":"/data/z","value":"3"},{"op":"replace","path":"/data/x","value":"9"},{"op":"remove","path":"/metadata/labels/c"}])",
               "application/json-patch+json"));
  s.send("json patch: a failing test op", patch(kCms + "/m", R"([{"op":"test","path":"/data/x","value":"nope"}])", "application/json-patch+json"));
  s.send("json patch: remove a missing path", patch(kCms + "/m", R"([{"op":"remove","path":"/data/missing"}])", "application/json-patch+json"));
  s.send("json patch: not an array", patch(kCms + "/m", R"({"op":"add"})", "application/json-patch+json"));
  s.send("merge patch of a missing object", patch(kCms + "/missing", R"({"data":{"a":"b"}})", "application/merge-patch+json"));
  s.send("an unknown patch type", patch(kCms + "/m", R"({"data":{"a":"b"}})", "application/x-yaml"));
  s.send("a patch changing the name", patch(kCms + "/m", R"({"metadata":{"name":"other"}})", "application/merge-patch+json"));
}

DIFF_CASE(patch, StrategicMergeOnBuiltInTypes) {
  s.setup({.method = "POST", .path = kDeploys, .body = kDeployment});
  s.send("containers merge by name",
         patch(kDeploys + "/web", R"({"spec":{"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.26","env":[{"name":"B","value":"2"}]}]}}}})",
               "application/strategic-merge-patch+json"));
  s.send("$patch: delete",
         patch(kDeploys + "/web", R"({"spec":{"template":{"spec":{"containers":[{"name":"side","$patch":"delete"}]}}}})",
               "application/strategic-merge-patch+json"));
  s.send("$retainKeys and $setElementOrder",
         patch(kDeploys + "/web",
               R"({"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"name":"app","ports":[{"containerPort":80}]}]}}}})",
               "application/strategic-merge-patch+json"));
}

DIFF_CASE(patch, ServerSideApplyConflictsAndForce) {
  const std::string body = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ssa"},"data":{"k":"v"}})";
  s.send("apply creates", patch(kCms + "/ssa?fieldManager=one", body, "application/apply-patch+yaml"));
  s.send("apply again changes nothing", patch(kCms + "/ssa?fieldManager=one", body, "application/apply-patch+yaml"));
  const std::string other = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ssa"},"data":{"k":"other"}})";
  s.send("another manager conflicts", patch(kCms + "/ssa?fieldManager=two", other, "application/apply-patch+yaml"));
  s.send("force takes the field", patch(kCms + "/ssa?fieldManager=two&force=true", other, "application/apply-patch+yaml"));
  s.send("the first manager's apply now conflicts", patch(kCms + "/ssa?fieldManager=one", body, "application/apply-patch+yaml"));
  s.send("a manager drops its field", patch(kCms + "/ssa?fieldManager=two&force=true",
                                             R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ssa"}})", "application/apply-patch+yaml"));
  s.send("without a fieldManager", patch(kCms + "/ssa", body, "application/apply-patch+yaml"));
  s.send("YAML body", patch(kCms + "/yaml?fieldManager=one", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yaml\ndata:\n  a: b\n",
                            "application/apply-patch+yaml"));
  s.send("dry-run apply", patch(kCms + "/dry?fieldManager=one&dryRun=All",
                                R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dry"}})", "application/apply-patch+yaml"));
  s.send("apply with a name that differs from the URL", patch(kCms + "/ssa?fieldManager=one",
                                                              R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}})", "application/apply-patch+yaml"));
  s.send("managedFields", {.path = kCms + "/ssa"});
}

DIFF_CASE(patch, KubectlClientAndServerSideApply) {
  const std::string manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: {ns}\ndata:\n  a: \"1\"\n  b: \"2\"\n";
  s.kubectl("apply creates", {"apply", "-f", "-"}, manifest);
  s.kubectl("apply unchanged", {"apply", "-f", "-"}, manifest);
  s.kubectl("apply drops b", {"apply", "-f", "-"}, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: {ns}\ndata:\n  a: \"1\"\n");
  s.kubectl("the stored object", {"get", "cm", "applied", "-n", "{ns}", "-o", "jsonpath={.data}{.metadata.annotations}"});
  s.kubectl("server-side apply", {"apply", "--server-side", "-f", "-"}, manifest);
  s.kubectl("server-side apply conflict", {"apply", "--server-side", "--field-manager=other", "-f", "-"},
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: {ns}\ndata:\n  a: \"other\"\n");
  s.kubectl("kubectl patch", {"patch", "cm", "applied", "-n", "{ns}", "--type=merge", "-p", R"({"data":{"c":"3"}})"});
  s.kubectl("kubectl label", {"label", "cm", "applied", "-n", "{ns}", "x=y"});
  Compare temp_dirs;
  temp_dirs.masks.text.emplace_back(std::regex("/tmp/(LIVE|MERGED)-[0-9]+"), "/tmp/<dir>");
  temp_dirs.masks.text.emplace_back(std::regex("generation: [0-9]+"), "generation: <n>");
  s.kubectl("kubectl diff", {"diff", "-f", "-"}, manifest, temp_dirs);
}

}  // namespace capstan::e2e::diff
