#include "testing/sops.h"

#include "testing/cluster.h"
#include "testing/process.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>

namespace capstan::e2e {
namespace {

std::string tool(const std::string& name) {
  std::string path = tools_bin_dir() + "/" + name;
  if (!std::filesystem::exists(path)) ADD_FAILURE() << path << " is missing: build it with scripts/tools.sh " << name;
  return path;
}

std::string check(const RunResult& r, const std::string& what) {
  if (r.code != 0 || r.timed_out) ADD_FAILURE() << what << " failed (exit " << r.code << "): " << r.err;
  return r.out;
}

}  // namespace

AgeKey age_keygen(const TempDir& dir) {
  static std::atomic<int> n{0};
  std::string file = dir.file("age-" + std::to_string(n++) + ".agekey");
  check(run({tool("age-keygen"), "-o", file}), "age-keygen");
  AgeKey key;
  key.identity = read_file(file);
  auto at = key.identity.find("public key: ");
  if (at != std::string::npos) key.recipient = key.identity.substr(at + 12, key.identity.find('\n', at) - at - 12);
  EXPECT_TRUE(key.recipient.starts_with("age1")) << "no public key in age-keygen's output";
  return key;
}

std::string sops_encrypt(const TempDir& dir, const std::vector<std::string>& recipients, const std::string& name,
                         const std::string& plain, const std::vector<std::string>& extra) {
  std::string joined;
  for (const auto& r : recipients) joined += (joined.empty() ? "" : ",") + r;
  std::string file = dir.write("sops-plain/" + name, plain);
  std::vector<std::string> args = {tool("sops"), "encrypt", "--age", joined};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(file);
  // No .sops.yaml lookup outside the test's directory, and no version check over the network.
  return check(run(args, {{"SOPS_DISABLE_VERSION_CHECK", "1"}, {"HOME", dir.path().string()}}), "sops encrypt " + name);
}

std::string age_encrypt(const TempDir& dir, const std::string& recipient, const std::string& plain, bool armor) {
  std::vector<std::string> args = {tool("age"), "--encrypt", "-r", recipient};
  if (armor) args.push_back("--armor");
  std::string in = dir.write("age-plain", plain);
  std::string out = dir.file("age-sealed");
  args.insert(args.end(), {"-o", out, in});
  check(run(args), "age --encrypt");
  return read_file(out);
}

}  // namespace capstan::e2e
