// age and SOPS decryption against files the real `age` and `sops` wrote (pinned in
// tools/sops/go.mod): what users commit is what the controller must open.
#include "controllers/gitops/sops/age.h"
#include "controllers/gitops/sops/error.h"
#include "controllers/gitops/sops/sops.h"
#include "runtime/json/yaml.h"
#include "testing/sops.h"

#include <gtest/gtest.h>

#include <functional>

namespace capstan::gitops::sops {
namespace {

using e2e::TempDir;

// Whether `text` holds `part` (with the text in the failure message).
#define EXPECT_HAS(text, part)                                      \
  do {                                                              \
    const std::string text_ = (text);                               \
    EXPECT_NE(text_.find(part), std::string::npos) << text_;        \
  } while (0)
#define EXPECT_LACKS(text, part)                                    \
  do {                                                              \
    const std::string text_ = (text);                               \
    EXPECT_EQ(text_.find(part), std::string::npos) << text_;        \
  } while (0)

const std::string kSecret = R"(apiVersion: v1
kind: Secret
metadata:
  name: db
  labels:
    app: shop
type: Opaque
stringData:
  password: hunter2
  port: 5432
  tls: true
  ratio: 0.25
  empty: ""
  hosts:
    - a.example
    - b.example
)";

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const DecryptError& e) {
    return e.what();
  }
  return "(no error)";
}

class SopsTest : public ::testing::Test {
 protected:
  TempDir dir{"sops"};
  e2e::AgeKey key = e2e::age_keygen(dir);
  Keys keys{parse_age_identities(key.identity)};

  json::Value encrypted_secret(const std::vector<std::string>& extra = {"--encrypted-regex", "^(data|stringData)$"}) {
    return json::from_yaml(e2e::sops_encrypt(dir, {key.recipient}, "secret.yaml", kSecret, extra));
  }
};

TEST_F(SopsTest, IdentitiesParseAsAgeKeygenWritesThemAndNameTheirRecipient) {
  ASSERT_EQ(keys.age.size(), 1u);
  EXPECT_EQ(keys.age[0].recipient, key.recipient);
  EXPECT_EQ(keys.age[0].secret.size(), 32u);
  auto two = parse_age_identities(key.identity + "\n# another\n\n" + e2e::age_keygen(dir).identity);
  EXPECT_EQ(two.size(), 2u);
  // A bad line is named by number, and its text (a would-be key) is not repeated.
  std::string bad = error_of([&] { parse_age_identities("# ok\nAGE-SECRET-KEY-1QQQQQQQQQQQQQQQ\n"); });
  EXPECT_HAS(bad, "line 2");
  EXPECT_LACKS(bad, "QQQQ");
  // A checksum error (one character changed) is refused too.
  std::string id = key.identity.substr(key.identity.find("AGE-SECRET-KEY-1"));
  id[20] = id[20] == 'Q' ? 'P' : 'Q';
  EXPECT_HAS(error_of([&] { parse_age_identities(id); }), "line 1");
}

TEST_F(SopsTest, AgeFilesOpenBinaryAndArmoredAcrossChunkBoundaries) {
  for (std::size_t size : {std::size_t{0}, std::size_t{32}, std::size_t{65536}, std::size_t{65537}, std::size_t{200000}}) {
    std::string plain(size, '\0');
    for (std::size_t i = 0; i < size; ++i) plain[i] = static_cast<char>((i * 131) & 0xff);
    for (bool armor : {false, true}) {
      std::string sealed = e2e::age_encrypt(dir, key.recipient, plain, armor);
      EXPECT_EQ(age_decrypt(sealed, keys.age), plain) << size << " bytes, armor " << armor;
    }
  }
}

TEST_F(SopsTest, AgeRefusesTheWrongKeyAndAnyChangedByte) {
  std::string sealed = e2e::age_encrypt(dir, key.recipient, "the data key", false);
  auto other = parse_age_identities(e2e::age_keygen(dir).identity);
  std::string wrong = error_of([&] { age_decrypt(sealed, other); });
  EXPECT_HAS(wrong, "no age identity matched");
  EXPECT_HAS(wrong, other[0].recipient);

  std::string payload = sealed;
  payload.back() = static_cast<char>(payload.back() ^ 1);
  EXPECT_HAS(error_of([&] { age_decrypt(payload, keys.age); }), "failed authentication");

  std::string truncated = sealed.substr(0, sealed.size() - 1);
  EXPECT_HAS(error_of([&] { age_decrypt(truncated, keys.age); }), "failed authentication");

  // A second stanza added to the header breaks its MAC.
  std::string header = sealed;
  header.insert(header.find("---"), "-> extra-stanza arg\n\n");
  EXPECT_HAS(error_of([&] { age_decrypt(header, keys.age); }), "header MAC");

  EXPECT_HAS(error_of([&] { age_decrypt("not age at all\n", keys.age); }), "malformed age file");
}

TEST_F(SopsTest, AnEncryptedSecretDecryptsToItsTypedValues) {
  json::Value doc = encrypted_secret();
  ASSERT_TRUE(is_encrypted(doc));
  EXPECT_LACKS(json::serialize(doc), "hunter2");
  decrypt(doc, keys);
  EXPECT_FALSE(doc.as_object().contains("sops"));
  EXPECT_EQ(doc, json::from_yaml(kSecret));
}

