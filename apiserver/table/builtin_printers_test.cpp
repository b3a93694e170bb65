#include "apiserver/table/builtin_printers.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::table {
namespace {

meta::TimePoint at(std::string_view rfc3339) { return *meta::parse_rfc3339(rfc3339); }
const meta::TimePoint kNow = at("2026-01-10T12:00:00Z");

std::string cells(std::string_view group, std::string_view resource, std::string_view object) {
  return json::serialize(converter_for(group, resource).row(json::parse(object), kNow).cells);
}

std::vector<std::string> column_names(std::string_view group, std::string_view resource) {
  std::vector<std::string> out;
  for (const auto& c : converter_for(group, resource).columns())
    out.push_back(c.priority ? c.name + "*" : c.name);
  return out;
}

// ---- pods -------------------------------------------------------------------------------------

TEST(PrinterPod, Columns) {
  EXPECT_EQ(column_names("", "pods"),
            (std::vector<std::string>{"Name", "Ready", "Status", "Restarts", "Age", "IP*", "Node*", "Nominated Node*",
                                      "Readiness Gates*"}));
  const auto& cols = converter_for("", "pods").columns();
  EXPECT_EQ(cols[3].type, "string");
  EXPECT_EQ(cols[1].description, "The aggregate readiness state of this pod for accepting traffic.");
}

TEST(PrinterPod, RunningAndReady) {
  EXPECT_EQ(cells("", "pods", R"({
    "metadata": {"name": "web-0", "creationTimestamp": "2026-01-10T09:00:00Z"},
    "spec": {"nodeName": "node-a", "containers": [{"name": "app"}, {"name": "sidecar"}]},
    "status": {"phase": "Running", "podIP": "10.0.0.5",
      "conditions": [{"type": "Ready", "status": "True"}],
      "containerStatuses": [
        {"name": "app", "ready": true, "restartCount": 0, "state": {"running": {"startedAt": "2026-01-10T09:00:01Z"}}},
        {"name": "sidecar", "ready": false, "restartCount": 0, "state": {"running": {}}}]}})"),
            R"(["web-0","1/2","Running","0","3h","10.0.0.5","node-a","<none>","<none>"])");
}

TEST(PrinterPod, RestartsWithLastRestartAge) {
  EXPECT_EQ(cells("", "pods", R"({
    "metadata": {"name": "crashy", "creationTimestamp": "2026-01-08T12:00:00Z"},
    "spec": {"containers": [{"name": "app"}]},
    "status": {"phase": "Running", "podIPs": [{"ip": "fd00::1"}, {"ip": "10.0.0.9"}],
      "containerStatuses": [{"name": "app", "ready": false, "restartCount": 2,
        "state": {"waiting": {"reason": "CrashLoopBackOff"}},
        "lastState": {"terminated": {"exitCode": 1, "finishedAt": "2026-01-10T11:55:00Z"}}}]}})"),
            R"j(["crashy","0/1","CrashLoopBackOff","2 (5m ago)","2d","fd00::1","<none>","<none>","<none>"])j");
}

TEST(PrinterPod, TerminatedReasons) {
  auto pod = [](std::string_view state) {
    return std::string(R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]},"status":{"phase":"Running",)") +
           R"("containerStatuses":[{"name":"c","restartCount":0,"state":)" + std::string(state) + "}]}}";
  };
  auto status_of = [&](std::string_view state) {
    return converter_for("", "pods").row(json::parse(pod(state)), kNow).cells.at(2).as_string();
  };
  EXPECT_EQ(status_of(R"({"terminated":{"exitCode":0,"reason":"Completed"}})"), "Completed");
  EXPECT_EQ(status_of(R"({"terminated":{"exitCode":137}})"), "ExitCode:137");
  EXPECT_EQ(status_of(R"({"terminated":{"exitCode":0,"signal":9}})"), "Signal:9");
  EXPECT_EQ(status_of(R"({"waiting":{"reason":"ContainerCreating"}})"), "ContainerCreating");
  EXPECT_EQ(status_of(R"({"waiting":{}})"), "Running");
}

