// The capstan command line as a user meets it: usage errors exit 2 and say what is wrong (an
// unknown flag lists the command's flags), --help prints help and exits 0.
#include "testing/kubectl.h"

#include <gtest/gtest.h>

namespace capstan::e2e {
namespace {

TEST(CliE2E, BadLogFormatsAreUsageErrors) {
  for (const char* cmd : {"dev", "apiserver", "manager"}) {
    auto r = run({capstan_bin(), cmd, "--log-format=xml"});
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("unknown log format \"xml\""), std::string::npos) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("--log-format"), std::string::npos) << cmd << ": " << r.err;
  }
}

TEST(CliE2E, VersionHelpPrintsHelp) {
  auto help = run({capstan_bin(), "version", "--help"});
  EXPECT_EQ(help.code, 0) << help.err;
  EXPECT_NE(help.out.find("Usage:\n  capstan version"), std::string::npos) << help.out;
  auto version = run({capstan_bin(), "version"});
  EXPECT_EQ(version.code, 0);
  EXPECT_EQ(version.out.rfind("capstan ", 0), 0u) << version.out;
  auto flag = run({capstan_bin(), "--version"});
  EXPECT_EQ(flag.code, 0) << flag.err;
  EXPECT_EQ(flag.out, version.out);
  auto extra = run({capstan_bin(), "version", "--short"});
  EXPECT_EQ(extra.code, 2);
  EXPECT_NE(extra.err.find("unknown flag: --short"), std::string::npos) << extra.err;
}

TEST(CliE2E, AnUnknownFlagListsTheCommandsFlags) {
  auto dev = run({capstan_bin(), "dev", "--datadir=x"});
  EXPECT_EQ(dev.code, 2);
  EXPECT_NE(dev.err.find("unknown flag: --datadir"), std::string::npos) << dev.err;
  EXPECT_NE(dev.err.find("--data-dir value"), std::string::npos) << "the valid flags are listed: " << dev.err;
  EXPECT_NE(dev.err.find("capstan dev --help"), std::string::npos) << dev.err;
  auto crds = run({capstan_bin(), "crds", "--output=json"});
  EXPECT_EQ(crds.code, 2);
  EXPECT_NE(crds.err.find("unknown flag: --output"), std::string::npos) << crds.err;
  auto manifests = run({capstan_bin(), "manifests"});
  EXPECT_EQ(manifests.code, 2);
  EXPECT_TRUE(manifests.out.empty()) << "usage errors go to stderr: " << manifests.out;
  EXPECT_NE(manifests.err.find("capstan manifests CONFIG_DIR"), std::string::npos) << manifests.err;
}

}  // namespace
}  // namespace capstan::e2e
