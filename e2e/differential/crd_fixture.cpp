#include "e2e/differential/crd_fixture.h"

namespace capstan::e2e::diff {
namespace {

const char* kGadgetCrd = R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
 "metadata":{"name":"gadgets.diff.example.com"},
 "spec":{"group":"diff.example.com","scope":"Namespaced",
  "names":{"plural":"gadgets","singular":"gadget","kind":"Gadget","shortNames":["gd"],"categories":["all"]},
  "versions":[{"name":"v1","served":true,"storage":true,
   "subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.readyReplicas"}},
   "additionalPrinterColumns":[
     {"name":"Size","type":"integer","jsonPath":".spec.size"},
     {"name":"Color","type":"string","jsonPath":".spec.color","priority":1},
     {"name":"Phase","type":"string","jsonPath":".status.phase"},
     {"name":"Age","type":"date","jsonPath":".metadata.creationTimestamp"}],
   "schema":{"openAPIV3Schema":{"type":"object","description":"A Gadget of the differential suite.",
    "properties":{
     "spec":{"type":"object","required":["size"],
      "x-kubernetes-validations":[{"rule":"self.replicas <= self.size","message":"replicas must not exceed size","fieldPath":".replicas"}],
      "properties":{
       "size":{"type":"integer","minimum":1,"description":"How big the gadget is."},
       "color":{"type":"string","enum":["red","blue"],"default":"red"},
       "replicas":{"type":"integer","minimum":0,"maximum":100,"default":1},
       "code":{"type":"string","pattern":"^[a-z]+$","maxLength":10},
       "ports":{"type":"array","maxItems":3,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
        "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer"}}}},
       "nested":{"type":"object","properties":{"keep":{"type":"string"}}},
       "free":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
     "status":{"type":"object","properties":{"phase":{"type":"string"},"readyReplicas":{"type":"integer"}}}}}}}]}})";

const char* kWidgetCrd = R"J({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
 "metadata":{"name":"widgets.diff.example.com"},
 "spec":{"group":"diff.example.com","scope":"Namespaced",
  "names":{"plural":"widgets","singular":"widget","kind":"Widget"},
  "versions":[{"name":"v1","served":true,"storage":true,
   "schema":{"openAPIV3Schema":{"type":"object",
    "properties":{
     "spec":{"type":"object",
      "x-kubernetes-validations":[
       {"rule":"self.min <= self.max","messageExpression":"'min exceeds max in ' + self.label"},
       {"rule":"!has(self.forbidden)","message":"must not be set","reason":"FieldValueForbidden","fieldPath":".forbidden"},
       {"rule":"self.tags.all(t, t.matches('^[a-z]+$')) && size(self.tags) == size(self.tags.filter(t, true))","message":"tags are lower-case words"}],
      "properties":{
       "mode":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf","message":"mode is immutable"}]},
       "min":{"type":"integer"},
       "max":{"type":"integer"},
       "label":{"type":"string","maxLength":20,"x-kubernetes-validations":[{"rule":"self.startsWith('w')"}]},
       "forbidden":{"type":"string","maxLength":20},
       "tags":{"type":"array","maxItems":10,"items":{"type":"string","maxLength":20},"default":[]}}}}}}}]}})J";

}  // namespace

void install_widgets(Session& s) {
  s.setup({.method = "PATCH", .path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.diff.example.com?fieldManager=diff&force=true",
           .body = kWidgetCrd, .content_type = "application/apply-patch+yaml"});
  s.wait_for("/apis/diff.example.com/v1/widgets", std::chrono::seconds(30));
}

void install_gadgets(Session& s) {
  s.setup({.method = "PATCH", .path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.diff.example.com?fieldManager=diff&force=true",
           .body = kGadgetCrd, .content_type = "application/apply-patch+yaml"});
  s.wait_for("/apis/diff.example.com/v1/gadgets", std::chrono::seconds(30));
}

}  // namespace capstan::e2e::diff
