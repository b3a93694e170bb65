// The certificates controller's entry in the manager registry (manager/registry.h), and the
// wiring behind it.
//
//   manager::ControllerDescriptor d = certificates::certificates_descriptor();
//   // name "certificates", default on; crds() = apis/certs crds(); ClusterRole rules; wire()
//   // adds the controllers and the ACME solver. Its admission webhooks are webhooks/certificates
//   // (attached by manager/webhooks.cpp).
//
// Tests wire with explicit options (a jumping clock, the solver on a free port, no approver):
//   auto env = certificates::wire_certificates(mgr, options);
#pragma once

#include "controllers/certificates/options.h"
#include "manager/registry.h"

#include <memory>

namespace capstan::controller {
class Manager;
}

namespace capstan::certificates {

struct Env;

manager::ControllerDescriptor certificates_descriptor();

// Adds to `mgr`:
//   certificates                   Certificates -> Secret, temporary keys, CertificateRequests
//   certificaterequests-approver   (unless options.enable_approver is false)
//   certificaterequests-issuer     signs with SelfSigned, CA and ACME issuers
//   issuers, clusterissuers        Ready conditions
// the ACME HTTP-01 solver server, the certificate metrics collector and the event recorder.
// Returns the shared environment (e.g. env->solver->port()).
std::shared_ptr<Env> wire_certificates(controller::Manager& mgr, CertificatesOptions options);

}  // namespace capstan::certificates
