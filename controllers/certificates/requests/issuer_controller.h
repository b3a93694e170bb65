// The CertificateRequest signer (cert-manager's certificaterequests-issuer-{selfsigned,ca,acme}
// as one controller): a request for one of our issuers that is approved and not finished is
// signed by its issuer's type; denied ones get Ready=False Denied; requests whose issuer is
// missing or not Ready stay Pending and are woken when it changes. Requests for external
// issuers (another group) are left alone.
#pragma once

#include "runtime/controller/reconcile.h"

namespace capstan::certificates {

struct Env;

controller::Result reconcile_signing(Env& env, const controller::Request& req, controller::Context& ctx);

}  // namespace capstan::certificates
