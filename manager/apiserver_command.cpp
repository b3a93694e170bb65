#include "manager/apiserver_command.h"

#include "apiserver/server.h"
#include "manager/flags.h"
#include "manager/signals.h"
#include "runtime/log/log.h"

#include <iostream>

namespace capstan::manager {
int apiserver_command(const std::vector<std::string>& args) {
  apiserver::ApiServerOptions o;
  std::string log_format = "text";
  long long verbosity = 0, history = static_cast<long long>(o.watch_history);
  FlagSet fs("capstan apiserver");
  fs.add_string("listen", &o.listen, "address to serve HTTPS on (host:port; port 0 picks a free one)");
  fs.add_string("kubeconfig-out", &o.kubeconfig_out, "write an admin kubeconfig for this server to this file once serving");
  fs.add_string("data-dir", &o.data_dir, "store objects durably (SQLite) and keep the CA in this directory; empty = in memory");
  fs.add_bool("simulate-workloads", &o.simulate_workloads,
              "run Pods for StatefulSets and Deployments and mark them Ready (a kubelet stand-in)");
  fs.add_duration("pod-ready-delay", &o.pod_ready_delay, "with --simulate-workloads: how long a Pod takes to become Ready", "1s");
  fs.add_duration("watch-bookmark-interval", &o.bookmark_interval, "how often watches that allow bookmarks get one", "1m0s");
  fs.add_int("watch-history", &history, "events kept for watch resumption; older resourceVersions get 410 Gone");
  fs.add_double("fault-429-rate", &o.fault_429, "fault injection: fraction of requests answered 429 with Retry-After");
  fs.add_double("fault-500-rate", &o.fault_500, "fault injection: fraction of requests answered 500");
  fs.add_duration("fault-latency", &o.fault_latency, "fault injection: latency added to every request", "0s");
  fs.add_duration("fault-drop-watches", &o.fault_drop_watches, "fault injection: close every watch after this long", "0s");
  fs.add_string("authorization-mode", &o.authorization_mode,
                "how requests are authorized: RBAC (kube's bootstrap policy and the cluster's Roles and bindings; "
                "system:masters may do anything) or AlwaysAllow");
  fs.add_string("log-format", &log_format, "log format: text or json");
  fs.add_int("v", &verbosity, "log verbosity (0 info, 1-3 debug, 4+ trace)");
  fs.parse(args);
  if (fs.help_requested()) {
    std::cout << "Runs Capstan's embedded Kubernetes-compatible API server.\n\nUsage:\n  capstan apiserver [flags]\n\n" << fs.usage();
    return 0;
  }
  check_log_format(log_format);
  if (o.authorization_mode != "RBAC" && o.authorization_mode != "Node,RBAC" && o.authorization_mode != "AlwaysAllow")
    throw UsageError("invalid --authorization-mode \"" + o.authorization_mode + "\" (use RBAC or AlwaysAllow)");
  log::init(log::parse_format(log_format), static_cast<int>(verbosity));
  o.watch_history = static_cast<std::size_t>(std::max(1LL, history));
  apiserver::ApiServer server(o);
  server.start();
  std::cout << "capstan apiserver serving on " << server.url() << std::endl;
  int sig = wait_for_termination();
  log::info("shutting down", {{"signal", sig}});
  server.stop();
  return 0;
}

}  // namespace capstan::manager
