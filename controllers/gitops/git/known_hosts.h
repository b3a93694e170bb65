// OpenSSH known_hosts, as `ssh` reads it, for the host key check of ssh:// Git remotes (Flux's
// known_hosts key of a GitRepository's secretRef): lines of "patterns keytype base64-key
// [comment]" where patterns are comma-separated host names or "[host]:port" (port other than
// 22), with * and ? wildcards, !negation, or hashed ("|1|salt|hash", HMAC-SHA1 as ssh-keygen -H
// writes them). "@revoked" lines refuse their key; "@cert-authority" lines are not supported and
// are skipped (host certificates are not checked).
#pragma once

#include <string>
#include <string_view>

namespace capstan::gitops::git {

// Whether `known_hosts` trusts `key` (the host key blob as the server sent it: the bytes the
// base64 field encodes) for `host` on `port`. An unparseable line is skipped.
bool known_host(std::string_view known_hosts, std::string_view host, int port, std::string_view key);

}  // namespace capstan::gitops::git