TEST(PrinterPod, InitContainers) {
  auto status_of = [](std::string_view init_statuses, std::string_view extra_conditions = "") {
    std::string obj = R"({"metadata":{"name":"p"},"spec":{"initContainers":[{"name":"i1"},{"name":"i2"}],
      "containers":[{"name":"c"}]},"status":{"phase":"Pending","conditions":[)" +
                      std::string(extra_conditions) + R"(],"initContainerStatuses":)" + std::string(init_statuses) +
                      R"(,"containerStatuses":[{"name":"c","state":{"waiting":{"reason":"PodInitializing"}}}]}})";
    return std::string(converter_for("", "pods").row(json::parse(obj), kNow).cells.at(2).as_string());
  };
  EXPECT_EQ(status_of(R"([{"name":"i1","state":{"running":{}}},{"name":"i2","state":{"waiting":{}}}])"), "Init:0/2");
  EXPECT_EQ(status_of(R"([{"name":"i1","state":{"terminated":{"exitCode":0}}},
                          {"name":"i2","state":{"waiting":{"reason":"PodInitializing"}}}])"),
            "Init:1/2");
  EXPECT_EQ(status_of(R"([{"name":"i1","state":{"terminated":{"exitCode":1,"reason":"Error"}}}])"), "Init:Error");
  EXPECT_EQ(status_of(R"([{"name":"i1","state":{"terminated":{"exitCode":3}}}])"), "Init:ExitCode:3");
  EXPECT_EQ(status_of(R"([{"name":"i1","state":{"waiting":{"reason":"ImagePullBackOff"}}}])"), "Init:ImagePullBackOff");
  // All init containers done: the app containers decide.
  EXPECT_EQ(status_of(R"([{"name":"i1","state":{"terminated":{"exitCode":0}}},
                          {"name":"i2","state":{"terminated":{"exitCode":0}}}])"),
            "PodInitializing");
}

TEST(PrinterPod, RestartableSidecarsCount) {
  auto row = converter_for("", "pods").row(json::parse(R"({
    "metadata": {"name": "p"},
    "spec": {"initContainers": [{"name": "proxy", "restartPolicy": "Always"}], "containers": [{"name": "app"}]},
    "status": {"phase": "Running", "conditions": [{"type": "Initialized", "status": "True"}],
      "initContainerStatuses": [{"name": "proxy", "ready": true, "started": true, "restartCount": 1,
        "state": {"running": {}}, "lastState": {"terminated": {"exitCode": 1, "finishedAt": "2026-01-10T11:00:00Z"}}}],
      "containerStatuses": [{"name": "app", "ready": true, "restartCount": 0, "state": {"running": {}}}]}})"),
                                             kNow);
  EXPECT_EQ(row.cells.at(1).as_string(), "2/2");
  EXPECT_EQ(row.cells.at(2).as_string(), "Running");
  EXPECT_EQ(row.cells.at(3).as_string(), "1 (60m ago)");
}

TEST(PrinterPod, CompletedTerminatingAndGated) {
  auto status = [](std::string_view obj) {
    return std::string(converter_for("", "pods").row(json::parse(obj), kNow).cells.at(2).as_string());
  };
  // A completed container with another still running reads Running (or NotReady).
  EXPECT_EQ(status(R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"a"},{"name":"b"}]},
    "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}],"containerStatuses":[
      {"name":"a","ready":true,"state":{"running":{}}},
      {"name":"b","state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]}})"),
            "Running");
  EXPECT_EQ(status(R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"a"},{"name":"b"}]},
    "status":{"phase":"Running","containerStatuses":[
      {"name":"a","ready":true,"state":{"running":{}}},
      {"name":"b","state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]}})"),
            "NotReady");
  EXPECT_EQ(status(R"({"metadata":{"name":"p","deletionTimestamp":"2026-01-10T11:59:00Z"},
    "spec":{"containers":[{"name":"a"}]},"status":{"phase":"Running"}})"),
            "Terminating");
  EXPECT_EQ(status(R"({"metadata":{"name":"p","deletionTimestamp":"2026-01-10T11:59:00Z"},
    "spec":{"containers":[{"name":"a"}]},"status":{"phase":"Running","reason":"NodeLost"}})"),
            "Unknown");
  EXPECT_EQ(status(R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"a"}]},
    "status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","reason":"SchedulingGated"}]}})"),
            "SchedulingGated");
  EXPECT_EQ(status(R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"a"}]},
    "status":{"phase":"Failed","reason":"Evicted"}})"),
            "Evicted");
}

TEST(PrinterPod, CompletedRowCondition) {
  auto row = converter_for("", "pods").row(
      json::parse(R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"a"}]},"status":{"phase":"Succeeded"}})"),
      kNow);
  ASSERT_EQ(row.conditions.size(), 1u);
  EXPECT_EQ(row.conditions[0].type, "Completed");
  EXPECT_EQ(row.conditions[0].reason, "Succeeded");
  EXPECT_EQ(row.conditions[0].message, "The pod has completed successfully.");
}

