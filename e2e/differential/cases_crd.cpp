// CustomResourceDefinitions: structural schema defaulting, pruning, validation errors (types,
// enums, bounds, patterns, required, CEL rules), the status and scale subresources,
// generation, printer columns as Tables, and the CRD's OpenAPI v3.
#include "e2e/differential/crd_fixture.h"

namespace capstan::e2e::diff {
namespace {

const std::string kGadgets = "/apis/diff.example.com/v1/namespaces/{ns}/gadgets";

std::string gadget(const std::string& name, const std::string& spec) {
  return R"({"apiVersion":"diff.example.com/v1","kind":"Gadget","metadata":{"name":")" + name + R"("},"spec":)" + spec + "}";
}

}  // namespace

DIFF_CASE(crd, DefaultingAndPruning) {
  install_gadgets(s);
  Compare warning;
  warning.headers = {"Warning"};
  s.send("defaults fill in, unknown fields are pruned",
         {.method = "POST", .path = kGadgets, .body = gadget("d", R"({"size":3,"unknown":"x","nested":{"keep":"a","drop":"b"}})")}, warning);
  s.send("read back", {.path = kGadgets + "/d"});
  s.send("preserved unknown fields stay", {.method = "POST", .path = kGadgets,
                                            .body = gadget("p", R"({"size":1,"free":{"anything":{"goes":[1,2]}}})")});
  s.send("Strict refuses unknown fields", {.method = "POST", .path = kGadgets + "?fieldValidation=Strict",
                                           .body = gadget("s", R"({"size":1,"unknown":"x"})")});
  s.send("an unknown top-level field", {.method = "POST", .path = kGadgets,
                                        .body = R"({"apiVersion":"diff.example.com/v1","kind":"Gadget","metadata":{"name":"t"},"spec":{"size":1},"extra":1})"},
         warning);
}

DIFF_CASE(crd, ValidationErrors) {
  install_gadgets(s);
  s.send("required missing", {.method = "POST", .path = kGadgets, .body = gadget("r", R"({"color":"red"})")});
  s.send("wrong type", {.method = "POST", .path = kGadgets, .body = gadget("w", R"({"size":"three"})")});
  s.send("enum", {.method = "POST", .path = kGadgets, .body = gadget("e", R"({"size":1,"color":"green"})")});
  s.send("minimum and maximum", {.method = "POST", .path = kGadgets, .body = gadget("m", R"({"size":0,"replicas":1000})")});
  s.send("pattern and maxLength", {.method = "POST", .path = kGadgets, .body = gadget("p", R"({"size":1,"code":"abc-12345678901"})")});
  s.send("maxItems and unique map keys", {.method = "POST", .path = kGadgets,
                                          .body = gadget("i", R"({"size":1,"ports":[{"name":"a","port":1},{"name":"a","port":2},{"name":"b","port":3},{"name":"c","port":4}]})")});
  s.send("a CEL rule across fields holds", {.method = "POST", .path = kGadgets, .body = gadget("c", R"({"size":5,"replicas":2})")});
  s.send("a CEL rule across fields fails", {.method = "POST", .path = kGadgets, .body = gadget("c2", R"({"size":2,"replicas":5})")});
  s.send("several errors at once", {.method = "POST", .path = kGadgets, .body = gadget("all", R"({"size":"x","color":"green","replicas":-1})")});
  s.send("metadata.name is validated", {.method = "POST", .path = kGadgets, .body = gadget("Bad_Name", R"({"size":1})")});
  s.send("update without resourceVersion", {.method = "POST", .path = kGadgets, .body = gadget("u", R"({"size":1})")});
  s.send("put without resourceVersion", {.method = "PUT", .path = kGadgets + "/u", .body = gadget("u", R"({"size":2})")});
  s.send("strategic merge is unsupported", {.method = "PATCH", .path = kGadgets + "/u", .body = R"({"spec":{"size":2}})",
                                            .content_type = "application/strategic-merge-patch+json"});
}

DIFF_CASE(crd, StatusAndScaleSubresourcesAndGeneration) {
  install_gadgets(s);
  auto created = s.send("create", {.method = "POST", .path = kGadgets, .body = gadget("g", R"({"size":5,"replicas":1})")});
  s.send("status written through the main resource is ignored",
         {.method = "PATCH", .path = kGadgets + "/g", .body = R"({"status":{"phase":"Up"},"spec":{"size":2}})",
          .content_type = "application/merge-patch+json"});
  s.send("spec written through /status is ignored",
         {.method = "PATCH", .path = kGadgets + "/g/status", .body = R"({"status":{"phase":"Up","readyReplicas":1},"spec":{"size":9}})",
          .content_type = "application/merge-patch+json"});
  s.send("a metadata change keeps the generation", {.method = "PATCH", .path = kGadgets + "/g", .body = R"({"metadata":{"labels":{"a":"b"}}})",
                                                    .content_type = "application/merge-patch+json"});
  s.send("scale", {.path = kGadgets + "/g/scale"});
  // Within the CEL rule replicas <= size (size is 2 by now); the next one breaks it, and the
  // rule refuses the scale (422) as it would refuse the same write to the resource.
  s.send("scale up", {.method = "PATCH", .path = kGadgets + "/g/scale", .body = R"({"spec":{"replicas":2}})",
                      .content_type = "application/merge-patch+json"});
  s.send("scale up beyond the CEL rule", {.method = "PATCH", .path = kGadgets + "/g/scale", .body = R"({"spec":{"replicas":3}})",
                                          .content_type = "application/merge-patch+json"});
  s.send("after scaling", {.path = kGadgets + "/g"});
  s.send("status of a missing object", {.path = kGadgets + "/missing/status"});
}

DIFF_CASE(crd, CelRules) {
  install_widgets(s);
  const std::string widgets = "/apis/diff.example.com/v1/namespaces/{ns}/widgets";
  auto widget = [](const std::string& name, const std::string& spec) {
    return R"({"apiVersion":"diff.example.com/v1","kind":"Widget","metadata":{"name":")" + name + R"("},"spec":)" + spec + "}";
  };
  s.send("every rule holds", {.method = "POST", .path = widgets, .body = widget("w", R"({"mode":"fast","min":1,"max":5,"label":"wide","tags":["a"]})")});
  s.send("a messageExpression", {.method = "POST", .path = widgets, .body = widget("m", R"({"min":7,"max":5,"label":"wm"})")});
  s.send("a failing messageExpression falls back", {.method = "POST", .path = widgets, .body = widget("m2", R"({"min":7,"max":5})")});
  s.send("a rule on a string without a message", {.method = "POST", .path = widgets, .body = widget("l", R"({"min":1,"max":1,"label":"narrow"})")});
  s.send("a reason and a fieldPath", {.method = "POST", .path = widgets, .body = widget("f", R"({"min":1,"max":1,"forbidden":"x"})")});
  s.send("macros and matches", {.method = "POST", .path = widgets, .body = widget("t", R"({"min":1,"max":1,"tags":["ok","Not-OK"]})")});
  s.send("a missing field is an evaluation error", {.method = "POST", .path = widgets, .body = widget("e", R"({"min":1})")});
  s.send("several rules fail at once", {.method = "POST", .path = widgets, .body = widget("s", R"({"min":3,"max":2,"label":"x","forbidden":"y"})")});
  s.send("the transition rule refuses a change", {.method = "PATCH", .path = widgets + "/w", .body = R"({"spec":{"mode":"slow"}})",
                                                  .content_type = "application/merge-patch+json"});
  s.send("other fields may change", {.method = "PATCH", .path = widgets + "/w", .body = R"({"spec":{"max":6}})",
                                     .content_type = "application/merge-patch+json"});
  s.send("a transition rule does not run when the old value is absent",
         {.method = "POST", .path = widgets, .body = widget("n", R"({"min":1,"max":1})")});
  s.send("setting the field later", {.method = "PATCH", .path = widgets + "/n", .body = R"({"spec":{"mode":"any"}})",
                                     .content_type = "application/merge-patch+json"});
}

DIFF_CASE(crd, PrinterColumnsAndOpenApi) {
  install_gadgets(s);
  s.setup({.method = "POST", .path = kGadgets, .body = gadget("one", R"({"size":1,"color":"red"})")});
  s.setup({.method = "POST", .path = kGadgets, .body = gadget("two", R"({"size":2})")});
  Compare ages;
  ages.masks.text.emplace_back(std::regex("^[0-9]+[smhd]$"), "<age>");
  s.send("table", {.path = kGadgets, .accept = "application/json;as=Table;v=v1;g=meta.k8s.io"}, ages);
  s.kubectl("kubectl get", {"get", "gadgets", "-n", "{ns}"});
  s.kubectl("kubectl get -o wide", {"get", "gadgets", "-n", "{ns}", "-o", "wide"});
  // The CRD's OpenAPI v3 document: the Gadget schema as clients (kubectl explain) read it.
  s.wait_for("/openapi/v3/apis/diff.example.com/v1", std::chrono::seconds(30));
  auto doc = s.send("openapi v3 document status", {.path = "/openapi/v3/apis/diff.example.com/v1"}, Compare{.body = false});
  if (doc.embedded && doc.kube) {
    const char* name = "com.example.diff.v1.Gadget";
    auto pick = [&](const json::Value& d) {
      const auto* v = json::find(d, {"components", "schemas", name});
      return v ? *v : json::Value(nullptr);
    };
    s.record("the Gadget schema", doc.embedded_status, doc.kube_status, pick(*doc.embedded), pick(*doc.kube));
  }
  s.kubectl("kubectl explain", {"explain", "gadgets.spec"});
}

}  // namespace capstan::e2e::diff

namespace capstan::e2e::diff {

// CRDs in the Kubernetes project's groups need the API review annotation.
DIFF_CASE(crd, ProtectedGroupsNeedApproval) {
  const std::string crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  auto crd = [](const std::string& annotations) {
    return R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"probes.diff.k8s.io")" +
           annotations +
           R"(},"spec":{"group":"diff.k8s.io","scope":"Namespaced","names":{"plural":"probes","singular":"probe","kind":"Probe","listKind":"ProbeList"},)"
           R"("versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}})";
  };
  s.send("a k8s.io group without the approval annotation", {.method = "POST", .path = crds, .body = crd("")});
  s.send("an approval that is neither a URL nor unapproved",
         {.method = "POST", .path = crds, .body = crd(R"(,"annotations":{"api-approved.kubernetes.io":"yes please"})")});
}

}  // namespace capstan::e2e::diff
