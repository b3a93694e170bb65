// The certificates controller's plug-in (runtime/plugin), and the wiring behind it.
//
//   registry.add(certificates::plugin());
//   // "certificates" (alias "cert-manager"), default on; the apis/certs CRDs, the admission
//   // webhooks of webhooks/certificates; setup adds the controllers and the ACME solver.
//   // Flags: --cluster-resource-namespace, --acme-http01-solver-port, --acme-http01-solver-service.
//
// Tests wire with explicit options (a jumping clock, the solver on a free port, no approver):
//   auto env = certificates::wire_certificates(mgr, options);
#pragma once

#include "controllers/certificates/options.h"
#include "runtime/plugin/plugin.h"

#include <memory>

namespace capstan::controller {
class Manager;
}

namespace capstan::certificates {

struct Env;

plugin::Plugin plugin();

// Adds to `mgr`:
//   certificates                   Certificates -> Secret, temporary keys, CertificateRequests
//   certificaterequests-approver   (unless options.enable_approver is false)
//   or, with options.enable_policy_approver, certificaterequestpolicies and
//   certificaterequests-policy-approver (approval/policy_approver.h) in its place
//   certificaterequests-issuer     signs with SelfSigned, CA and ACME issuers
//   issuers, clusterissuers        Ready conditions
// the ACME HTTP-01 solver server, the certificate metrics collector and the event recorder.
// Returns the shared environment (e.g. env->solver->port()).
std::shared_ptr<Env> wire_certificates(controller::Manager& mgr, CertificatesOptions options);

}  // namespace capstan::certificates
