// Open-loop load: requests are due at fixed intervals (rate per second) whatever the server does,
// over keep-alive connections, and latency is measured from when each request was due, so a
// stalled server cannot hide its queueing (no coordinated omission). Bodies are signed before
// the step starts. Prints one JSON line with the latencies' percentiles. Started by run.ts.
import fs from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { devKeyPairFromPem } from '@brain/discord';
import { postSignedInteraction, signInteraction } from '../signed-interaction.ts';
import { askInteraction } from './interactions.ts';

const [url = '', rateArg = '100', secondsArg = '10', guildId = ''] = process.argv.slice(2);
const rate = Number(rateArg);
const seconds = Number(secondsArg);
const keys = devKeyPairFromPem(process.env.BENCH_PRIVATE_KEY ?? '');
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

const total = Math.round(rate * seconds);
const timestamp = String(Math.floor(Date.now() / 1000));
const prepared = Array.from({ length: total }, (_, i) => signInteraction(keys, JSON.stringify(askInteraction(guildId, i)), timestamp));

const latencies: number[] = [];
// BENCH_TIMINGS_FILE: every request's due time (CLOCK_MONOTONIC µs, the clock of V8's CPU profiles
// on Linux) and latency, so a run's slow acknowledgements can be matched with the app's profile.
const timingsFile = process.env.BENCH_TIMINGS_FILE;
const timings: [number, number][] = [];
const monotonicOffsetUs = Number(process.hrtime.bigint() / 1000n) - performance.now() * 1000;
let errors = 0;
let statusErrors = 0;
let done = 0;

function send(i: number, dueAt: number): void {
  postSignedInteraction(target, prepared[i] as (typeof prepared)[number], { agent }).then(
    ({ status }) => {
      if (status === 200) latencies.push(performance.now() - dueAt);
      else statusErrors += 1;
      if (timingsFile) timings.push([Math.round(monotonicOffsetUs + dueAt * 1000), status === 200 ? performance.now() - dueAt : -1]);
      finish();
    },
    () => {
      errors += 1;
      finish();
    },
  );
}

function finish(): void {
  done += 1;
  if (done < total) return;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN) * 100) / 100;
  process.stdout.write(
    `${JSON.stringify({ rate, seconds, sent: total, ok: latencies.length, errors, statusErrors, achievedRps: Math.round(total / ((performance.now() - start) / 1000)), p50: at(50), p90: at(90), p99: at(99), max: at(100) })}\n`,
  );
  agent.destroy();
  if (timingsFile) fs.writeFileSync(timingsFile, JSON.stringify(timings));
}

const start = performance.now();
const interval = 1000 / rate;
let next = 0;
// A timer per millisecond-ish tick sends everything that is due; latency counts from the due time.
function tick(): void {
  const now = performance.now();
  while (next < total && start + next * interval <= now) {
    send(next, start + next * interval);
    next += 1;
  }
  if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
}
tick();