TEST(PrinterPod, ReadinessGates) {
  EXPECT_EQ(cells("", "pods", R"({"metadata":{"name":"p"},
    "spec":{"containers":[],"readinessGates":[{"conditionType":"a.io/x"},{"conditionType":"a.io/y"}]},
    "status":{"phase":"Running","nominatedNodeName":"n2",
      "conditions":[{"type":"a.io/x","status":"True"},{"type":"a.io/y","status":"False"}]}})"),
            R"(["p","0/0","Running","0","<unknown>","<none>","<none>","n2","1/2"])");
}

// ---- services and endpoints -------------------------------------------------------------------

TEST(PrinterService, PortsTypesAndExternalIPs) {
  EXPECT_EQ(column_names("", "services"),
            (std::vector<std::string>{"Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age", "Selector*"}));
  EXPECT_EQ(cells("", "services", R"({"metadata":{"name":"web","creationTimestamp":"2026-01-10T11:58:00Z"},
    "spec":{"type":"ClusterIP","clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],
      "ports":[{"port":80,"protocol":"TCP"},{"port":443}],"selector":{"tier":"web","app":"shop"}}})"),
            R"(["web","ClusterIP","10.96.0.10","<none>","80/TCP,443/TCP","2m","app=shop,tier=web"])");
  EXPECT_EQ(cells("", "services", R"({"metadata":{"name":"np"},
    "spec":{"type":"NodePort","clusterIP":"10.96.0.11","externalIPs":["1.2.3.4","5.6.7.8"],
      "ports":[{"port":80,"nodePort":30080,"protocol":"TCP"},{"port":53,"protocol":"UDP"}]}})"),
            R"(["np","NodePort","10.96.0.11","1.2.3.4,5.6.7.8","80:30080/TCP,53/UDP","<unknown>","<none>"])");
  EXPECT_EQ(cells("", "services", R"({"metadata":{"name":"lb"},"spec":{"type":"LoadBalancer","clusterIPs":["10.0.0.1"],
    "ports":[{"port":443,"nodePort":31000}]}})"),
            R"(["lb","LoadBalancer","10.0.0.1","<pending>","443:31000/TCP","<unknown>","<none>"])");
  EXPECT_EQ(cells("", "services", R"({"metadata":{"name":"lb"},"spec":{"type":"LoadBalancer","externalIPs":["9.9.9.9"]},
    "status":{"loadBalancer":{"ingress":[{"hostname":"b.example"},{"ip":"2.2.2.2"},{"ip":"2.2.2.2"}]}}})"),
            R"(["lb","LoadBalancer","<none>","2.2.2.2,b.example,9.9.9.9","<none>","<unknown>","<none>"])");
  EXPECT_EQ(cells("", "services", R"({"metadata":{"name":"ext"},"spec":{"type":"ExternalName","externalName":"db.example"}})"),
            R"(["ext","ExternalName","<none>","db.example","<none>","<unknown>","<none>"])");
  // An undefaulted service reads as kube-apiserver would have stored it.
  EXPECT_EQ(cells("", "services", R"({"metadata":{"name":"bare"},"spec":{"ports":[{"port":8080}]}})"),
            R"(["bare","ClusterIP","<none>","<none>","8080/TCP","<unknown>","<none>"])");
}

TEST(PrinterService, Endpoints) {
  EXPECT_EQ(cells("", "endpoints", R"({"metadata":{"name":"web"},"subsets":[
    {"addresses":[{"ip":"10.0.0.1"},{"ip":"10.0.0.2"}],"ports":[{"port":80},{"port":443}]},
    {"addresses":[{"ip":"fd00::3"}],"ports":[{"port":80}]}]})"),
            R"(["web","10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 2 more...","<unknown>"])");
  EXPECT_EQ(cells("", "endpoints", R"({"metadata":{"name":"v6"},"subsets":[{"addresses":[{"ip":"fd00::3"}],"ports":[{"port":80}]}]})"),
            R"(["v6","[fd00::3]:80","<unknown>"])");
  EXPECT_EQ(cells("", "endpoints", R"({"metadata":{"name":"headless"},"subsets":[{"addresses":[{"ip":"10.1.1.1"}]}]})"),
            R"(["headless","10.1.1.1","<unknown>"])");
  EXPECT_EQ(cells("", "endpoints", R"({"metadata":{"name":"none"}})"), R"(["none","<none>","<unknown>"])");
}

