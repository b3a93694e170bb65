// The build's SOPS decryption (decryption.h) on trees holding files the real `sops` encrypted.
#include "controllers/gitops/decryption.h"
#include "controllers/gitops/manifests.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/base64.h"
#include "testing/sops.h"

#include <gtest/gtest.h>

namespace capstan::gitops {
namespace {

using e2e::TempDir;

const std::vector<std::string> kDataOnly = {"--encrypted-regex", "^(data|stringData)$"};

std::string secret_yaml(const std::string& name, const std::string& password) {
  return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: " + name + "\ntype: Opaque\nstringData:\n  password: " + password + "\n";
}

const json::Value* find_object(const std::vector<json::Value>& objects, std::string_view kind, std::string_view name) {
  for (const auto& o : objects)
    if (json::get_string(o, {"kind"}) == kind && json::get_string(o, {"metadata", "name"}) == name) return &o;
  return nullptr;
}

std::string data_of(const json::Value& o, std::string_view key) {
  return meta::base64_decode(json::get_string(o, {"data", key})).value_or("(not base64)");
}

std::string build_error(const std::map<std::string, std::string>& files, const BuildOptions& options) {
  try {
    build_manifests(files, options);
  } catch (const BuildError& e) {
    return e.what();
  }
  return "(built)";
}

class DecryptionTest : public ::testing::Test {
 protected:
  TempDir dir{"decryption"};
  e2e::AgeKey key = e2e::age_keygen(dir);
  sops::Keys keys{sops::parse_age_identities(key.identity)};

