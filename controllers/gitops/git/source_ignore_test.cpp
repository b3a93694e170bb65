// Flux's source ignore rules: the defaults, .sourceignore files scoped to their directory, and
// GitRepository.spec.ignore last, with go-git's .gitignore matching.
#include "controllers/gitops/git/mirrors.h"
#include "controllers/gitops/git/source_ignore.h"

#include <gtest/gtest.h>

namespace capstan::gitops::git {
namespace {

TEST(SourceIgnore, TheDefaultsLeaveOutVcsCiImagesArchivesAndToolConfigs) {
  SourceIgnore rules;
  for (const char* path : {".git/config", ".gitignore", "sub/.gitmodules", ".github/workflows/ci.yaml", "logo.png", "docs/a.jpg",
                           "release.tar.gz", ".travis.yml", "deep/dir/.sops.yaml", ".flux.yaml", "x/.goreleaser.yml"})
    EXPECT_TRUE(rules.excluded(path, false)) << path;
  EXPECT_TRUE(rules.excluded(".github", true));
  EXPECT_TRUE(rules.excluded(".git", true));
  for (const char* path : {"deploy/app.yaml", "kustomization.yaml", "github/x.yaml", "png", "README.md", "a.yml"})
    EXPECT_FALSE(rules.excluded(path, false)) << path;
}

TEST(SourceIgnore, NamesMatchAtAnyDepthAndSlashesAnchorToTheFilesDirectory) {
  SourceIgnore rules;
  rules.add_file("# comment\n\n*.md\ntmp/\n/local.yaml\ndocs/*.yaml\n", "");
  EXPECT_TRUE(rules.excluded("README.md", false));
  EXPECT_TRUE(rules.excluded("a/b/NOTES.md", false));
  EXPECT_TRUE(rules.excluded("tmp", true));
  EXPECT_TRUE(rules.excluded("a/tmp", true));
  EXPECT_TRUE(rules.excluded("a/tmp/x.yaml", false));  // inside an excluded directory
  EXPECT_FALSE(rules.excluded("a/tmp", false));         // a file named tmp: "tmp/" is for directories
  EXPECT_TRUE(rules.excluded("local.yaml", false));
  EXPECT_FALSE(rules.excluded("sub/local.yaml", false));  // anchored to the root
  EXPECT_TRUE(rules.excluded("docs/a.yaml", false));
  EXPECT_FALSE(rules.excluded("docs/sub/a.yaml", false));  // '*' does not cross '/'
  EXPECT_FALSE(rules.excluded("x/docs/a.yaml", false));

  // A .sourceignore deeper down applies to its directory only.
  rules.add_file("*.yaml\n!keep.yaml\n", "apps");
  EXPECT_TRUE(rules.excluded("apps/web.yaml", false));
  EXPECT_TRUE(rules.excluded("apps/deep/web.yaml", false));
  EXPECT_FALSE(rules.excluded("apps/keep.yaml", false));
  EXPECT_FALSE(rules.excluded("web.yaml", false));
  EXPECT_FALSE(rules.excluded("other/web.yaml", false));
}

TEST(SourceIgnore, DoubleStarsSpanDirectoriesAndSpecIgnoreHasTheLastWord) {
  SourceIgnore rules(std::string("/*\n!/deploy/\n!/deploy/**\ndeploy/**/secret-*.yaml\n!*.png\n"));
  rules.add_file("deploy/\n", "");  // overruled by spec.ignore, which comes last
  EXPECT_TRUE(rules.excluded("README.md", false));
  EXPECT_TRUE(rules.excluded("apps", true));
  EXPECT_FALSE(rules.excluded("deploy", true));
  EXPECT_FALSE(rules.excluded("deploy/app.yaml", false));
  EXPECT_FALSE(rules.excluded("deploy/a/b/app.yaml", false));
  EXPECT_TRUE(rules.excluded("deploy/a/b/secret-db.yaml", false));
  EXPECT_TRUE(rules.excluded("deploy/secret-db.yaml", false));  // '**/' matches no directory too
  EXPECT_FALSE(rules.excluded("deploy/logo.png", false));       // the image default, included again
}

TEST(SourceIgnore, PatternsAreBounded) {
  std::string many;
  for (std::size_t i = 0; i < kMaxIgnorePatterns; ++i) many += "f" + std::to_string(i) + "\n";
  EXPECT_THROW(SourceIgnore{many}, GitError);
}

}  // namespace
}  // namespace capstan::gitops::git