// ---- apps / batch -----------------------------------------------------------------------------

TEST(PrinterApps, Deployment) {
  EXPECT_EQ(column_names("apps", "deployments"),
            (std::vector<std::string>{"Name", "Ready", "Up-to-date", "Available", "Age", "Containers*", "Images*",
                                      "Selector*"}));
  EXPECT_EQ(cells("apps", "deployments", R"({"metadata":{"name":"web","creationTimestamp":"2026-01-01T12:00:00Z"},
    "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"},
      "matchExpressions":[{"key":"tier","operator":"In","values":["front","edge"]},{"key":"canary","operator":"DoesNotExist"}]},
      "template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"},{"name":"log","image":"busybox"}]}}},
    "status":{"readyReplicas":2,"updatedReplicas":3,"availableReplicas":2}})"),
            R"j(["web","2/3",3,2,"9d","nginx,log","nginx:1.27,busybox","app=web,!canary,tier in (edge,front)"])j");
  // Defaults: replicas 1, no status yet; a bad selector operator reads <invalid>.
  EXPECT_EQ(cells("apps", "deployments", R"({"metadata":{"name":"new"},"spec":{"selector":{"matchExpressions":
    [{"key":"a","operator":"Near"}]},"template":{"spec":{"containers":[{"name":"c","image":"i"}]}}}})"),
            R"(["new","0/1",0,0,"<unknown>","c","i","<invalid>"])");
}

TEST(PrinterApps, StatefulSetReplicaSetDaemonSet) {
  EXPECT_EQ(cells("apps", "statefulsets", R"({"metadata":{"name":"db"},"spec":{"replicas":3,
    "template":{"spec":{"containers":[{"name":"pg","image":"postgres:16"}]}}},"status":{"readyReplicas":1}})"),
            R"(["db","1/3","<unknown>","pg","postgres:16"])");
  EXPECT_EQ(cells("apps", "replicasets", R"({"metadata":{"name":"web-5d9"},"spec":{"replicas":2,
    "selector":{"matchLabels":{"app":"web","pod-template-hash":"5d9"}},
    "template":{"spec":{"containers":[{"name":"nginx","image":"nginx"}]}}},"status":{"replicas":2,"readyReplicas":1}})"),
            R"(["web-5d9",2,2,1,"<unknown>","nginx","nginx","app=web,pod-template-hash=5d9"])");
  EXPECT_EQ(column_names("apps", "replicasets"),
            (std::vector<std::string>{"Name", "Desired", "Current", "Ready", "Age", "Containers*", "Images*",
                                      "Selector*"}));
  EXPECT_EQ(cells("apps", "daemonsets", R"({"metadata":{"name":"agent"},"spec":{"selector":{},
    "template":{"spec":{"nodeSelector":{"kubernetes.io/os":"linux"},"containers":[{"name":"a","image":"agent:1"}]}}},
    "status":{"desiredNumberScheduled":3,"currentNumberScheduled":3,"numberReady":2,"updatedNumberScheduled":3,"numberAvailable":2}})"),
            R"(["agent",3,3,2,3,2,"kubernetes.io/os=linux","<unknown>","a","agent:1","<none>"])");
}

TEST(PrinterApps, JobsAndCronJobs) {
  EXPECT_EQ(cells("batch", "jobs", R"({"metadata":{"name":"once"},"spec":{"completions":3,
    "template":{"spec":{"containers":[{"name":"w","image":"worker"}]}}},
    "status":{"succeeded":3,"startTime":"2026-01-10T11:00:00Z","completionTime":"2026-01-10T11:04:30Z",
      "conditions":[{"type":"Complete","status":"True"}]}})"),
            R"(["once","Complete","3/3","4m30s","<unknown>","w","worker","<none>"])");
  EXPECT_EQ(cells("batch", "jobs", R"({"metadata":{"name":"par"},"spec":{"parallelism":4},
    "status":{"startTime":"2026-01-10T11:59:00Z"}})"),
            R"(["par","Running","0/1 of 4","60s","<unknown>","","","<none>"])");
  EXPECT_EQ(cells("batch", "cronjobs", R"({"metadata":{"name":"nightly"},"spec":{"schedule":"0 3 * * *",
    "jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"b","image":"backup"}]}}}}},
    "status":{"active":[{"name":"nightly-1"}],"lastScheduleTime":"2026-01-10T03:00:00Z"}})"),
            R"(["nightly","0 3 * * *","<none>","False",1,"9h","<unknown>","b","backup","<none>"])");
}

