// The artifact tarball against GNU tar and gzip: what they extract is what the commit holds, and
// the same files give the same bytes.
#include "controllers/gitops/artifact_archive.h"

#include "controllers/gitops/git/mirrors.h"
#include "runtime/pki/digest.h"
#include "testing/git.h"
#include "testing/process.h"
#include "testing/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

namespace capstan::gitops {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class ArtifactArchive : public ::testing::Test {
 protected:
  void SetUp() override {
    e2e::GitRepo repo(dir_.path().string(), "src");
    std::mt19937 rng(7);
    std::string random(200'000, '\0');  // over three of the 64 KiB pieces zlib is fed
    for (auto& c : random) c = static_cast<char>(rng());
    files_ = {
        {"kustomization.yaml", "resources: [app]\n"},
        {"app/deploy.yaml", "kind: Deployment\n"},
        {"app/empty.txt", ""},
        {"app/random.bin", random},
        {"app/nul.bin", std::string("a\0b\0c", 5)},
        // 150 bytes with slashes: ustar's prefix and name fields.
        {std::string(60, 'p') + "/" + std::string(40, 'q') + "/" + std::string(47, 'r') + ".y", "split\n"},
        // A last component longer than ustar's 100 bytes: a PAX header.
        {std::string(120, 'd') + "/" + std::string(140, 'f') + ".yaml", "pax\n"},
    };
    for (const auto& [path, content] : files_) repo.write(path, content);
    commit_ = repo.commit("files");
    url_ = dir_.file("src.git");
    mirrors_ = std::make_unique<git::Mirrors>(dir_.path() / "mirrors");
    mirrors_->sync(url_, git::Ref{"main", "", "", ""}, 30s);
    for (auto& [path, blob] : mirrors_->listing(url_, commit_, "")) listing_.emplace(path, ArtifactEntry{url_, blob.oid, blob.size});
  }

  std::string archive() {
    std::string out;
    auto summary = write_artifact_archive(*mirrors_, listing_, [&](std::string_view piece) {
      out.append(piece);
      return true;
    });
    EXPECT_TRUE(summary);
    if (summary) {
      EXPECT_EQ(summary->digest, "sha256:" + pki::sha256_hex(out));
      EXPECT_EQ(summary->size, out.size());
    }
    return out;
  }

  e2e::TempDir dir_;
  std::map<std::string, std::string> files_;
  std::string commit_, url_;
  std::unique_ptr<git::Mirrors> mirrors_;
  ArtifactListing listing_;
};

TEST_F(ArtifactArchive, GnuTarExtractsExactlyTheFilesOfTheCommit) {
  ASSERT_EQ(listing_.size(), files_.size());
  const std::string tarball = dir_.write("artifact.tar.gz", archive());
  auto gzip = e2e::run({"gzip", "-t", tarball});
  ASSERT_EQ(gzip.code, 0) << gzip.err;
  const fs::path out = dir_.path() / "out";
  fs::create_directories(out);
  auto tar = e2e::run({"tar", "-xzf", tarball, "-C", out.string()});
  ASSERT_EQ(tar.code, 0) << tar.err;
  std::size_t seen = 0;
  for (const auto& entry : fs::recursive_directory_iterator(out)) {
    if (!entry.is_regular_file()) continue;
    const std::string rel = fs::relative(entry.path(), out).string();
    ASSERT_TRUE(files_.contains(rel)) << "extra file " << rel;
    EXPECT_EQ(e2e::read_file(entry.path().string()), files_.at(rel)) << rel;
    EXPECT_EQ(entry.status().permissions() & fs::perms::all, fs::perms(0644)) << rel;
    ++seen;
  }
  EXPECT_EQ(seen, files_.size());
  // Listed in path order, as the digest covers them.
  auto list = e2e::run({"tar", "-tzf", tarball});
  ASSERT_EQ(list.code, 0) << list.err;
  std::string expected;
  for (const auto& [path, content] : files_) expected += path + "\n";
  EXPECT_EQ(list.out, expected);
}

TEST_F(ArtifactArchive, TheSameFilesGiveTheSameBytesAndAnotherByteAnotherDigest) {
  const std::string first = archive();
  EXPECT_EQ(archive(), first);
  // The same files at the same paths from another mirror: the same tarball.
  git::Mirrors other(dir_.path() / "other-mirrors");
  other.sync(url_, git::Ref{"main", "", "", ""}, 30s);
  auto same = write_artifact_archive(other, listing_);
  ASSERT_TRUE(same);
  EXPECT_EQ(same->digest, "sha256:" + pki::sha256_hex(first));
  // One file renamed: another digest.
  ArtifactListing renamed = listing_;
  auto node = renamed.extract("app/deploy.yaml");
  node.key() = "app/deploy2.yaml";
  renamed.insert(std::move(node));
  auto moved = write_artifact_archive(*mirrors_, renamed);
  ASSERT_TRUE(moved);
  EXPECT_NE(moved->digest, same->digest);
}

TEST_F(ArtifactArchive, AReaderThatGoesAwayStopsIt) {
  int pieces = 0;
  auto summary = write_artifact_archive(*mirrors_, listing_, [&](std::string_view) { return ++pieces < 2; });
  EXPECT_FALSE(summary);
  EXPECT_EQ(pieces, 2);
}

TEST_F(ArtifactArchive, OverTheSizeBoundOrAnUnreadableBlobIsRefusedNamingIt) {
  ArtifactListing huge = listing_;
  huge["big.bin"] = ArtifactEntry{url_, listing_.begin()->second.oid, kMaxArchiveInput};
  try {
    write_artifact_archive(*mirrors_, huge);
    FAIL() << "an artifact over the bound was archived";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("over the archive limit"), std::string::npos) << e.what();
  }
  ArtifactListing missing{{"a/b.yaml", ArtifactEntry{url_, std::string(40, 'e'), 3}}};
  try {
    write_artifact_archive(*mirrors_, missing);
    FAIL() << "a missing blob was archived";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("archiving a/b.yaml"), std::string::npos) << e.what();
  }
}

TEST(TarHeader, FieldsAndChecksumAreThoseTarReads) {
  const std::string h = tar_file_header("a/b.yaml", 1234);
  ASSERT_EQ(h.size(), 512u);
  EXPECT_EQ(h.substr(0, 8), "a/b.yaml");
  EXPECT_EQ(h.substr(124, 12), std::string("00000002322") + '\0');  // 1234 in octal
  EXPECT_EQ(h[156], '0');
  EXPECT_EQ(h.substr(257, 6), std::string("ustar") + '\0');
  unsigned sum = 0;
  for (std::size_t i = 0; i < 512; ++i) sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(h[i]);
  EXPECT_EQ(std::stoul(h.substr(148, 6), nullptr, 8), sum);
  // Too long for ustar: a PAX header (512) + its record padded (512) + the header.
  const std::string long_path = std::string(200, 'x') + ".yaml";
  const std::string pax = tar_file_header(long_path, 1);
  ASSERT_EQ(pax.size(), 3 * 512u);
  EXPECT_EQ(pax[156], 'x');
  const std::string record = pax.substr(512, pax.find('\n', 512) + 1 - 512);
  EXPECT_EQ(record, std::to_string(record.size()) + " path=" + long_path + "\n");
}

}  // namespace
}  // namespace capstan::gitops
