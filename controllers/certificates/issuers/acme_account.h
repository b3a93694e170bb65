// The ACME issuer's account (pkg/issuer/acme/setup.go): the account key lives in the Secret
// spec.acme.privateKeySecretRef (generated, RSA 2048, when missing unless
// disableAccountKeyGeneration); the account is registered (or found) with the server, and
// status.acme.uri / lastRegisteredEmail / lastPrivateKeyHash record it. Ready is
// ACMEAccountRegistered, or ErrRegisterACMEAccount with the reason.
#pragma once

#include "apis/certs/v1/issuer.h"
#include "controllers/certificates/acme/resources.h"
#include "controllers/certificates/issuers/setup.h"
#include "runtime/log/log.h"

#include <optional>
#include <string>

namespace capstan::certificates {

struct Env;
namespace v1 = apis::certs::v1;

// Updates status.acme on success.
IssuerCondition setup_acme(Env& env, const v1::Issuer& issuer, v1::IssuerStatus& status, const log::Logger& log);

// The registered account of a Ready ACME issuer (key from its Secret, URL from status.acme.uri);
// nullopt with `why` when it is not usable yet.
std::optional<acme::Account> load_account(Env& env, const v1::Issuer& issuer, std::string* why);

}  // namespace capstan::certificates