// ---- the rest ---------------------------------------------------------------------------------

TEST(PrinterMisc, CoreSimpleKinds) {
  EXPECT_EQ(cells("", "namespaces", R"({"metadata":{"name":"dev","creationTimestamp":"2026-01-10T11:59:30Z"},"status":{"phase":"Active"}})"),
            R"(["dev","Active","30s"])");
  EXPECT_EQ(cells("", "namespaces", R"({"metadata":{"name":"old","deletionTimestamp":"2026-01-10T11:59:30Z"}})"),
            R"(["old","Terminating","<unknown>"])");
  EXPECT_EQ(cells("", "configmaps", R"({"metadata":{"name":"cfg"},"data":{"a":"1","b":"2"},"binaryData":{"c":"AA=="}})"),
            R"(["cfg",3,"<unknown>"])");
  EXPECT_EQ(cells("", "secrets", R"({"metadata":{"name":"tls"},"type":"kubernetes.io/tls","data":{"tls.crt":"","tls.key":""}})"),
            R"(["tls","kubernetes.io/tls",2,"<unknown>"])");
  EXPECT_EQ(cells("", "secrets", R"({"metadata":{"name":"plain"}})"), R"(["plain","Opaque",0,"<unknown>"])");
  EXPECT_EQ(cells("", "serviceaccounts", R"({"metadata":{"name":"default"}})"), R"(["default","<unknown>"])");
  EXPECT_EQ(column_names("", "secrets"), (std::vector<std::string>{"Name", "Type", "Data", "Age"}));
}

TEST(PrinterMisc, PersistentVolumeClaims) {
  EXPECT_EQ(column_names("", "persistentvolumeclaims"),
            (std::vector<std::string>{"Name", "Status", "Volume", "Capacity", "Access Modes", "StorageClass",
                                      "VolumeAttributesClass", "Age", "VolumeMode*"}));
  EXPECT_EQ(cells("", "persistentvolumeclaims", R"({"metadata":{"name":"data"},
    "spec":{"volumeName":"pv-1","storageClassName":"fast","volumeMode":"Filesystem"},
    "status":{"phase":"Bound","capacity":{"storage":"10Gi"},"accessModes":["ReadWriteMany","ReadWriteOnce"]}})"),
            R"(["data","Bound","pv-1","10Gi","RWO,RWX","fast","<unset>","<unknown>","Filesystem"])");
  EXPECT_EQ(cells("", "persistentvolumeclaims", R"({"metadata":{"name":"pending",
    "annotations":{"volume.beta.kubernetes.io/storage-class":"legacy"}},"spec":{"storageClassName":"fast"},
    "status":{"phase":"Pending"}})"),
            R"(["pending","Pending","","","","legacy","<unset>","<unknown>","<unset>"])");
}

TEST(PrinterMisc, Events) {
  EXPECT_EQ(column_names("", "events"),
            (std::vector<std::string>{"Last Seen", "Type", "Reason", "Object", "Subobject*", "Source*", "Message",
                                      "First Seen*", "Count*", "Name*"}));
  EXPECT_EQ(cells("", "events", R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"web.1"},
    "involvedObject":{"kind":"Pod","name":"web","fieldPath":"spec.containers{app}"},
    "reason":"Pulled","message":"  Successfully pulled image\n","type":"Normal",
    "source":{"component":"kubelet","host":"node-a"},
    "firstTimestamp":"2026-01-10T11:00:00Z","lastTimestamp":"2026-01-10T11:58:00Z","count":4})"),
            R"(["2m","Normal","Pulled","pod/web","spec.containers{app}","kubelet, node-a","Successfully pulled image","60m",4,"web.1"])");
  // events.k8s.io/v1 names the same fields differently; singletons have count 1.
  EXPECT_EQ(cells("events.k8s.io", "events", R"({"apiVersion":"events.k8s.io/v1","kind":"Event",
    "metadata":{"name":"cert.2"},"regarding":{"kind":"Certificate","name":"web"},"reason":"Issued",
    "note":"Certificate issued","type":"Normal","eventTime":"2026-01-10T11:55:00.000000Z",
    "reportingController":"capstan.dev/certificates","reportingInstance":"capstan-0"})"),
            R"(["5m","Normal","Issued","certificate/web","","capstan.dev/certificates, capstan-0","Certificate issued","5m",1,"cert.2"])");
  EXPECT_EQ(cells("events.k8s.io", "events", R"({"apiVersion":"events.k8s.io/v1","metadata":{"name":"x"},
    "regarding":{"kind":"Node"},"eventTime":"2026-01-10T10:00:00.000000Z",
    "series":{"count":7,"lastObservedTime":"2026-01-10T11:59:00.000000Z"}})"),
            R"(["60s","","","node","","","","120m",7,"x"])");
}

