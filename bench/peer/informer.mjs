// The peer informer for bench/informer_bench: @kubernetes/client-node's ListWatch, driven by
// the same line protocol as bench/informer_peer.cpp (see informer_bench.cpp).
//   argv: KUBECONFIG NAMESPACE EXPECTED_OBJECTS
import * as k8s from '@kubernetes/client-node';
import readline from 'node:readline';

const [kubeconfig, ns, expectedText] = process.argv.slice(2);
const expected = Number(expectedText);
const kc = new k8s.KubeConfig();
kc.loadFromFile(kubeconfig);
const api = kc.makeApiClient(k8s.CoreV1Api);
const path = `/api/v1/namespaces/${ns}/configmaps`;

const rss = () => {
  if (global.gc) { global.gc(); global.gc(); }
  return process.memoryUsage().rss;
};

const baseline = rss();
let updates = 0;
let target = Infinity;
let onTarget = null;
const informer = k8s.makeInformer(kc, path, () => api.listNamespacedConfigMap({ namespace: ns }));
informer.on('update', () => {
  updates++;
  if (updates >= target && onTarget) { const f = onTarget; onTarget = null; f(); }
});
informer.on('error', (err) => { console.error('informer error', err?.message ?? err); });

const t0 = process.hrtime.bigint();
await informer.start();
while (informer.list(ns).length < expected) await new Promise((r) => setTimeout(r, 5));
const syncSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
const perObject = (rss() - baseline) / expected;
await informer.stop();
console.log(`synced ${syncSeconds.toFixed(4)} ${Math.round(perObject)} ${informer.list(ns).length}`);

const rl = readline.createInterface({ input: process.stdin });
for await (const line of rl) {
  const [cmd, n] = line.trim().split(' ');
  if (cmd !== 'resume') continue;
  target = Number(n);
  updates = 0;
  const done = new Promise((resolve) => { onTarget = resolve; });
  const t1 = process.hrtime.bigint();
  await informer.start();
  await done;
  const secs = Number(process.hrtime.bigint() - t1) / 1e9;
  console.log(`events ${(target / secs).toFixed(0)} ${secs.toFixed(4)}`);
  await informer.stop();
  break;
}
process.exit(0);
