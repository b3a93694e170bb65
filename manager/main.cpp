// capstan: one binary for the manager, the embedded API server and the dev cluster.
#include "manager/apiserver_command.h"
#include "manager/certs_command.h"
#include "manager/crds_command.h"
#include "manager/dev_command.h"
#include "manager/manager_command.h"
#include "manager/flags.h"
#include "manager/signals.h"
#include "manager/simulate_command.h"

#include <exception>
#include <iostream>
#include <string>
#include <vector>

namespace {

const char* kUsage =
    "Capstan runs the TLS certificates, monitoring, Kafka and GitOps operators in one process.\n"
    "\n"
    "Usage:\n"
    "  capstan <command> [flags]\n"
    "\n"
    "Commands:\n"
    "  manager     run the enabled controllers against a cluster\n"
    "  dev         run the embedded API server and every controller (try Capstan locally)\n"
    "  apiserver   run the embedded Kubernetes-compatible API server\n"
    "  simulate-workloads\n"
    "              run Pods of Deployments and StatefulSets, PVC binding and Endpoints against any API server\n"
    "  crds        print every CustomResourceDefinition (YAML)\n"
    "  manifests   write the generated kustomize manifests (CRDs, RBAC, webhooks) into a directory\n"
    "  certs       renew, approve, deny, status and inspect certificates in any cluster (cmctl)\n"
    "  version     print the version\n"
    "\n"
    "Use \"capstan <command> --help\" for a command's flags.\n";

int version_command(const std::vector<std::string>& args) {
  capstan::manager::FlagSet fs("capstan version");
  auto positional = fs.parse(args);
  if (fs.help_requested()) {
    std::cout << "Prints the version of this capstan binary.\n\nUsage:\n  capstan version\n\n" << fs.usage();
    return 0;
  }
  if (!positional.empty()) throw capstan::manager::UsageError("unexpected argument \"" + positional[0] + "\"");
  std::cout << "capstan " << CAPSTAN_VERSION << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  capstan::manager::block_termination_signals();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  std::string cmd = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  try {
    if (cmd == "manager") return capstan::manager::manager_command(rest);
    if (cmd == "dev") return capstan::manager::dev_command(rest);
    if (cmd == "apiserver") return capstan::manager::apiserver_command(rest);
    if (cmd == "simulate-workloads") return capstan::manager::simulate_workloads_command(rest);
    if (cmd == "crds") return capstan::manager::crds_command(rest);
    if (cmd == "manifests") return capstan::manager::manifests_command(rest);
    if (cmd == "certs") return capstan::manager::certs_command(rest);
    // `--version` as most CLIs take it: the same as `capstan version`.
    if (cmd == "version" || cmd == "--version") return version_command(rest);
    std::cerr << "capstan: unknown command \"" << cmd << "\"\n\n" << kUsage;
    return 2;
  } catch (const capstan::manager::UsageError& e) {
    std::cerr << "capstan " << cmd << ": " << e.what() << "\n";
    if (!e.usage().empty()) std::cerr << "\nUsage of capstan " << cmd << ":\n" << e.usage();
    std::cerr << "Run \"capstan " << cmd << " --help\" for usage.\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "capstan " << cmd << ": " << e.what() << "\n";
    return 1;
  }
}