TEST(PrinterMisc, NetworkingPolicyCoordinationRbacAdmission) {
  EXPECT_EQ(cells("policy", "poddisruptionbudgets", R"({"metadata":{"name":"pdb"},"spec":{"minAvailable":"50%"},
    "status":{"disruptionsAllowed":1}})"),
            R"(["pdb","50%","N/A",1,"<unknown>"])");
  EXPECT_EQ(cells("coordination.k8s.io", "leases", R"({"metadata":{"name":"capstan-leader"},"spec":{"holderIdentity":"pod-a_1234"}})"),
            R"(["capstan-leader","pod-a_1234","<unknown>"])");
  EXPECT_EQ(cells("discovery.k8s.io", "endpointslices", R"({"metadata":{"name":"web-abc"},"addressType":"IPv4",
    "ports":[{"port":80},{"name":"metrics"},{},{"port":9}],
    "endpoints":[{"addresses":["10.0.0.1"]},{"addresses":["10.0.0.2","10.0.0.3","10.0.0.4"]}]})"),
            R"(["web-abc","IPv4","80,metrics,* + 1 more...","10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...","<unknown>"])");
  EXPECT_EQ(cells("discovery.k8s.io", "endpointslices", R"({"metadata":{"name":"empty"},"addressType":"IPv6"})"),
            R"(["empty","IPv6","<unset>","<unset>","<unknown>"])");
  EXPECT_EQ(cells("networking.k8s.io", "ingresses", R"({"metadata":{"name":"web"},"spec":{"ingressClassName":"nginx",
    "rules":[{"host":"a.example"},{"host":"b.example"},{},{"host":"c.example"},{"host":"d.example"}],"tls":[{"hosts":["a.example"]}]},
    "status":{"loadBalancer":{"ingress":[{"ip":"1.1.1.1"}]}}})"),
            R"(["web","nginx","a.example,b.example,c.example + 2 more...","1.1.1.1","80, 443","<unknown>"])");
  EXPECT_EQ(cells("networking.k8s.io", "ingresses", R"({"metadata":{"name":"any"},"spec":{}})"),
            R"(["any","<none>","*","","80","<unknown>"])");
  EXPECT_EQ(cells("networking.k8s.io", "networkpolicies", R"({"metadata":{"name":"deny"},"spec":{}})"),
            R"(["deny","<none>","<unknown>"])");
  EXPECT_EQ(cells("networking.k8s.io", "networkpolicies",
                  R"({"metadata":{"name":"web"},"spec":{"podSelector":{"matchLabels":{"app":"web"}}}})"),
            R"(["web","app=web","<unknown>"])");
  EXPECT_EQ(cells("rbac.authorization.k8s.io", "rolebindings", R"({"metadata":{"name":"rb"},
    "roleRef":{"kind":"ClusterRole","name":"view"},"subjects":[{"kind":"User","name":"alice"},
    {"kind":"ServiceAccount","name":"capstan","namespace":"capstan-system"},{"kind":"Group","name":"devs"},
    {"kind":"User","name":"bob"}]})"),
            R"(["rb","ClusterRole/view","<unknown>","alice, bob","devs","capstan-system/capstan"])");
  EXPECT_EQ(column_names("rbac.authorization.k8s.io", "clusterrolebindings"),
            (std::vector<std::string>{"Name", "Role", "Age", "Users*", "Groups*", "ServiceAccounts*"}));
  EXPECT_EQ(cells("admissionregistration.k8s.io", "validatingwebhookconfigurations",
                  R"({"metadata":{"name":"capstan"},"webhooks":[{"name":"a"},{"name":"b"}]})"),
            R"(["capstan",2,"<unknown>"])");
  EXPECT_EQ(column_names("admissionregistration.k8s.io", "mutatingwebhookconfigurations"),
            (std::vector<std::string>{"Name", "Webhooks", "Age"}));
}

