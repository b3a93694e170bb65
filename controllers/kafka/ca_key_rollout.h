// What a Kafka reconcile does for the CA key replacement (ca_replacement.h) of its cluster CA and
// clients CA: reads the public Secrets and CA Secrets, writes the public Secrets, deletes a CA
// Secret whose key is being replaced, asks the certificates controller to issue the certificates
// a CA signs again (as `capstan certs renew` does: the Certificate's Issuing condition), and says
// what is going on.
#pragma once

#include "controllers/kafka/ca_replacement.h"
#include "controllers/kafka/env.h"
#include "runtime/json/json.h"
#include "runtime/log/log.h"

#include <string>
#include <vector>

namespace capstan::kafka {

class CaKeyRollout {
 public:
  CaKeyRollout(Env& env, const json::Value& kafka, const log::Logger& log);

  // Reads both CAs' Secrets (from the cache) and decides what their public Secrets say now.
  void follow();
  // The key generation of CA `ca_name` (its certificate's common name says it).
  std::int64_t key_generation(std::string_view ca_name) const;
  // Writes the public Secrets, then deletes the CA Secret of a key being replaced (its Certificate
  // applied before, so that it is issued again with a new key under its new name).
  void write();
  // What the nodes and clients of CA `ca_name` trust now (its public Secret's ca.crt), "" when
  // it was never issued.
  std::string bundle(std::string_view ca_name) const;
  // After the nodes were reconciled (`nodes_settled`: every node runs its current revision and
  // is Ready): the next phase of each replacement. Returns whether one is in progress.
  bool advance(bool nodes_settled);
  // The Warning's message while a replacement is in progress, "" otherwise.
  std::string message() const;

 private:
  struct Ca {
    std::string name;  // <c>-cluster-ca or <c>-clients-ca
    std::string what;  // "cluster CA"
    std::string current_pem;
    std::string secret_uid;
    CaTrust trust;
    bool delete_ca_secret = false;
    bool replace_key = false;     // certificateExpirationPolicy: replace-key
    std::int64_t renewal_days = 0;
  };
  // Whether every Certificate of the namespace signed by the CA's Issuer has its Secret signed by the CA's
  // current certificate; with `reissue`, those that are not and are not being issued are asked to be.
  bool leaves_on_new_key(const Ca& ca, bool reissue);
  void request_issuance(const json::Value& certificate, const Ca& ca);
  void apply(const Ca& ca);

  Env& env_;
  const json::Value& kafka_;
  log::Logger log_;
  std::string ns_, cluster_;
  std::vector<Ca> cas_;
};

}  // namespace capstan::kafka
