// The soak's checks on a hand-made run: each invariant must flag its own breakage.
// npx vitest run bench/soak
import { describe, expect, it } from 'vitest';
import { summarize, type Ack, type SoakFacts } from './invariants.ts';

const t0 = Date.UTC(2026, 11, 1, 12);
const ack = (kind: Ack['kind'], token: string, at: number, extra: Partial<Ack> = {}): Ack => ({ kind, workspace: 'ws0', token, dueAt: t0 + at, latencyMs: 10, outcome: 'deferred', ...extra });

function healthy(): SoakFacts {
  return {
    startedAt: t0,
    acks: [
      ack('ask', 'a1', 1_000),
      ack('ask', 'a2', 61_000, { latencyMs: 400 }),
      ack('save', 's1', 2_000, { url: 'http://x/site/fast/ws0-0', saveKind: 'fast' }),
      ack('save', 's2', 3_000, { url: 'http://x/site/gone/ws0-5', saveKind: 'gone' }),
      ack('save', 'f1', 3_000, { workspace: 'flood', url: 'http://x/site/fast/flood-0', saveKind: 'fast' }),
    ],
    edits: {
      a1: { edits: 1, last: '(embed)', lastAt: 0 },
      a2: { edits: 1, last: '(embed)', lastAt: 0 },
      s1: { edits: 2, last: '✅ Saved', lastAt: 0 },
      s2: { edits: 2, last: '❌ Could not save', lastAt: 0 },
      f1: { edits: 2, last: '✅ Saved', lastAt: 0 },
    },
    artifacts: [
      { workspace: 'ws0', url: 'http://x/site/fast/ws0-0', status: 'ready', errorCode: null, indexedAtMs: t0 + 5_000 },
      { workspace: 'ws0', url: 'http://x/site/gone/ws0-5', status: 'failed', errorCode: 'FETCH_HTTP_404', indexedAtMs: null },
      { workspace: 'flood', url: 'http://x/site/fast/flood-0', status: 'ready', errorCode: null, indexedAtMs: t0 + 60_000 },
    ],
    jobs: { unfinished: 0, expiredLeases: 0 },
    duplicatePassages: 0,
    floodWorkspace: 'flood',
  };
}

describe('soak invariants', () => {
  it('a healthy run breaks none, and reports per minute and per workspace', () => {
    const s = summarize(healthy());
    expect(s.violations).toEqual([]);
    expect(s.deferrals).toMatchObject({ acknowledged: 5, edited: 5 });
    expect(s.ackPerMinute.map((m) => [m.minute, m.acks, m.p99])).toEqual([
      [0, 4, 10],
      [1, 1, 400],
    ]);
    expect(s.saves.endStates).toEqual({ ready: 2, 'failed:FETCH_HTTP_404': 1 });
    // The flooding workspace is left out of save-to-searchable.
    expect(s.saveToSearchableP95).toEqual({ ws0: { saves: 1, p95Ms: 3_000 } });
  });

  it('flags a deferral never edited, and a save left at "Saving…"', () => {
    const facts = healthy();
    delete facts.edits.a2;
    (facts.edits.s1 as { last: string }).last = '⏳ Saving http://x…';
    const s = summarize(facts);
    expect(s.violations).toEqual(['2 of 5 acknowledged deferrals were never edited to their end']);
    expect(s.deferrals.notEdited.map((n) => n.token).sort()).toEqual(['a2', 's1']);
  });

  it('flags lost jobs, duplicate passages and a save with no end state', () => {
    const facts = healthy();
    facts.jobs = { unfinished: 1, expiredLeases: 1 };
    facts.duplicatePassages = 3;
    (facts.artifacts[0] as { status: string }).status = 'indexing';
    const s = summarize(facts);
    expect(s.violations).toEqual(['lost jobs: 1 unfinished, 1 on an expired lease', '3 duplicate live passages', '1 saves with no end state']);
  });

  it('counts a save refused with a visible reply as ended, but not one that vanished silently', () => {
    const facts = healthy();
    facts.artifacts.shift();
    (facts.edits.s1 as { last: string }).last = '⚠️ I was restarted before I could finish. Please try again.';
    expect(summarize(facts).saves.endStates).toMatchObject({ 'refused-with-reply': 1 });
    (facts.edits.s1 as { last: string }).last = '⏳ Saving http://x…';
    expect(summarize(facts).violations).toContain('1 saves with no end state');
  });

  it('an acknowledgement error is counted in its minute, not as a latency', () => {
    const facts = healthy();
    facts.acks.push(ack('ask', 'e1', 1_500, { outcome: 'error', latencyMs: 30_000 }));
    const s = summarize(facts);
    expect(s.ackErrors).toBe(1);
    expect(s.ackPerMinute[0]).toMatchObject({ acks: 4, errors: 1, max: 10 });
  });
});
