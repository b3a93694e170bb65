#include "manager/certs_command.h"

#include "controllers/certificates/cli/cli.h"
#include "manager/flags.h"
#include "runtime/client/client.h"
#include "runtime/client/config.h"
#include "runtime/json/yaml.h"

#include <iostream>

namespace capstan::manager {
namespace {

namespace cli = certificates::cli;

constexpr const char* kHelp =
    "Works with certs.capstan.dev objects in any cluster (cert-manager's cmctl).\n"
    "\n"
    "Usage:\n"
    "  capstan certs renew NAME... | --all [-A]      re-issue Certificates now (Issuing=True, ManuallyTriggered)\n"
    "  capstan certs approve NAME [--reason R] [--message M]\n"
    "  capstan certs deny NAME [--reason R] [--message M]\n"
    "                                                 decide a CertificateRequest (the approver can be off:\n"
    "                                                 capstan manager --certificate-request-approver=false)\n"
    "  capstan certs status certificate NAME          conditions, issuer, Secret and requests of a Certificate\n"
    "  capstan certs inspect secret NAME              the certificates of a Secret's tls.crt, checked against ca.crt\n"
    "\n"
    "The cluster is the kubeconfig's (--kubeconfig, else $KUBECONFIG, else in-cluster, else ~/.kube/config),\n"
    "the namespace -n/--namespace's, else the context's. status and inspect print text, or -o json|yaml.\n\n";

// kubectl's short flags as their long forms.
std::vector<std::string> expand_short_flags(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "-n" || a == "-o") && i + 1 < args.size()) {
      out.push_back(std::string(a == "-n" ? "--namespace=" : "--output=") + args[++i]);
    } else if (a.rfind("-n=", 0) == 0 || a.rfind("-o=", 0) == 0) {
      out.push_back(std::string(a[1] == 'n' ? "--namespace=" : "--output=") + a.substr(3));
    } else if (a == "-A") {
      out.push_back("--all-namespaces");
    } else {
      out.push_back(a);
    }
  }
  return out;
}

void print(const json::Value& v, const std::string& output, const std::string& text) {
  if (output == "json") {
    std::cout << json::serialize(v) << "\n";
  } else if (output == "yaml") {
    std::cout << json::to_yaml(v);
  } else {
    std::cout << text;
  }
}

// "status certificate NAME" / "status NAME": the name after an optional kind word.
std::string named(const std::vector<std::string>& positional, std::string_view kind, const FlagSet& fs) {
  std::size_t first = positional.size() > 1 && positional[1] == kind ? 2 : 1;
  if (positional.size() != first + 1)
    throw UsageError("capstan certs " + positional[0] + " takes one " + std::string(kind) + " name", fs.usage());
  return positional[first];
}

}  // namespace

int certs_command(const std::vector<std::string>& args) {
  FlagSet fs("capstan certs");
  std::string kubeconfig, context, ns, output = "text", reason, message;
  bool all = false, all_namespaces = false;
  fs.add_string("kubeconfig", &kubeconfig, "path to a kubeconfig; default $KUBECONFIG, then in-cluster, then ~/.kube/config");
  fs.add_string("context", &context, "the kubeconfig context to use (default: its current context)");
  fs.add_string("namespace", &ns, "the namespace (-n; default: the context's)");
  fs.add_string("output", &output, "status and inspect output: text, json or yaml (-o)");
  fs.add_bool("all", &all, "renew: every Certificate of the namespace");
  fs.add_bool("all-namespaces", &all_namespaces, "renew --all: of every namespace (-A)");
  fs.add_string("reason", &reason, "approve/deny: the condition's reason (default KubectlCapstan)");
  fs.add_string("message", &message, "approve/deny: the condition's message");
  auto positional = fs.parse(expand_short_flags(args));
  if (fs.help_requested() || positional.empty()) {
    std::cout << kHelp << fs.usage();
    return positional.empty() && !fs.help_requested() ? 2 : 0;
  }
  if (output != "text" && output != "json" && output != "yaml")
    throw UsageError("--output must be text, json or yaml, not \"" + output + "\"", fs.usage());
  const std::string& verb = positional[0];
  if (verb != "renew" && verb != "approve" && verb != "deny" && verb != "status" && verb != "inspect")
    throw UsageError("unknown subcommand \"" + verb + "\" (renew, approve, deny, status, inspect)", fs.usage());

  client::Config cfg = client::load_config(kubeconfig, context);
  if (ns.empty()) ns = cfg.default_namespace.empty() ? "default" : cfg.default_namespace;
  client::Client c(cfg);
  try {
    if (verb == "renew") {
      std::vector<std::string> names(positional.begin() + 1, positional.end());
      if (all && !names.empty()) throw UsageError("name Certificates or use --all, not both", fs.usage());
      for (const auto& l : cli::renew(c, all && all_namespaces ? "" : ns, names, all)) std::cout << l << "\n";
    } else if (verb == "approve" || verb == "deny") {
      if (positional.size() != 2) throw UsageError("capstan certs " + verb + " takes one CertificateRequest name", fs.usage());
      const bool approve = verb == "approve";
      std::cout << cli::decide(c, ns, positional[1], approve, reason.empty() ? "KubectlCapstan" : reason,
                               message.empty() ? std::string("manually ") + (approve ? "approved" : "denied") + " by capstan certs"
                                               : message)
                << "\n";
    } else if (verb == "status") {
      auto s = cli::certificate_status(c, ns, named(positional, "certificate", fs));
      print(s, output, cli::format_status(s));
    } else {
      auto s = cli::inspect_secret(c, ns, named(positional, "secret", fs));
      print(s, output, cli::format_inspection(s));
    }
  } catch (const cli::CliError& e) {
    std::cerr << "capstan certs " << verb << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace capstan::manager
