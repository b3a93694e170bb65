// Signing a CertificateRequest through an ACME issuer (cert-manager's certificaterequests/acme
// + orders + challenges controllers, kept in the request itself since there are no Order or
// Challenge kinds here): one order per request, its URL kept in the request's
// acme.capstan.dev/order-url annotation (so a restart resumes the same order); each
// pending authorization's HTTP-01 challenge is presented through the manager's solver (and a
// solver Service/Ingress when the solver config has an ingress) and accepted; a ready order is
// finalized with the request's CSR; a valid one's chain is downloaded. Progress is polled
// briefly inside the reconcile, then requeued; nothing is kept in memory across reconciles.
#pragma once

#include "apis/certs/v1/certificate_request.h"
#include "apis/certs/v1/issuer.h"
#include "controllers/certificates/requests/outcome.h"
#include "runtime/json/json.h"
#include "runtime/log/log.h"

namespace capstan::certificates {

struct Env;

// `cr_obj` gets the new resourceVersion when the order URL annotation is written.
SignOutcome sign_acme(Env& env, const v1::CertificateRequest& cr, json::Value& cr_obj, const v1::Issuer& issuer,
                      const log::Logger& log);

}  // namespace capstan::certificates
