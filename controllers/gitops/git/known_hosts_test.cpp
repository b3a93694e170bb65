#include "controllers/gitops/git/known_hosts.h"

#include "runtime/meta/base64.h"

#include <gtest/gtest.h>

namespace capstan::gitops::git {
namespace {

// Two made-up key blobs (known_hosts compares the bytes the base64 field encodes).
const std::string kKey = "\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + std::string(32, 'k');
const std::string kOther = "\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + std::string(32, 'o');

std::string line(const std::string& hosts, const std::string& key = kKey) { return hosts + " ssh-ed25519 " + meta::base64_encode(key) + " comment\n"; }

TEST(KnownHosts, PlainNamesPortsWildcardsAndNegation) {
  EXPECT_TRUE(known_host(line("github.com,140.82.112.3"), "github.com", 22, kKey));
  EXPECT_TRUE(known_host(line("github.com,140.82.112.3"), "140.82.112.3", 22, kKey));
  EXPECT_FALSE(known_host(line("github.com"), "github.com", 22, kOther));         // another key: refused
  EXPECT_FALSE(known_host(line("github.com"), "gitlab.com", 22, kKey));           // another host
  EXPECT_FALSE(known_host(line("github.com"), "github.com", 2222, kKey));         // another port
  EXPECT_TRUE(known_host(line("[127.0.0.1]:2222"), "127.0.0.1", 2222, kKey));
  EXPECT_TRUE(known_host(line("*.example.com,!bad.example.com"), "git.example.com", 22, kKey));
  EXPECT_FALSE(known_host(line("*.example.com,!bad.example.com"), "bad.example.com", 22, kKey));
  EXPECT_TRUE(known_host("# comment\n\n" + line("other", kOther) + line("git?.example.com"), "git1.example.com", 22, kKey));
}

TEST(KnownHosts, HashedRevokedAndCertificateAuthorityLines) {
  // ssh-keygen -H's form of "[127.0.0.1]:2222" with the salt 00 01 .. 13.
  const std::string hashed = "|1|AAECAwQFBgcICQoLDA0ODxAREhM=|zKYaAqmSav3Qxr2sffNqWFIcbe4=";
  EXPECT_TRUE(known_host(line(hashed), "127.0.0.1", 2222, kKey));
  EXPECT_FALSE(known_host(line(hashed), "127.0.0.1", 2223, kKey));
  EXPECT_FALSE(known_host(line("github.com") + "@revoked " + line("github.com"), "github.com", 22, kKey));
  EXPECT_FALSE(known_host("@cert-authority " + line("github.com"), "github.com", 22, kKey));
  EXPECT_FALSE(known_host("github.com ssh-ed25519 not-base64!\n", "github.com", 22, kKey));
  EXPECT_FALSE(known_host("", "github.com", 22, kKey));
}

}  // namespace
}  // namespace capstan::gitops::git
