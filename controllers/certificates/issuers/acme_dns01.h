// DNS-01 challenges for the ACME issuer (RFC 8555 §8.4): the TXT record
// _acme-challenge.<domain> holding base64url(SHA-256(key authorization)), published on the
// solver's RFC 2136 nameserver with TSIG, checked there before the challenge is accepted (so
// the CA never looks before the record is answered), and withdrawn once the order is done.
// A wildcard name's record is its base domain's; the two values of a certificate for
// example.com and *.example.com live side by side in one RRset.
#pragma once

#include "apis/certs/v1/issuer.h"

#include <string>
#include <string_view>

namespace capstan::certificates {

struct Env;
namespace v1 = apis::certs::v1;

// "_acme-challenge.<domain>" ("*." dropped).
std::string dns01_record_name(std::string_view domain);

struct Dns01Record {
  const v1::Dns01Solver& solver;
  std::string secrets_namespace;  // where tsigSecretSecretRef lives
  std::string domain;             // the authorization's identifier
  std::string value;              // acme::dns01_txt_value(key authorization)
};

// Publishes the record (idempotent) and returns whether the nameserver answers it yet. Throws
// std::runtime_error naming the solver field, Secret or nameserver when it cannot.
bool present_dns01(Env& env, const Dns01Record& record);
// Removes exactly this value (others at the same name stay). Throws like present_dns01.
void clean_up_dns01(Env& env, const Dns01Record& record);

}  // namespace capstan::certificates