  std::string seal(const std::string& name, const std::string& plain, const std::vector<std::string>& extra = {}) {
    return e2e::sops_encrypt(dir, {key.recipient}, name, plain, extra);
  }
  BuildOptions options(const std::string& path = "") {
    BuildOptions b;
    b.path = path;
    b.decryption = &keys;
    return b;
  }
};

TEST_F(DecryptionTest, AnEncryptedObjectIsDecryptedAfterTheTransformsAndBeforeSubstitution) {
  std::map<std::string, std::string> files = {{"deploy/db.yaml", seal("db.yaml", secret_yaml("db", "${PASSWORD_SUFFIX}x"), kDataOnly)}};
  BuildOptions b = options("deploy");
  b.name_prefix = "prod-";
  b.labels = {{"team", "shop"}};
  b.variables = std::map<std::string, std::string>{{"PASSWORD_SUFFIX", "hunter2"}};
  auto objects = build_manifests(files, b);
  ASSERT_EQ(objects.size(), 1u);
  EXPECT_EQ(json::get_string(objects[0], {"metadata", "name"}), "prod-db");
  EXPECT_EQ(json::get_string(objects[0], {"metadata", "labels", "team"}), "shop");
  EXPECT_EQ(json::get_string(objects[0], {"stringData", "password"}), "hunter2x");
  EXPECT_EQ(json::find(objects[0], {"sops"}), nullptr);
}

TEST_F(DecryptionTest, WithoutDecryptionAnEncryptedObjectFailsTheBuildUnlessDecryptionIsDisabledOnIt) {
  std::map<std::string, std::string> files = {{"db.yaml", seal("db.yaml", secret_yaml("db", "hunter2"), kDataOnly)}};
  BuildOptions none;
  std::string err = build_error(files, none);
  EXPECT_NE(err.find("Secret/db is SOPS-encrypted: set spec.decryption"), std::string::npos) << err;

  std::string annotated = secret_yaml("db", "hunter2");
  annotated.insert(annotated.find("type:"), "  annotations:\n    gitops.capstan.dev/decrypt: disabled\n");
  files["db.yaml"] = seal("db.yaml", annotated, kDataOnly);
  auto objects = build_manifests(files, options());
  ASSERT_EQ(objects.size(), 1u);
  EXPECT_NE(json::find(objects[0], {"sops"}), nullptr);
}

TEST_F(DecryptionTest, SecretGeneratorSourcesAndPatchFilesAreDecryptedBeforeKustomizeReadsThem) {
  std::string binary("\x01\x02\xff key", 7);
  std::map<std::string, std::string> files = {
      {"app/kustomization.yaml", R"(resources: [db.yaml]
secretGenerator:
- name: api
  envs: [api.env]
  files: [tls.key, settings=settings.yaml]
configMapGenerator:
- name: public
  files: [public.env]
patches:
- path: db-patch.yaml
generatorOptions: {disableNameSuffixHash: true}
)"},
      {"app/db.yaml", secret_yaml("db", "old")},
      {"app/db-patch.yaml", seal("db-patch.yaml", secret_yaml("db", "patched"), kDataOnly)},
      {"app/api.env", seal("api.env", "TOKEN=t0ken\nMODE=live\n")},
      {"app/tls.key", seal("tls.key", binary)},
      {"app/settings.yaml", seal("settings.yaml", "level: debug\n")},
      {"app/public.env", seal("public.env", "A=1\n")},
  };
  auto objects = build_manifests(files, options("app"));
  const json::Value* api = find_object(objects, "Secret", "api");
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(data_of(*api, "TOKEN"), "t0ken");
  EXPECT_EQ(data_of(*api, "MODE"), "live");
  EXPECT_EQ(data_of(*api, "tls.key"), binary);
  EXPECT_EQ(json::from_yaml(data_of(*api, "settings")), json::from_yaml("level: debug\n"));
  const json::Value* db = find_object(objects, "Secret", "db");
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(json::get_string(*db, {"stringData", "password"}), "patched");
  // A ConfigMap generator's source is not a secret's: it is not decrypted (as Flux).
  const json::Value* cm = find_object(objects, "ConfigMap", "public");
  ASSERT_NE(cm, nullptr);
  EXPECT_NE(json::get_string(*cm, {"data", "public.env"}).find("sops_mac=ENC["), std::string_view::npos);

  // Without keys, a generator's encrypted source is passed on as it is (Flux's behaviour).
  BuildOptions none;
  none.path = "app";
  files["app/db-patch.yaml"] = secret_yaml("db", "patched");
  auto raw = build_manifests(files, none);
  EXPECT_NE(data_of(*find_object(raw, "Secret", "api"), "TOKEN").find("ENC["), std::string::npos);
}

TEST_F(DecryptionTest, ASecretDataValueHoldingAWholeSopsFileIsDecryptedIntoItsKeysFormat) {
  std::string env = seal("app.env", "USER=admin\nPASS=s3cret\n");
  std::string manifest = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: files\ndata:\n  app.env: " + meta::base64_encode(env) +
                         "\n  plain: " + meta::base64_encode("not encrypted") + "\n";
  auto objects = build_manifests({{"files.yaml", manifest}}, options());
  ASSERT_EQ(objects.size(), 1u);
  EXPECT_EQ(data_of(objects[0], "app.env"), "USER=admin\nPASS=s3cret\n");
  EXPECT_EQ(data_of(objects[0], "plain"), "not encrypted");

  // Encrypted for someone else: the error names the object and the key, not the value.
  e2e::AgeKey other = e2e::age_keygen(dir);
  std::string foreign = e2e::sops_encrypt(dir, {other.recipient}, "app.env", "USER=admin\nPASS=s3cret\n");
  manifest = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: files\ndata:\n  app.env: " + meta::base64_encode(foreign) + "\n";
  std::string err = build_error({{"files.yaml", manifest}}, options());
  EXPECT_NE(err.find("Secret/files: data.app.env: "), std::string::npos) << err;
  EXPECT_NE(err.find(other.recipient), std::string::npos) << err;
  EXPECT_EQ(err.find("s3cret"), std::string::npos) << err;
}

TEST_F(DecryptionTest, TheKeysAreTheAgekeyEntriesOfTheDecryptionSecret) {
  e2e::AgeKey second = e2e::age_keygen(dir);
  json::Value secret = json::Object{{"data", json::Object{{"a.agekey", meta::base64_encode(key.identity)},
                                                          {"b.agekey", meta::base64_encode(second.identity)},
                                                          {"README", meta::base64_encode("ignored")}}}};
  sops::Keys read = decryption_keys(secret, "decryption.secretRef Secret/ops/sops");
  ASSERT_EQ(read.age.size(), 2u);
  EXPECT_EQ(read.age[0].recipient, key.recipient);
  EXPECT_EQ(read.age[1].recipient, second.recipient);

  secret.as_object()["data"].as_object()["bad.agekey"] = meta::base64_encode("AGE-SECRET-KEY-1XYZ\n");
  try {
    decryption_keys(secret, "decryption.secretRef Secret/ops/sops");
    ADD_FAILURE() << "a bad identity was accepted";
  } catch (const BuildError& e) {
    EXPECT_NE(std::string(e.what()).find("Secret/ops/sops: data.bad.agekey: line 1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace capstan::gitops
