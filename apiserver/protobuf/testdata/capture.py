#!/usr/bin/env python3
"""Captures the protobuf request bodies the local kubectl sends, as test fixtures.

Usage: python3 apiserver/protobuf/testdata/capture.py [OUTDIR]   (default: this folder)

Starts a throwaway plain-HTTP server on 127.0.0.1 (port chosen by the OS), which answers
/version and legacy discovery (/api, /apis, /api/v1, /apis/<group>/<version>) for the
resources below, 404s every GET except a few canned objects, and records each write's body.
It then runs each kubectl command of COMMANDS against it with HOME set to a temporary
directory, and writes for each:
  <name>.pb           the body of the (single) POST/PUT the command made, byte for byte
  <name>.kubectl.json what `kubectl ... --dry-run=client -o json` prints for the same command
                      (the JSON form of the same object, for cross-checking the decoder)
The server stops when the script ends. Nothing here talks to a real cluster.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# group/version -> [(resource, kind, namespaced, verbs)]
RESOURCES = {
    "v1": [
        ("configmaps", "ConfigMap", True),
        ("secrets", "Secret", True),
        ("namespaces", "Namespace", False),
        ("services", "Service", True),
        ("serviceaccounts", "ServiceAccount", True),
        ("serviceaccounts/token", "TokenRequest", True),
        ("pods", "Pod", True),
        ("resourcequotas", "ResourceQuota", True),
        ("replicationcontrollers", "ReplicationController", True),
    ],
    "apps/v1": [
        ("deployments", "Deployment", True),
        ("deployments/scale", "Scale", True),
        ("statefulsets", "StatefulSet", True),
        ("daemonsets", "DaemonSet", True),
        ("replicasets", "ReplicaSet", True),
    ],
    "batch/v1": [("jobs", "Job", True), ("cronjobs", "CronJob", True)],
    "networking.k8s.io/v1": [("ingresses", "Ingress", True)],
    "policy/v1": [("poddisruptionbudgets", "PodDisruptionBudget", True)],
    "rbac.authorization.k8s.io/v1": [
        ("roles", "Role", True),
        ("rolebindings", "RoleBinding", True),
        ("clusterroles", "ClusterRole", False),
        ("clusterrolebindings", "ClusterRoleBinding", False),
    ],
    "scheduling.k8s.io/v1": [("priorityclasses", "PriorityClass", False)],
    "autoscaling/v1": [("horizontalpodautoscalers", "HorizontalPodAutoscaler", True)],
    "authorization.k8s.io/v1": [
        ("selfsubjectaccessreviews", "SelfSubjectAccessReview", False),
        ("selfsubjectrulesreviews", "SelfSubjectRulesReview", True),
    ],
    "authentication.k8s.io/v1": [("selfsubjectreviews", "SelfSubjectReview", False)],
    "certificates.k8s.io/v1": [
        ("certificatesigningrequests", "CertificateSigningRequest", False),
        ("certificatesigningrequests/approval", "CertificateSigningRequest", False),
    ],
}
VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]

# Objects some commands read before creating (kubectl expose reads the deployment).
DEPLOYMENT_WEB = {
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "default", "uid": "d-1", "resourceVersion": "7",
                 "labels": {"app": "web"}},
    "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
             "template": {"metadata": {"labels": {"app": "web"}},
                          "spec": {"containers": [{"name": "nginx", "image": "nginx",
                                                   "ports": [{"containerPort": 80, "protocol": "TCP"}]}]}}},
}
CRONJOB_NIGHTLY = {
    "apiVersion": "batch/v1", "kind": "CronJob",
    "metadata": {"name": "nightly", "namespace": "default", "uid": "5f0c1b2a-0000-4000-8000-00000000c0de",
                 "resourceVersion": "9"},
    "spec": {"schedule": "0 2 * * *",
             "jobTemplate": {"metadata": {"labels": {"job": "nightly"}},
                             "spec": {"backoffLimit": 2, "template": {"spec": {
                                 "restartPolicy": "OnFailure",
                                 "containers": [{"name": "main", "image": "busybox", "command": ["date"]}]}}}}},
}
SCALE_WEB = {"apiVersion": "autoscaling/v1", "kind": "Scale",
             "metadata": {"name": "web", "namespace": "default", "uid": "d-1", "resourceVersion": "7"},
             "spec": {"replicas": 1}, "status": {"replicas": 1, "selector": "app=web"}}
CSR_1 = {
    "apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
    "metadata": {"name": "csr1", "uid": "c5a0c5a0-0000-4000-8000-000000000001", "resourceVersion": "11",
                 "creationTimestamp": "2025-01-02T03:04:05Z"},
    "spec": {"request": "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K",
             "signerName": "kubernetes.io/kube-apiserver-client", "expirationSeconds": 86400,
             "usages": ["client auth", "digital signature"], "username": "alice", "uid": "u-alice",
             "groups": ["devs", "system:authenticated"], "extra": {"scope": ["a", "b"]}},
    "status": {"conditions": [{"type": "Pending", "status": "True", "reason": "Waiting",
                               "lastUpdateTime": "2025-01-02T03:04:06Z",
                               "lastTransitionTime": "2025-01-02T03:04:06Z"}]},
}
CANNED = {"/apis/certificates.k8s.io/v1/certificatesigningrequests/csr1": CSR_1,"/apis/apps/v1/namespaces/default/deployments/web": DEPLOYMENT_WEB,
          "/apis/apps/v1/namespaces/default/deployments/web/scale": SCALE_WEB,
          "/apis/batch/v1/namespaces/default/cronjobs/nightly": CRONJOB_NIGHTLY}

# name -> kubectl arguments (each must make exactly one write — POST or PUT — with a protobuf body).
COMMANDS = {
    "configmap": ["create", "configmap", "demo", "--from-literal=a=b", "--from-literal=c=d"],
    "secret_generic": ["create", "secret", "generic", "creds", "--from-literal=user=admin",
                       "--from-literal=pass=s3cr3t", "--type=Opaque"],
    "secret_tls": ["create", "secret", "tls", "tls1", "--cert=@CERT@", "--key=@KEY@"],
    "secret_docker": ["create", "secret", "docker-registry", "regcred", "--docker-server=reg.example.com",
                      "--docker-username=u", "--docker-password=p", "--docker-email=u@example.com"],
    "namespace": ["create", "namespace", "team-a"],
    "deployment": ["create", "deployment", "web", "--image=nginx:1.27", "--replicas=3", "--port=8080"],
    "service_clusterip": ["create", "service", "clusterip", "api", "--tcp=80:8080", "--tcp=443:8443"],
    "service_nodeport": ["create", "service", "nodeport", "np", "--tcp=80:8080", "--node-port=30080"],
    "service_externalname": ["create", "service", "externalname", "ext", "--external-name=db.example.com"],
    "serviceaccount": ["create", "serviceaccount", "builder"],
    "role": ["create", "role", "reader", "--verb=get,list,watch", "--resource=pods,deployments.apps",
             "--resource-name=web"],
    "rolebinding": ["create", "rolebinding", "reader-binding", "--role=reader", "--user=alice",
                    "--group=devs", "--serviceaccount=default:builder"],
    "clusterrole": ["create", "clusterrole", "aggregator",
                    "--aggregation-rule=rbac.example.com/aggregate-to-monitoring=true"],
    "clusterrole_rules": ["create", "clusterrole", "metrics-reader", "--verb=get",
                          "--non-resource-url=/metrics", "--non-resource-url=/healthz/*"],
    "clusterrolebinding": ["create", "clusterrolebinding", "admins", "--clusterrole=cluster-admin",
                           "--user=root", "--group=system:masters"],
    "job": ["create", "job", "migrate", "--image=busybox", "--", "sh", "-c", "echo hi"],
    "cronjob": ["create", "cronjob", "nightly", "--image=busybox", "--schedule=*/5 * * * *",
                "--restart=OnFailure", "--", "date"],
    "ingress": ["create", "ingress", "site", "--class=nginx",
                "--rule=foo.example.com/bar*=svc1:8080,tls=my-cert",
                "--rule=/exact=svc2:http", "--default-backend=defsvc:80",
                "--annotation=nginx.ingress.kubernetes.io/rewrite-target=/"],
    "pdb": ["create", "poddisruptionbudget", "web-pdb", "--selector=app=web", "--min-available=50%"],
    "pdb_max": ["create", "poddisruptionbudget", "api-pdb", "--selector=app=api,tier in (be)",
                "--max-unavailable=1"],
    "quota": ["create", "quota", "compute", "--hard=cpu=2,memory=4Gi,pods=10",
              "--scopes=NotBestEffort"],
    "priorityclass": ["create", "priorityclass", "high", "--value=1000", "--global-default=true",
                      "--description=important pods", "--preemption-policy=Never"],
    "token": ["create", "token", "builder", "--audience=api", "--audience=vault",
              "--duration=10m", "--bound-object-kind=Pod", "--bound-object-name=p1",
              "--bound-object-uid=0a1b2c3d-0000-4000-8000-000000000001"],
    "job_from_cronjob": ["create", "job", "manual-run", "--from=cronjob/nightly"],
    "can_i": ["auth", "can-i", "list", "pods", "--subresource=log"],
    "whoami": ["auth", "whoami"],
    "can_i_list": ["auth", "can-i", "--list"],
    "certificate_approve": ["certificate", "approve", "csr1"],
    "configmap_binary": ["create", "configmap", "blobs", "--from-file=blob.bin=@BLOB@",
                         "--from-literal=text=plain value"],
    "autoscale": ["autoscale", "deployment", "web", "--max=5", "--cpu-percent=70"],
}
# Commands without a client-side dry run (`-o json` output of the same object).
NO_DRY_RUN = {"token", "can_i", "can_i_list", "whoami", "certificate_approve"}
# Not captured because kubectl 1.32 sends them as JSON, not protobuf (they build unstructured
# objects or patches): run, expose, delete (DeleteOptions), scale (merge patch of /scale),
# apply/replace/patch/edit/label/annotate.


class Recorder:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = []

    def take(self):
        with self.lock:
            out, self.requests = self.requests, []
        return out


def discovery_resource_list(gv):
    res = []
    for name, kind, namespaced in RESOURCES[gv]:
        entry = {"name": name, "singularName": "" if "/" in name else kind.lower(),
                 "namespaced": namespaced, "kind": kind,
                 "verbs": ["create"] if name.endswith("/token") else VERBS}
        if name == "serviceaccounts/token":
            entry.update(group="authentication.k8s.io", version="v1")
        if name == "deployments/scale":
            entry.update(group="autoscaling", version="v1", verbs=["get", "patch", "update"])
        res.append(entry)
    return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": res}


def kind_for_path(path):
    parts = path.strip("/").split("/")
    if parts[0] == "api":
        gv, rest = parts[1], parts[2:]
    else:
        gv, rest = parts[1] + "/" + parts[2], parts[3:]
    if len(rest) >= 2 and rest[0] == "namespaces" and len(rest) > 2:
        rest = rest[2:]
    resource = rest[0] if rest else ""
    if len(rest) >= 3:
        resource = rest[0] + "/" + rest[2]
    for name, kind, _ in RESOURCES.get(gv, []):
        if name == resource:
            if resource == "serviceaccounts/token":
                return "authentication.k8s.io/v1", kind
            if resource == "deployments/scale":
                return "autoscaling/v1", kind
            return gv, kind
    return gv, "Unknown"


def make_handler(recorder):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def reply(self, code, obj):
            data = json.dumps(obj).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def not_found(self):
            self.reply(404, {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                             "message": "not found", "reason": "NotFound", "code": 404})

        def do_GET(self):
            path = self.path.split("?", 1)[0]
            if path == "/version":
                return self.reply(200, {"major": "1", "minor": "32", "gitVersion": "v1.32.4",
                                        "platform": "linux/amd64"})
            if path == "/api":
                return self.reply(200, {"kind": "APIVersions", "versions": ["v1"],
                                        "serverAddressByClientCIDRs": [
                                            {"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"}]})
            if path == "/apis":
                groups = []
                for gv in RESOURCES:
                    if gv == "v1":
                        continue
                    g, v = gv.split("/")
                    ver = {"groupVersion": gv, "version": v}
                    groups.append({"name": g, "versions": [ver], "preferredVersion": ver})
                return self.reply(200, {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
            if path == "/api/v1":
                return self.reply(200, discovery_resource_list("v1"))
            parts = path.strip("/").split("/")
            if len(parts) == 3 and parts[0] == "apis" and (parts[1] + "/" + parts[2]) in RESOURCES:
                return self.reply(200, discovery_resource_list(parts[1] + "/" + parts[2]))
            if path in CANNED:
                return self.reply(200, CANNED[path])
            self.not_found()

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            path = self.path.split("?", 1)[0]
            with recorder.lock:
                recorder.requests.append({"method": self.command, "path": self.path,
                                          "content_type": self.headers.get("Content-Type"),
                                          "accept": self.headers.get("Accept"), "body": body})
            api_version, kind = kind_for_path(path)
            obj = {"apiVersion": api_version, "kind": kind,
                   "metadata": {"name": "captured", "namespace": "default", "uid": "c-1",
                                "resourceVersion": "1"}}
            if kind == "SelfSubjectAccessReview":
                obj["status"] = {"allowed": True}
            if kind == "CertificateSigningRequest":
                obj = dict(CSR_1)
            if kind == "SelfSubjectRulesReview":
                obj["status"] = {"resourceRules": [], "nonResourceRules": [], "incomplete": False}
            if kind == "SelfSubjectReview":
                obj["status"] = {"userInfo": {"username": "captured"}}
            if kind == "TokenRequest":
                obj["spec"] = {"audiences": ["api"]}
                obj["status"] = {"token": "captured-token", "expirationTimestamp": "2030-01-01T00:00:00Z"}
            self.reply(201, obj)

        do_PUT = do_POST
        do_PATCH = do_POST

        def do_DELETE(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            with recorder.lock:
                recorder.requests.append({"method": "DELETE", "path": self.path,
                                          "content_type": self.headers.get("Content-Type"),
                                          "accept": self.headers.get("Accept"), "body": body})
            self.reply(200, {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success"})

    return Handler


def make_tls_pair(workdir):
    cert, key = os.path.join(workdir, "tls.crt"), os.path.join(workdir, "tls.key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                    "-nodes", "-days", "1", "-subj", "/CN=capture.example", "-keyout", key, "-out", cert],
                   check=True, capture_output=True)
    return cert, key


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    recorder = Recorder()
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(recorder))
    port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    home = tempfile.mkdtemp(prefix="capstan-capture-home-")
    failures = 0
    try:
        cert, key = make_tls_pair(home)
        blob = os.path.join(home, "blob.bin")
        with open(blob, "wb") as f:
            f.write(bytes([0x00, 0xff, 0xfe, 0x80, 0x41, 0x0a]))
        env = dict(os.environ, HOME=home, KUBECONFIG=os.path.join(home, "none"))
        base = ["kubectl", "--server=http://127.0.0.1:%d" % port, "--namespace=default"]
        for name, args in COMMANDS.items():
            args = [a.replace("@CERT@", cert).replace("@KEY@", key).replace("@BLOB@", blob) for a in args]
            recorder.take()
            run = subprocess.run(base + args, env=env, capture_output=True, text=True, timeout=60)
            posts = recorder.take()
            if run.returncode != 0 or len(posts) != 1:
                print("FAIL %s: rc=%d posts=%d stderr=%s" % (name, run.returncode, len(posts),
                                                            run.stderr.strip()))
                failures += 1
                continue
            post = posts[0]
            with open(os.path.join(outdir, name + ".pb"), "wb") as f:
                f.write(post["body"])
            print("%-22s %5d bytes  %s %s  %s" % (name, len(post["body"]), post["method"], post["content_type"],
                                                  post["path"]))
            if name in NO_DRY_RUN:
                continue
            dry = args[:]
            cut = dry.index("--") if "--" in dry else len(dry)
            dry[cut:cut] = ["--dry-run=client", "-o", "json"]
            dry_run = subprocess.run(base + dry, env=env, capture_output=True, text=True, timeout=60)
            if dry_run.returncode == 0:
                with open(os.path.join(outdir, name + ".kubectl.json"), "w") as f:
                    f.write(dry_run.stdout)
            else:
                print("  (dry run failed: %s)" % dry_run.stderr.strip())
    finally:
        server.shutdown()
        server.server_close()
        shutil.rmtree(home, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
