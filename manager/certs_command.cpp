#include "manager/certs_command.h"

#include "controllers/certificates/cli/cli.h"
#include "controllers/certificates/cli/convert.h"
#include "controllers/certificates/cli/create_request.h"
#include "manager/flags.h"
#include "runtime/client/client.h"
#include "runtime/client/config.h"
#include "runtime/json/yaml.h"

#include <fstream>
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
    "  capstan certs create-csr [NAME] -f CERT.yaml [--fetch-certificate]\n"
    "                                                 a CertificateRequest from a Certificate manifest, its key\n"
    "                                                 generated here into NAME.key (never sent); with\n"
    "                                                 --fetch-certificate the signed chain into NAME.crt\n"
    "  capstan certs convert -f FILE|-                cert-manager and trust-manager manifests rewritten for Capstan\n"
    "                                                 (apiVersions, issuerRef groups, cert-manager.io/ annotations)\n"
    "\n"
    "The cluster is the kubeconfig's (--kubeconfig, else $KUBECONFIG, else in-cluster, else ~/.kube/config),\n"
    "the namespace -n/--namespace's, else the context's. status and inspect print text, or -o json|yaml.\n\n";

// kubectl's short flags as their long forms.
std::vector<std::string> expand_short_flags(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto long_form = [](char c) { return std::string(c == 'n' ? "--namespace=" : c == 'o' ? "--output=" : "--filename="); };
    if ((a == "-n" || a == "-o" || a == "-f") && i + 1 < args.size()) {
      out.push_back(long_form(a[1]) + args[++i]);
    } else if (a.rfind("-n=", 0) == 0 || a.rfind("-o=", 0) == 0 || a.rfind("-f=", 0) == 0) {
      out.push_back(long_form(a[1]) + a.substr(3));
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

// A file's text, or stdin's for "-" (at most 16 MiB either way).
std::string read_input(const std::string& path) {
  constexpr std::size_t kMax = 16u << 20;
  std::string text;
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) throw std::runtime_error("cannot read " + path);
    in = &file;
  }
  char buf[65536];
  while (in->read(buf, sizeof buf) || in->gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in->gcount()));
    if (text.size() > kMax) throw std::runtime_error((path == "-" ? std::string("stdin") : path) + " is over 16 MiB");
  }
  return text;
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
  std::string filename, key_file, certificate_file;
  bool fetch = false;
  std::chrono::milliseconds timeout = std::chrono::minutes(5);
  fs.add_string("filename", &filename, "create-csr: the Certificate manifest; convert: the manifests (- for stdin) (-f)");
  fs.add_string("output-key-file", &key_file, "create-csr: where the private key goes (default NAME.key; never overwritten)");
  fs.add_string("output-certificate-file", &certificate_file, "create-csr: where the signed chain goes (default NAME.crt)");
  fs.add_bool("fetch-certificate", &fetch, "create-csr: wait until the request is signed and write the chain");
  fs.add_duration("timeout", &timeout, "create-csr --fetch-certificate: how long to wait", "5m");
  auto positional = fs.parse(expand_short_flags(args));
  if (fs.help_requested() || positional.empty()) {
    std::cout << kHelp << fs.usage();
    return positional.empty() && !fs.help_requested() ? 2 : 0;
  }
  if (output != "text" && output != "json" && output != "yaml")
    throw UsageError("--output must be text, json or yaml, not \"" + output + "\"", fs.usage());
  const std::string& verb = positional[0];
  if (verb != "renew" && verb != "approve" && verb != "deny" && verb != "status" && verb != "inspect" && verb != "create-csr" &&
      verb != "convert")
    throw UsageError("unknown subcommand \"" + verb + "\" (renew, approve, deny, status, inspect, create-csr, convert)", fs.usage());
  if ((verb == "create-csr" || verb == "convert") && filename.empty())
    throw UsageError("capstan certs " + verb + " needs -f FILE", fs.usage());
  if (verb == "convert") {
    // Works on files alone: no cluster.
    if (positional.size() != 1) throw UsageError("capstan certs convert takes no names, only -f FILE", fs.usage());
    std::string text;
    try {
      text = read_input(filename);
      auto converted = cli::convert_from_cert_manager(json::from_yaml_documents(text, filename == "-" ? "stdin" : filename));
      for (std::size_t i = 0; i < converted.objects.size(); ++i) std::cout << (i ? "---\n" : "") << json::to_yaml(converted.objects[i]);
      for (const auto& n : converted.notes) std::cerr << "note: " << n << "\n";
    } catch (const std::exception& e) {
      std::cerr << "capstan certs convert: " << e.what() << "\n";
      return 1;
    }
    return 0;
  }

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
    } else if (verb == "create-csr") {
      if (positional.size() > 2) throw UsageError("capstan certs create-csr takes at most one CertificateRequest name", fs.usage());
      cli::CreateRequestOptions o;
      o.ns = ns;
      o.name = positional.size() == 2 ? positional[1] : "";
      try {
        o.certificate_yaml = read_input(filename);
      } catch (const std::exception& e) {
        throw cli::CliError(e.what());
      }
      o.key_file = key_file;
      o.certificate_file = certificate_file;
      o.fetch_certificate = fetch;
      o.timeout = timeout;
      for (const auto& l : cli::create_request(c, o)) std::cout << l << "\n";
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