TEST(PrinterDefault, KindsWithoutPrinters) {
  for (auto [group, resource] : {std::pair{"rbac.authorization.k8s.io", "roles"},
                                 std::pair{"rbac.authorization.k8s.io", "clusterroles"},
                                 std::pair{"example.com", "widgets"}}) {
    EXPECT_EQ(builtin_converter(group, resource), nullptr) << resource;
    EXPECT_EQ(&converter_for(group, resource), &default_converter()) << resource;
  }
  const auto& cols = default_converter().columns();
  ASSERT_EQ(cols.size(), 2u);
  EXPECT_EQ(cols[1].name, "Created At");
  EXPECT_EQ(cols[1].type, "date");
  EXPECT_EQ(cols[1].description, kCreationTimestampDescription);
  EXPECT_EQ(cells("rbac.authorization.k8s.io", "clusterroles",
                  R"({"metadata":{"name":"view","creationTimestamp":"2026-01-02T03:04:05+01:00"}})"),
            R"(["view","2026-01-02T02:04:05Z"])");
  EXPECT_EQ(cells("rbac.authorization.k8s.io", "roles", R"({"metadata":{"name":"r"}})"),
            R"(["r","0001-01-01T00:00:00Z"])");
}

TEST(PrinterDefault, EveryPrinterFillsEveryColumn) {
  for (const auto& [group, resource] : builtin_resources()) {
    const Converter* c = builtin_converter(group, resource);
    ASSERT_NE(c, nullptr);
    for (const char* obj : {R"({})", R"({"metadata":{"name":"x"},"spec":{},"status":{}})"}) {
      auto row = c->row(json::parse(obj), kNow);
      EXPECT_EQ(row.cells.size(), c->columns().size()) << group << "/" << resource;
    }
  }
}

// ---- nodes and controllerrevisions -----------------------------------------------------------------

TEST(PrinterNode, Columns) {
  EXPECT_EQ(column_names("", "nodes"),
            (std::vector<std::string>{"Name", "Status", "Roles", "Age", "Version", "Internal-IP*", "External-IP*", "OS-Image*",
                                      "Kernel-Version*", "Container-Runtime*"}));
}

TEST(PrinterNode, ReadyWithRolesAndAddresses) {
  EXPECT_EQ(cells("", "nodes", R"x({
    "metadata": {"name": "node-a", "creationTimestamp": "2026-01-09T12:00:00Z",
      "labels": {"node-role.kubernetes.io/control-plane": "", "node-role.kubernetes.io/": "", "kubernetes.io/role": "edge"}},
    "spec": {"unschedulable": true},
    "status": {"conditions": [{"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": "True"}],
      "addresses": [{"type": "Hostname", "address": "node-a"}, {"type": "InternalIP", "address": "10.0.0.2"}],
      "nodeInfo": {"kubeletVersion": "v1.32.4", "osImage": "Debian GNU/Linux 12 (bookworm)", "kernelVersion": "6.1.0",
        "containerRuntimeVersion": "containerd://1.7.0"}}})x"),
            R"x(["node-a","Ready,SchedulingDisabled","control-plane,edge","24h","v1.32.4","10.0.0.2","<none>","Debian GNU/Linux 12 (bookworm)","6.1.0","containerd://1.7.0"])x");
}

TEST(PrinterNode, NotReadyOrUnknown) {
  EXPECT_EQ(cells("", "nodes", R"({"metadata": {"name": "n", "creationTimestamp": "2026-01-10T11:00:00Z"},
    "status": {"conditions": [{"type": "Ready", "status": "Unknown"}]}})"),
            R"(["n","NotReady","<none>","60m","","<none>","<none>","<unknown>","<unknown>","<unknown>"])");
  EXPECT_EQ(cells("", "nodes", R"({"metadata": {"name": "n", "creationTimestamp": "2026-01-10T11:00:00Z"}})"),
            R"(["n","Unknown","<none>","60m","","<none>","<none>","<unknown>","<unknown>","<unknown>"])");
}

TEST(PrinterControllerRevision, ControllerAndRevision) {
  EXPECT_EQ(column_names("apps", "controllerrevisions"), (std::vector<std::string>{"Name", "Controller", "Revision", "Age"}));
  EXPECT_EQ(cells("apps", "controllerrevisions", R"({
    "metadata": {"name": "web-7d9f", "creationTimestamp": "2026-01-10T11:58:00Z",
      "ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "x", "uid": "1"},
                          {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "web", "uid": "2", "controller": true}]},
    "revision": 3})"),
            R"(["web-7d9f","statefulset.apps/web",3,"2m"])");
  EXPECT_EQ(cells("apps", "controllerrevisions", R"({"metadata": {"name": "orphan", "creationTimestamp": "2026-01-10T11:58:00Z"},
    "revision": 1})"),
            R"(["orphan","<none>",1,"2m"])");
}

