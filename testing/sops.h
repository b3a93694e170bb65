// The pinned `sops`, `age` and `age-keygen` (scripts/tools.sh builds them into .tools/bin from
// tools/sops/go.mod), for tests that need files encrypted the way users encrypt them.
#pragma once

#include "testing/temp_dir.h"

#include <string>
#include <vector>

namespace capstan::e2e {

struct AgeKey {
  std::string identity;   // the whole identity file age-keygen wrote (comments and AGE-SECRET-KEY-1...)
  std::string recipient;  // "age1..."
};

// A new X25519 key from age-keygen (a gtest failure when the tool is missing or fails).
AgeKey age_keygen(const TempDir& dir);

// `sops encrypt` of `plain` for `recipients`; `name` gives the file its extension, which picks
// sops' format (.yaml, .json, .env, anything else binary); `extra` are more flags
// ("--encrypted-regex", "^(data|stringData)$"). Returns the encrypted file's text.
std::string sops_encrypt(const TempDir& dir, const std::vector<std::string>& recipients, const std::string& name,
                         const std::string& plain, const std::vector<std::string>& extra = {});

// `age --encrypt` of `plain` for one recipient, binary or ASCII-armored.
std::string age_encrypt(const TempDir& dir, const std::string& recipient, const std::string& plain, bool armor);

}  // namespace capstan::e2e
