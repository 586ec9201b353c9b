// The soak's traffic: signed /ask and /save interactions, due on a fixed open-loop schedule per
// workspace whatever the servers do, through the proxy. Latency counts from each request's due
// time, so a stalled instance cannot hide its queue.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { DevKeyPair } from '@brain/discord';
import { guildSlashCommand } from '@brain/testkit';
import { postSignedInteraction, signInteraction } from '../signed-interaction.ts';
import type { Ack, SaveKind } from './invariants.ts';

export const SOAK_APPLICATION_ID = '700000000000000011';
const QUESTIONS = ['How often do we handle deploys?', 'Who owns key rotation?', 'What is on the on-call checklist?', 'When are backups checked?', 'How do refunds work?'];
// A normal workspace's saves, in turn: mostly pages that index, some slow, some failing, PDFs.
// Each workspace starts at its own place in the mix, so the slow pages do not all arrive at once.
const SAVE_MIX: SaveKind[] = ['fast', 'fast', 'pdf', 'slow', 'fast', 'gone', 'fast', 'down'];

export interface Workspace {
  guildId: string;
  name: string;
  flood: boolean;
}

export interface DriverPlan {
  workspaces: Workspace[];
  seconds: number;
  /** /ask per second, per normal workspace. */
  askRate: number;
  /** One /save every this many seconds, per normal workspace. */
  saveEverySeconds: number;
  /** The flooding workspace's /save per second. */
  floodSaveRate: number;
  floodAskRate: number;
  sitePort: number;
}

interface Due {
  at: number;
  kind: 'ask' | 'save';
  ws: Workspace;
  n: number;
  saveKind?: SaveKind;
}

function schedule(plan: DriverPlan): Due[] {
  const due: Due[] = [];
  plan.workspaces.forEach((ws, w) => {
    const askRate = ws.flood ? plan.floodAskRate : plan.askRate;
    // Offsets spread the workspaces over the second, so their requests do not arrive in lockstep.
    const offset = (w * 97) % 1000;
    if (askRate > 0) for (let n = 0; n * (1000 / askRate) + offset < plan.seconds * 1000; n++) due.push({ at: n * (1000 / askRate) + offset, kind: 'ask', ws, n });
    const saveInterval = ws.flood ? (plan.floodSaveRate > 0 ? 1000 / plan.floodSaveRate : Infinity) : plan.saveEverySeconds * 1000;
    for (let n = 0; n * saveInterval + offset < plan.seconds * 1000; n++) {
      due.push({ at: n * saveInterval + offset, kind: 'save', ws, n, saveKind: ws.flood ? 'fast' : SAVE_MIX[(n + w) % SAVE_MIX.length] });
    }
  });
  return due.sort((a, b) => a.at - b.at);
}

export function plannedCount(plan: DriverPlan): number {
  return schedule(plan).length;
}

/** Sends the plan's interactions to `url`; resolves with every acknowledgement once all have answered. */
export function drive(url: string, plan: DriverPlan, keys: DevKeyPair, startedAt: number): Promise<Ack[]> {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const due = schedule(plan);
  const acks: Ack[] = [];
  let sequence = 0;
  const t0 = performance.now();
  const epochAt = (offset: number) => startedAt + offset;

  const send = (d: Due, onDone: () => void) => {
    const token = `soak${d.kind}${d.ws.name}x${d.n}`;
    const pageUrl = d.saveKind ? `http://127.0.0.1:${plan.sitePort}/site/${d.saveKind}/${d.ws.name}-${d.n}` : undefined;
    const options = d.kind === 'ask' ? [{ name: 'question', value: QUESTIONS[d.n % QUESTIONS.length] as string }] : [{ name: 'url', value: pageUrl as string }];
    const interaction = { ...guildSlashCommand({ applicationId: SOAK_APPLICATION_ID, guildId: d.ws.guildId, name: d.kind, options, sequence: sequence++ % 4_000_000, tokenPrefix: 'soak' }), token };
    const body = JSON.stringify(interaction);
    const dueAtPerf = t0 + d.at;
    const record = (outcome: Ack['outcome']) => {
      acks.push({ kind: d.kind, workspace: d.ws.name, token, dueAt: epochAt(d.at), latencyMs: performance.now() - dueAtPerf, outcome, ...(pageUrl ? { url: pageUrl, saveKind: d.saveKind } : {}) });
      onDone();
    };
    postSignedInteraction(target, signInteraction(keys, body), { agent, readType: true, timeoutMs: 30_000 }).then(
      ({ status, type }) => record(status !== 200 ? 'error' : type === 5 ? 'deferred' : type === 4 ? 'replied' : 'error'),
      () => record('error'),
    );
  };

  return new Promise((resolve) => {
    let next = 0;
    let done = 0;
    const finish = () => {
      done += 1;
      if (done === due.length) {
        agent.destroy();
        resolve(acks);
      }
    };
    if (due.length === 0) return resolve(acks);
    const tick = () => {
      const now = performance.now();
      while (next < due.length && t0 + (due[next] as Due).at <= now) send(due[next++] as Due, finish);
      if (next < due.length) setTimeout(tick, Math.max(0, t0 + (due[next] as Due).at - performance.now()));
    };
    tick();
  });
}