TEST_F(SopsTest, EveryValueIsEncryptedWithoutARegexButUnencryptedSuffixesStayPlain) {
  std::string plain = "name: web\npassword: s3cret\nuser_unencrypted: admin\nnested:\n  deep:\n    - 1\n    - two\n";
  json::Value doc = json::from_yaml(e2e::sops_encrypt(dir, {key.recipient}, "values.yaml", plain));
  EXPECT_EQ(json::get_string(doc, {"user_unencrypted"}), "admin");
  EXPECT_TRUE(json::get_string(doc, {"name"}).starts_with("ENC["));
  decrypt(doc, keys);
  EXPECT_EQ(doc, json::from_yaml(plain));
}

TEST_F(SopsTest, AValueMovedOrAddedAfterEncryptionIsRefusedByPathWithoutShowingIt) {
  json::Value doc = encrypted_secret();
  // The password's ciphertext under another key: its path is part of what was authenticated.
  auto& data = doc.as_object()["stringData"].as_object();
  data["moved"] = data["password"];
  std::string moved = error_of([&] { json::Value d = doc; decrypt(d, keys); });
  EXPECT_HAS(moved, "stringData:moved");
  EXPECT_HAS(moved, "failed authentication");

  json::Value added = encrypted_secret();
  added.as_object()["stringData"].as_object()["token"] = "plain-secret-value";
  std::string plain = error_of([&] { decrypt(added, keys); });
  EXPECT_HAS(plain, "stringData:token");
  EXPECT_LACKS(plain, "plain-secret-value");

  // Labels added by kustomize outside the encrypted paths are fine (the MAC is not checked).
  json::Value labelled = encrypted_secret();
  labelled.as_object()["metadata"].as_object()["labels"].as_object()["team"] = "a";
  decrypt(labelled, keys);
  EXPECT_EQ(json::get_string(labelled, {"stringData", "password"}), "hunter2");
}

TEST_F(SopsTest, TheDataKeyOpensWithAnyRecipientAndNamesThemWhenNoneMatches) {
  e2e::AgeKey second = e2e::age_keygen(dir);
  json::Value doc = json::from_yaml(e2e::sops_encrypt(dir, {key.recipient, second.recipient}, "secret.yaml", kSecret));
  json::Value copy = doc;
  decrypt(copy, Keys{parse_age_identities(second.identity)});
  EXPECT_EQ(json::get_string(copy, {"stringData", "password"}), "hunter2");

  e2e::AgeKey stranger = e2e::age_keygen(dir);
  std::string err = error_of([&] { decrypt(doc, Keys{parse_age_identities(stranger.identity)}); });
  EXPECT_HAS(err, key.recipient);
  EXPECT_HAS(err, second.recipient);
  EXPECT_HAS(error_of([&] { json::Value d = doc; decrypt(d, Keys{}); }), "no *.agekey entry");
}

TEST_F(SopsTest, WholeFilesDecryptFromEachFormatSopsWrites) {
  std::string env = "USER=admin\nPASSWORD=multi\\nline\n";
  std::string sealed_env = e2e::sops_encrypt(dir, {key.recipient}, "app.env", env);
  EXPECT_EQ(detect_format(sealed_env), Format::dotenv);
  EXPECT_EQ(decrypt_file(sealed_env, Format::dotenv, Format::dotenv, keys), env);

  std::string json_text = R"({"user": "admin", "n": 3})";
  std::string sealed_json = e2e::sops_encrypt(dir, {key.recipient}, "app.json", json_text);
  EXPECT_EQ(detect_format(sealed_json), Format::json);
  EXPECT_EQ(json::parse(decrypt_file(sealed_json, Format::json, Format::json, keys)), json::parse(json_text));

  std::string binary("\x00\x01\xff binary\n", 11);
  std::string sealed_bin = e2e::sops_encrypt(dir, {key.recipient}, "blob.bin", binary);
  ASSERT_TRUE(detect_format(sealed_bin));
  EXPECT_EQ(decrypt_file(sealed_bin, *detect_format(sealed_bin), format_for_path("blob.bin"), keys), binary);

  std::string sealed_yaml = e2e::sops_encrypt(dir, {key.recipient}, "secret.yaml", kSecret);
  EXPECT_EQ(detect_format(sealed_yaml), Format::yaml);
  EXPECT_EQ(json::from_yaml(decrypt_file(sealed_yaml, Format::yaml, Format::yaml, keys)), json::from_yaml(kSecret));

  EXPECT_FALSE(detect_format(kSecret));
  EXPECT_EQ(format_for_path("a/b.yml"), Format::yaml);
  EXPECT_EQ(format_for_path("x.env"), Format::dotenv);
  EXPECT_EQ(format_for_path("tls.crt"), Format::binary);
}

TEST_F(SopsTest, KeyKindsOtherThanAgeAreRefusedByName) {
  json::Value doc = encrypted_secret();
  auto& meta = doc.as_object()["sops"].as_object();
  meta.erase("age");
  meta["pgp"] = json::Array{json::Object{{"fp", "ABCDEF"}, {"enc", "x"}}};
  EXPECT_HAS(error_of([&] { decrypt(doc, keys); }), "only pgp");
}

}  // namespace
}  // namespace capstan::gitops::sops