TEST(PrinterStorage, PersistentVolumesAndStorageClasses) {
  EXPECT_EQ(column_names("", "persistentvolumes"),
            (std::vector<std::string>{"Name", "Capacity", "Access Modes", "Reclaim Policy", "Status", "Claim", "StorageClass",
                                      "VolumeAttributesClass", "Reason", "Age", "VolumeMode*"}));
  EXPECT_EQ(cells("", "persistentvolumes", R"({"metadata":{"name":"pv1","creationTimestamp":"2026-01-10T11:58:00Z"},
    "spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteMany","ReadWriteOnce"],"persistentVolumeReclaimPolicy":"Retain",
            "claimRef":{"namespace":"ns","name":"data"},"storageClassName":"fast"},"status":{"phase":"Bound"}})"),
            R"(["pv1","1Gi","RWO,RWX","Retain","Bound","ns/data","fast","<unset>","","2m","<unset>"])");
  EXPECT_EQ(cells("storage.k8s.io", "storageclasses", R"({"metadata":{"name":"std"},"provisioner":"example.com/disk"})"),
            R"(["std","example.com/disk","Delete","Immediate",false,"<unknown>"])");
}

TEST(PrinterMisc, PriorityClassesPodTemplatesAndCustomResourceDefinitions) {
  EXPECT_EQ(cells("scheduling.k8s.io", "priorityclasses", R"({"metadata":{"name":"high"},"value":1000,"globalDefault":true,
    "preemptionPolicy":"Never"})"),
            R"(["high",1000,true,"<unknown>","Never"])");
  EXPECT_EQ(column_names("", "podtemplates"), (std::vector<std::string>{"Name", "Containers", "Images", "Pod Labels"}));
  EXPECT_EQ(cells("", "podtemplates", R"({"metadata":{"name":"t"},"template":{"metadata":{"labels":{"b":"2","a":"1"}},
    "spec":{"containers":[{"name":"app","image":"nginx"}]}}})"),
            R"(["t","app","nginx","a=1,b=2"])");
  EXPECT_EQ(column_names("apiextensions.k8s.io", "customresourcedefinitions"),
            (std::vector<std::string>{"Name", "Scope", "Versions", "Created At", "Group*", "Kind*", "ShortNames*", "Established*"}));
  EXPECT_EQ(cells("apiextensions.k8s.io", "customresourcedefinitions", R"({"metadata":{"name":"gadgets.example.com",
    "creationTimestamp":"2026-01-10T11:58:00Z"},"spec":{"group":"example.com","scope":"Namespaced",
    "names":{"kind":"Gadget","shortNames":["gd","gdt"]},
    "versions":[{"name":"v2","served":true,"storage":true},{"name":"v1","served":true},{"name":"v0","served":false}]},
    "status":{"conditions":[{"type":"Established","status":"True"}]}})"),
            R"x(["gadgets.example.com","Namespaced","v1,v2(storage)","2026-01-10T11:58:00Z","example.com","Gadget","gd,gdt",true])x");
}

TEST(PrinterAutoscaling, HorizontalPodAutoscalers) {
  EXPECT_EQ(column_names("autoscaling", "horizontalpodautoscalers"),
            (std::vector<std::string>{"Name", "Reference", "Targets", "MinPods", "MaxPods", "Replicas", "Age"}));
  EXPECT_EQ(cells("autoscaling", "horizontalpodautoscalers", R"({"metadata":{"name":"web"},
    "spec":{"scaleTargetRef":{"kind":"Deployment","name":"web"},"minReplicas":2,"maxReplicas":5,"metrics":[
      {"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}},
      {"type":"Pods","pods":{"metric":{"name":"qps"},"target":{"type":"AverageValue","averageValue":"10"}}},
      {"type":"External","external":{"metric":{"name":"q"},"target":{"type":"Value","value":"3"}}}]},
    "status":{"currentReplicas":3,"currentMetrics":[{"type":"Resource","resource":{"name":"cpu","current":{"averageUtilization":41}}}]}})"),
            R"(["web","Deployment/web","cpu: 41%/80%, <unknown>/10 + 1 more...","2",5,3,"<unknown>"])");
  EXPECT_EQ(cells("autoscaling", "horizontalpodautoscalers", R"({"metadata":{"name":"bare"},"spec":{"maxReplicas":1}})"),
            R"(["bare","/","<none>","<unset>",1,0,"<unknown>"])");
}

}  // namespace
}  // namespace capstan::apiserver::table
