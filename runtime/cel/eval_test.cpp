#include "runtime/cel/test_util.h"

#include <gtest/gtest.h>

namespace capstan::cel {
namespace {

using testing::run;

TEST(CelEval, FieldsAndHas) {
  const char* obj = R"({"spec":{"replicas":3,"size":5,"name":"web","tags":["a","b"],"labels":{"x":"1"}}})";
  EXPECT_EQ(run("self.spec.replicas <= self.spec.size", obj), "true");
  EXPECT_EQ(run("self.spec.missing == 1", obj), "error: no such key: missing");
  EXPECT_EQ(run("has(self.spec.missing)", obj), "false");
  EXPECT_EQ(run("has(self.spec.name)", obj), "true");
  EXPECT_EQ(run("self.spec.tags[1]", obj), "\"b\"");
  EXPECT_EQ(run("self.spec.tags[2]", obj), "error: index out of bounds: 2");
  EXPECT_EQ(run("self.spec.labels['x']", obj), "\"1\"");
  EXPECT_EQ(run("self.spec.labels['y']", obj), "error: no such key: y");
  EXPECT_EQ(run("'x' in self.spec.labels", obj), "true");
  EXPECT_EQ(run("'c' in self.spec.tags", obj), "false");
  EXPECT_EQ(run("self.spec.replicas.foo", obj), "error: type 'int' does not support field selection");
}

TEST(CelEval, LogicAbsorbsErrors) {
  const char* obj = R"({"a":1})";
  EXPECT_EQ(run("self.b == 1 || true", obj), "true");
  EXPECT_EQ(run("true || self.b == 1", obj), "true");
  EXPECT_EQ(run("self.b == 1 && false", obj), "false");
  EXPECT_EQ(run("false && self.b == 1", obj), "false");
  EXPECT_EQ(run("self.b == 1 && true", obj), "error: no such key: b");
  EXPECT_EQ(run("self.b == 1 || false", obj), "error: no such key: b");
  EXPECT_EQ(run("self.b == 1 || self.c == 1", obj), "error: no such key: b");
  EXPECT_EQ(run("!has(self.b) || self.b > 0", obj), "true");
  EXPECT_EQ(run("1 || true"), "true");
  EXPECT_EQ(run("1 && true"), "error: no such overload");
  EXPECT_EQ(run("self.b ? 1 : 2", obj), "error: no such key: b");
  EXPECT_EQ(run("1 ? 1 : 2"), "error: no such overload");
}

TEST(CelEval, Arithmetic) {
  EXPECT_EQ(run("9223372036854775807 + 1"), "error: integer overflow");
  EXPECT_EQ(run("-9223372036854775808 - 1"), "error: integer overflow");
  EXPECT_EQ(run("-9223372036854775808 / -1"), "error: integer overflow");
  EXPECT_EQ(run("4611686018427387904 * 2"), "error: integer overflow");
  EXPECT_EQ(run("1 / 0"), "error: division by zero");
  EXPECT_EQ(run("1 % 0"), "error: modulus by zero");
  EXPECT_EQ(run("-7 / 2"), "-3");
  EXPECT_EQ(run("-7 % 2"), "-1");
  EXPECT_EQ(run("0u - 1u"), "error: unsigned integer overflow");
  EXPECT_EQ(run("2u * 3u"), "6");
  EXPECT_EQ(run("1.0 / 0.0 > 1e308"), "true");
  EXPECT_EQ(run("1 + 1u"), "error: no such overload");
  EXPECT_EQ(run("1 + 1.0"), "error: no such overload");
  EXPECT_EQ(run("'a' + 'b'"), "\"ab\"");
  EXPECT_EQ(run("[1] + [2, 3]"), "[1,2,3]");
  EXPECT_EQ(run("b'a' + b'b' == b'ab'"), "true");
  EXPECT_EQ(run("'a' + 1"), "error: no such overload");
  EXPECT_EQ(run("-'a'"), "error: no such overload");
}

TEST(CelEval, HeterogeneousComparison) {
  EXPECT_EQ(run("1 == 1u"), "true");
  EXPECT_EQ(run("1 == 1.0"), "true");
  EXPECT_EQ(run("1u < 2.5"), "true");
  EXPECT_EQ(run("-1 < 0u"), "true");
  EXPECT_EQ(run("9223372036854775807 < 18446744073709551615u"), "true");
  EXPECT_EQ(run("2 > 1.5"), "true");
  EXPECT_EQ(run("1 == 'a'"), "false");
  EXPECT_EQ(run("1 < 'a'"), "error: no such overload");
  EXPECT_EQ(run("'a' < 'b'"), "true");
  EXPECT_EQ(run("[1, 2] == [1.0, 2u]"), "true");
  EXPECT_EQ(run("{'a': 1} == {'a': 1.0}"), "true");
  EXPECT_EQ(run("{1: 'a'}[1u]"), "\"a\"");
  EXPECT_EQ(run("1.0 in [1]"), "true");
  EXPECT_EQ(run("double('NaN') == double('NaN')"), "false");
  EXPECT_EQ(run("double('NaN') < 1.0"), "false");
  EXPECT_EQ(run("null == null"), "true");
  EXPECT_EQ(run("false < true"), "true");
}

TEST(CelEval, Macros) {
  const char* obj = R"({"items":[1,2,3],"m":{"a":1,"b":2}})";
  EXPECT_EQ(run("self.items.all(x, x > 0)", obj), "true");
  EXPECT_EQ(run("self.items.all(x, x > 1)", obj), "false");
  EXPECT_EQ(run("self.items.exists(x, x == 2)", obj), "true");
  EXPECT_EQ(run("self.items.exists_one(x, x > 1)", obj), "false");
  EXPECT_EQ(run("self.items.exists_one(x, x > 2)", obj), "true");
  EXPECT_EQ(run("self.items.map(x, x * 2)", obj), "[2,4,6]");
  EXPECT_EQ(run("self.items.map(x, x > 1, x * 10)", obj), "[20,30]");
  EXPECT_EQ(run("self.items.filter(x, x % 2 == 1)", obj), "[1,3]");
  EXPECT_EQ(run("self.m.all(k, self.m[k] > 0)", obj), "true");
  EXPECT_EQ(run("self.m.exists(k, k == 'b')", obj), "true");
  EXPECT_EQ(run("self.m.map(k, k)", obj), "[\"a\",\"b\"]");
  EXPECT_EQ(run("[].all(x, x)"), "true");
  EXPECT_EQ(run("[].exists(x, x)"), "false");
  // Errors inside all/exists are absorbed by a decisive element, as cel-go does.
  EXPECT_EQ(run("[{'a': 1}, {}].exists(x, x.a == 1)"), "true");
  EXPECT_EQ(run("[{}, {'a': 2}].all(x, x.a == 1)"), "false");
  EXPECT_EQ(run("[{}, {'a': 1}].all(x, x.a == 1)"), "error: no such key: a");
  EXPECT_EQ(run("[[1, 2], [3]].all(x, x.all(y, y > 0))"), "true");
  EXPECT_EQ(run("1.all(x, true)"), "error: no such overload");
  EXPECT_EQ(run("[1].map(x, x.foo)"), "error: type 'int' does not support field selection");
}

TEST(CelEval, VariablesAndTypes) {
  EXPECT_EQ(run("self", R"({"a":[1]})"), R"({"a":[1]})");
  EXPECT_EQ(run("type(1) == int"), "true");
  EXPECT_EQ(run("type('a') == string"), "true");
  EXPECT_EQ(run("type(self) == map", "{}"), "true");
  EXPECT_EQ(run("type(1u) == int"), "false");
  EXPECT_EQ(run("dyn(1) == 1"), "true");
  EXPECT_EQ(run("oldSelf"), "error: no such attribute: oldSelf");
}

TEST(CelEval, TimeValues) {
  EXPECT_EQ(run("duration('1h30m') == duration('90m')"), "true");
  EXPECT_EQ(run("duration('1.5s') > duration('1s')"), "true");
  EXPECT_EQ(run("string(duration('1m'))"), "\"60s\"");
  EXPECT_EQ(run("duration('10x')"), "error: time: unknown unit \"x\" in duration \"10x\"");
  EXPECT_EQ(run("timestamp('2024-01-02T03:04:05Z') + duration('1h') == timestamp('2024-01-02T04:04:05Z')"), "true");
  EXPECT_EQ(run("string(timestamp('2024-01-02T03:04:05.5+01:00'))"), "\"2024-01-02T02:04:05.5Z\"");
  EXPECT_EQ(run("timestamp('2024-01-02T00:00:00Z') - timestamp('2024-01-01T00:00:00Z') == duration('24h')"), "true");
  EXPECT_EQ(run("int(timestamp('1970-01-01T00:01:00Z'))"), "60");
  EXPECT_EQ(run("timestamp('yesterday')"), "error: timestamp 'yesterday' is not RFC 3339");
}

// Rules in the style CRDs use in practice (Gateway API listeners and filters, cert-manager
// issuers, Flux intervals): they must compile and give the expected answers.
TEST(CelEval, RulesAsCrdsWriteThem) {
  const char* listeners = R"J([{"name":"a","port":80,"protocol":"HTTP"},{"name":"b","port":443,"protocol":"HTTPS","hostname":"x.io"}])J";
  EXPECT_EQ(run("self.all(l1, self.exists_one(l2, l1.port == l2.port && l1.protocol == l2.protocol && "
                "(has(l1.hostname) && has(l2.hostname) ? l1.hostname == l2.hostname : !has(l1.hostname) && !has(l2.hostname))))",
                listeners), "true");
  EXPECT_EQ(run("self.all(l1, self.exists_one(l2, l1.name == l2.name))", listeners), "true");
  EXPECT_EQ(run("size(self.filter(l, l.protocol == 'HTTPS')) <= 1", listeners), "true");
  EXPECT_EQ(run("self.all(l, l.protocol in ['HTTP', 'HTTPS', 'TLS'] ? true : false)", listeners), "true");
  const char* filter = R"J({"type":"RequestRedirect","requestRedirect":{"path":{"type":"ReplaceFullPath","replaceFullPath":"/x"}}})J";
  EXPECT_EQ(run("self.type == 'RequestRedirect' ? has(self.requestRedirect) : !has(self.requestRedirect)", filter), "true");
  EXPECT_EQ(run("!has(self.requestRedirect.path) || self.requestRedirect.path.type != 'ReplaceFullPath' || "
                "(has(self.requestRedirect.path.replaceFullPath) && self.requestRedirect.path.replaceFullPath.startsWith('/'))",
                filter), "true");
  EXPECT_EQ(run("!self.contains('//') && self.matches(r'^/[a-zA-Z0-9_./-]*$')", R"J("/a/b")J"), "true");
  EXPECT_EQ(run("(has(self.acme) ? 1 : 0) + (has(self.ca) ? 1 : 0) + (has(self.selfSigned) ? 1 : 0) == 1", R"J({"ca":{}})J"), "true");
  EXPECT_EQ(run("duration(self.interval) >= duration('1m') && duration(self.timeout) < duration(self.interval)",
                R"J({"interval":"10m","timeout":"90s"})J"), "true");
  EXPECT_EQ(run("self.status.conditions.filter(c, c.type == 'Ready').all(c, c.status == 'True')",
                R"J({"status":{"conditions":[{"type":"Ready","status":"True"}]}})J"), "true");
}

}  // namespace
}  // namespace capstan::cel
