// What the soak checks once the load has stopped and the queue settled: pure functions of what
// the driver sent, what Discord received, and the rows in the database, so a tiny run in a test
// can prove each check catches its breakage.

export type SaveKind = 'fast' | 'slow' | 'pdf' | 'gone' | 'down';

export interface Ack {
  kind: 'ask' | 'save';
  workspace: string;
  token: string;
  /** When the request was due (ms since the epoch); latency counts from here. */
  dueAt: number;
  latencyMs: number;
  /** 'deferred' (type 5), 'replied' (type 4: refused at once, nothing to edit), or 'error'. */
  outcome: 'deferred' | 'replied' | 'error';
  url?: string;
  saveKind?: SaveKind;
}

export interface TokenEdits {
  edits: number;
  last: string;
  lastAt: number;
}

export interface ArtifactRow {
  workspace: string;
  url: string;
  status: string;
  errorCode: string | null;
  indexedAtMs: number | null;
}

export interface JobState {
  /** Jobs still queued or running when the soak ended, and those running on an expired lease. */
  unfinished: number;
  expiredLeases: number;
}

export interface SoakFacts {
  startedAt: number;
  acks: Ack[];
  edits: Record<string, TokenEdits>;
  artifacts: ArtifactRow[];
  jobs: JobState;
  /** Live passages sharing (artifact, ordinal): a job's work applied twice. */
  duplicatePassages: number;
  floodWorkspace: string | null;
}

/** A save's first edit says it is saving; the last one says how it ended. */
export const isFinalSaveEdit = (content: string) => !content.startsWith('⏳ Saving');

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? null : Math.round((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number) * 10) / 10);

export function summarize(facts: SoakFacts) {
  const deferred = facts.acks.filter((a) => a.outcome === 'deferred');
  const edited = deferred.filter((a) => {
    const e = facts.edits[a.token];
    return e !== undefined && e.edits > 0 && (a.kind === 'ask' || isFinalSaveEdit(e.last));
  });
  const editedSet = new Set(edited);
  const notEdited = deferred.filter((a) => !editedSet.has(a)).map((a) => ({ token: a.token, kind: a.kind, last: facts.edits[a.token]?.last ?? null }));

  // Per minute of the run: p99 of the acknowledgements due in that minute.
  const minutes = new Map<number, { latencies: number[]; errors: number }>();
  for (const a of facts.acks) {
    const m = Math.floor((a.dueAt - facts.startedAt) / 60_000);
    const bucket = minutes.get(m) ?? { latencies: [], errors: 0 };
    if (a.outcome === 'error') bucket.errors += 1;
    else bucket.latencies.push(a.latencyMs);
    minutes.set(m, bucket);
  }
  const ackPerMinute = [...minutes.entries()]
    .sort(([x], [y]) => x - y)
    .map(([minute, b]) => {
      const sorted = b.latencies.sort((x, y) => x - y);
      return { minute, acks: sorted.length, errors: b.errors, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: percentile(sorted, 100) };
    });

  // Every acknowledged save, matched to its source by URL (each save in the soak has its own).
  const byUrl = new Map(facts.artifacts.map((r) => [`${r.workspace} ${r.url}`, r]));
  const saves = deferred.filter((a) => a.kind === 'save');
  const endStates: Record<string, number> = {};
  const noEndState: { url: string; status: string | null; reply: string | null }[] = [];
  const searchable = new Map<string, number[]>();
  for (const save of saves) {
    const row = byUrl.get(`${save.workspace} ${save.url}`);
    const reply = facts.edits[save.token]?.last ?? null;
    let state: string;
    if (row?.status === 'ready') state = 'ready';
    else if (row?.status === 'failed' && row.errorCode) state = `failed:${row.errorCode}`;
    // Not recorded, but the reply told the member why (a refusal or a restart notice): ended, visibly.
    else if (!row && reply !== null && isFinalSaveEdit(reply)) state = 'refused-with-reply';
    else {
      noEndState.push({ url: save.url ?? '', status: row?.status ?? null, reply });
      continue;
    }
    endStates[state] = (endStates[state] ?? 0) + 1;
    if (state === 'ready' && row?.indexedAtMs != null && save.workspace !== facts.floodWorkspace) {
      const list = searchable.get(save.workspace) ?? [];
      list.push(row.indexedAtMs - save.dueAt);
      searchable.set(save.workspace, list);
    }
  }
  const saveToSearchableP95 = Object.fromEntries(
    [...searchable.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([ws, list]) => [ws, { saves: list.length, p95Ms: percentile(list.sort((x, y) => x - y), 95) }]),
  );

  const violations: string[] = [];
  if (edited.length !== deferred.length) violations.push(`${deferred.length - edited.length} of ${deferred.length} acknowledged deferrals were never edited to their end`);
  if (facts.jobs.unfinished > 0 || facts.jobs.expiredLeases > 0) violations.push(`lost jobs: ${facts.jobs.unfinished} unfinished, ${facts.jobs.expiredLeases} on an expired lease`);
  if (facts.duplicatePassages > 0) violations.push(`${facts.duplicatePassages} duplicate live passages`);
  if (noEndState.length > 0) violations.push(`${noEndState.length} saves with no end state`);

  return {
    deferrals: { acknowledged: deferred.length, edited: edited.length, notEdited: notEdited.slice(0, 20) },
    replied: facts.acks.filter((a) => a.outcome === 'replied').length,
    ackErrors: facts.acks.filter((a) => a.outcome === 'error').length,
    ackPerMinute,
    saves: { acknowledged: saves.length, endStates, noEndState: noEndState.slice(0, 20) },
    jobs: facts.jobs,
    duplicatePassages: facts.duplicatePassages,
    saveToSearchableP95,
    violations,
  };
}
