/**
 * The permission matrix (issue 14): 20+ channels, 60+ members, a source saved in each channel.
 * Every ask from every channel, and every private ask from every member, goes through the same
 * audience resolution as /ask and through match_artifacts; what comes back is compared with a
 * brute-force ground truth: a separate, plain implementation of Discord's permission algorithm
 * evaluated for every member. Through the stored facts, a reply whose allowed set is exactly what
 * every member reads searches by the passages' everyone flag once the everyone_flags job has made
 * the flags follow those facts; a refresh that narrows a channel stores the facts without waiting
 * for that rewrite, and until it has run every answer takes the by-keys path.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { matchArtifacts, toVectorLiteral, withService, withWorkspace, type AudienceFilter, type Database } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { rewriteEveryoneFlags, saveSource } from '@brain/ingest';
import { createLogger } from '@brain/observability';
import { startFakeDiscordGuilds, type FakeDiscordGuilds, type FakeGuildState } from '@brain/testkit';
import { channelAskAudience, privateAskAudience } from '../src/audience/allowed-audiences.ts';
import { parseGuildFacts, type GuildFacts, type RawChannel, type RawRole } from '../src/audience/guild-facts.ts';
import type { GuildFactsSource } from '../src/audience/guild-facts-source.ts';
import { resolveAskAudience } from '../src/audience/resolve-ask-audience.ts';
import { createCachedGuildFacts, GUILD_FACTS_TTL_MS } from '../src/rest/cached-guild-facts.ts';
import { createDiscordApi } from '../src/rest/discord-api.ts';

const VIEW = 1n << 10n;
const SEND = 1n << 11n;
const HISTORY = 1n << 16n;
const CONNECT = 1n << 20n;
const ADMIN = 1n << 3n;
const MANAGE_THREADS = 1n << 34n;

const GUILD = '100000000000000001';
const OWNER = '400000000000000999';
const role = (n: number) => `3000000000000000${String(n).padStart(2, '0')}`;
const R = { staff: role(1), mod: role(2), beta: role(3), muted: role(4), contractors: role(5), voice: role(6), admin: role(7), noHistory: role(8) };

const roles: RawRole[] = [
  { id: GUILD, permissions: String(VIEW | SEND | HISTORY | CONNECT) },
  { id: R.staff, permissions: '0' },
  { id: R.mod, permissions: String(MANAGE_THREADS) },
  { id: R.beta, permissions: '0' },
  { id: R.muted, permissions: '0' },
  { id: R.contractors, permissions: '0' },
  { id: R.voice, permissions: '0' },
  { id: R.admin, permissions: String(ADMIN) },
  { id: R.noHistory, permissions: '0' },
];

const member = (n: number) => `4000000000000000${String(n).padStart(2, '0')}`;
const ALLOWED_MEMBER = member(90);
const DENIED_MEMBER = member(91);
const CONTRACTOR_DENIED = member(92);

const ow = (id: string, type: 0 | 1, allow: bigint, deny: bigint) => ({ id, type, allow: String(allow), deny: String(deny) });
const channel = (n: number) => `2000000000000000${String(n).padStart(2, '0')}`;
const C = {
  general: channel(1),
  announcements: channel(2),
  rules: channel(3),
  staff: channel(4),
  mods: channel(5),
  beta: channel(6),
  noHistory: channel(7),
  mutedOut: channel(8),
  memberAllow: channel(9),
  memberDeny: channel(10),
  staffZone: channel(11),
  staffSynced: channel(12),
  staffDesynced: channel(13),
  voice: channel(14),
  publicThread: channel(15),
  privateThread: channel(16),
  staffPrivateThread: channel(17),
  announcementThread: channel(18),
  betaNotStaff: channel(19),
  contractors: channel(20),
  forum: channel(21),
  forumPost: channel(22),
  adminsOnly: channel(23),
  staffPublicThread: channel(24),
};
const staffOnly = [ow(GUILD, 0, 0n, VIEW), ow(R.staff, 0, VIEW, 0n)];
const channels: RawChannel[] = [
  { id: C.general, type: 0, permission_overwrites: [] },
  { id: C.announcements, type: 5, permission_overwrites: [ow(GUILD, 0, 0n, SEND)] },
  { id: C.rules, type: 0, permission_overwrites: [ow(GUILD, 0, 0n, SEND), ow(R.staff, 0, SEND, 0n)] },
  { id: C.staff, type: 0, permission_overwrites: staffOnly },
  { id: C.mods, type: 0, permission_overwrites: [ow(GUILD, 0, 0n, VIEW), ow(R.mod, 0, VIEW, 0n)] },
  { id: C.beta, type: 0, permission_overwrites: [ow(GUILD, 0, 0n, VIEW | HISTORY), ow(R.beta, 0, VIEW | HISTORY, 0n)] },
  { id: C.noHistory, type: 0, permission_overwrites: [ow(GUILD, 0, 0n, HISTORY), ow(R.staff, 0, HISTORY, 0n)] },
  { id: C.mutedOut, type: 0, permission_overwrites: [ow(R.muted, 0, 0n, VIEW), ow(R.staff, 0, VIEW, 0n)] },
  { id: C.memberAllow, type: 0, permission_overwrites: [ow(GUILD, 0, 0n, VIEW), ow(R.staff, 0, VIEW, 0n), ow(ALLOWED_MEMBER, 1, VIEW, 0n)] },
  { id: C.memberDeny, type: 0, permission_overwrites: [ow(DENIED_MEMBER, 1, 0n, VIEW)] },
  { id: C.staffZone, type: 4, permission_overwrites: staffOnly },
  { id: C.staffSynced, type: 0, parent_id: C.staffZone, permission_overwrites: staffOnly },
  { id: C.staffDesynced, type: 0, parent_id: C.staffZone, permission_overwrites: [...staffOnly, ow(R.contractors, 0, VIEW, 0n)] },
  { id: C.voice, type: 2, permission_overwrites: [ow(GUILD, 0, 0n, CONNECT), ow(R.voice, 0, CONNECT, 0n)] },
  { id: C.betaNotStaff, type: 0, permission_overwrites: [ow(GUILD, 0, 0n, VIEW), ow(R.beta, 0, VIEW, 0n), ow(R.staff, 0, 0n, VIEW)] },
  { id: C.contractors, type: 0, permission_overwrites: [ow(GUILD, 0, 0n, VIEW), ow(R.contractors, 0, VIEW, 0n), ow(CONTRACTOR_DENIED, 1, 0n, VIEW)] },
  { id: C.forum, type: 15, permission_overwrites: [ow(R.muted, 0, 0n, VIEW | HISTORY)] },
  { id: C.adminsOnly, type: 0, permission_overwrites: [ow(GUILD, 0, 0n, VIEW)] },
];
const threads: RawChannel[] = [
  { id: C.publicThread, type: 11, parent_id: C.general },
  { id: C.privateThread, type: 12, parent_id: C.general },
  { id: C.staffPrivateThread, type: 12, parent_id: C.staff },
  { id: C.announcementThread, type: 10, parent_id: C.announcements },
  { id: C.forumPost, type: 11, parent_id: C.forum },
  { id: C.staffPublicThread, type: 11, parent_id: C.staff },
];
const byId = new Map([...channels, ...threads].map((c) => [c.id, c]));

// Every combination of six roles (64 members), an administrator, and the members the member overwrites name.
interface Member {
  id: string;
  roles: string[];
}
const COMBINABLE = [R.staff, R.mod, R.beta, R.muted, R.contractors, R.voice];
const members: Member[] = [
  ...Array.from({ length: 64 }, (_, mask) => ({ id: member(mask), roles: COMBINABLE.filter((_, bit) => (mask >> bit) & 1) })),
  { id: member(80), roles: [R.admin] },
  { id: member(81), roles: [R.noHistory, R.beta] },
  { id: ALLOWED_MEMBER, roles: [] },
  { id: DENIED_MEMBER, roles: [R.staff] },
  { id: CONTRACTOR_DENIED, roles: [R.contractors] },
  { id: OWNER, roles: [] },
];
const threadMembers = new Map<string, Set<string>>([
  [C.privateThread, new Set([member(0), member(5), ALLOWED_MEMBER])],
  [C.staffPrivateThread, new Set([member(1), member(3)])],
]);

// --- the ground truth: Discord's algorithm, written out plainly, for one member and one channel ---
function truthReads(m: Member, channelId: string): boolean {
  if (m.id === OWNER) return true;
  const ch = byId.get(channelId) as RawChannel;
  const isThread = ch.type === 10 || ch.type === 11 || ch.type === 12;
  const home = isThread ? (byId.get(ch.parent_id as string) as RawChannel) : ch;
  let perms = 0n;
  for (const r of roles) if (r.id === GUILD || m.roles.includes(r.id)) perms |= BigInt(r.permissions);
  if (perms & ADMIN) return true;
  const list = home.permission_overwrites ?? [];
  for (const o of list) if (o.id === GUILD) perms = (perms & ~BigInt(o.deny)) | BigInt(o.allow);
  let allow = 0n;
  let deny = 0n;
  for (const o of list) {
    if (o.type === 0 && o.id !== GUILD && m.roles.includes(o.id)) {
      allow |= BigInt(o.allow);
      deny |= BigInt(o.deny);
    }
  }
  perms = (perms & ~deny) | allow;
  for (const o of list) if (o.type === 1 && o.id === m.id) perms = (perms & ~BigInt(o.deny)) | BigInt(o.allow);
  const need = home.type === 2 || home.type === 13 ? VIEW | HISTORY | CONNECT : VIEW | HISTORY;
  if ((perms & need) !== need) return false;
  if (ch.type === 12) return (threadMembers.get(ch.id)?.has(m.id) ?? false) || (perms & MANAGE_THREADS) !== 0n;
  return true;
}

// --- the sources: one saved in each channel or thread where messages live, and one workspace-wide ---
const SAVED_IN = Object.values(C).filter((id) => ![4, 15].includes((byId.get(id) as RawChannel).type));
const ASKED_IN = SAVED_IN;
const word = (channelId: string) => `zq${channelId.slice(-2)}`;
const shape = (id: string) => {
  const c = byId.get(id) as RawChannel;
  return { id, type: c.type, parentId: c.parent_id ?? null };
};

function truthChannelAllows(askedIn: string, savedIn: string | null): boolean {
  if (savedIn === null) return true;
  return members.every((m) => !truthReads(m, askedIn) || truthReads(m, savedIn));
}

const facts = parseGuildFacts({ id: GUILD, owner_id: OWNER }, roles, [...channels, ...threads]);
const factsSource = (f: GuildFacts): GuildFactsSource => ({ facts: async () => f });

/** Strips every deny from the overwrites the model sees, while the ground truth keeps them: a mutant. */
function ignoringDenies(f: GuildFacts): GuildFacts {
  return {
    ...f,
    channels: new Map([...f.channels].map(([id, c]) => [id, { ...c, overwrites: c.overwrites.map((o) => ({ ...o, deny: 0n })) }])),
  };
}

/** Channel and private asks that the model (pure) lets cite a source the ground truth forbids. */
function modelViolations(f: GuildFacts): string[] {
  const candidates = SAVED_IN.map((id) => `channel:${id}` as const);
  const canonical = (id: string) => { const c = byId.get(id) as RawChannel; return c.type === 10 || c.type === 11 ? (c.parent_id as string) : id; };
  const bad: string[] = [];
  for (const asked of ASKED_IN) {
    const keys = new Set(channelAskAudience(f, shape(asked), candidates.map((k) => `channel:${canonical(k.slice(8))}` as const)));
    for (const saved of SAVED_IN) if (keys.has(`channel:${canonical(saved)}`) && !truthChannelAllows(asked, saved)) bad.push(`channel ${asked} cites ${saved}`);
  }
  for (const m of members) {
    const keys = new Set(privateAskAudience(f, m, shape(C.general), candidates.map((k) => `channel:${canonical(k.slice(8))}` as const)));
    for (const saved of SAVED_IN) if (keys.has(`channel:${canonical(saved)}`) && !truthReads(m, saved)) bad.push(`member ${m.id} reads ${saved}`);
  }
  return bad;
}

it('has the matrix the issue asks for: at least 50 members across at least 20 channels', () => {
  expect(members.length).toBeGreaterThanOrEqual(50);
  expect(byId.size).toBeGreaterThanOrEqual(20);
});

it('turns red when the model ignores deny overwrites (the mutant leaks; the real model does not)', () => {
  expect(modelViolations(facts)).toEqual([]);
  const leaks = modelViolations(ignoringDenies(facts));
  expect(leaks.length).toBeGreaterThan(10);
  expect(leaks).toContain(`channel ${C.general} cites ${C.staff}`);
});

it('turns red when the model ignores a member-specific deny', () => {
  const noMemberDeny: GuildFacts = {
    ...facts,
    channels: new Map([...facts.channels].map(([id, c]) => [id, { ...c, overwrites: c.overwrites.filter((o) => o.type === 0) }])),
  };
  expect(modelViolations(noMemberDeny)).toContain(`channel ${C.general} cites ${C.memberDeny}`);
});

describeDb('audience matrix', (suite) => {
  let workspaceId: string;
  const artifactOf = new Map<string | null, string>();
  const savedInOf = new Map<string, string | null>();
  const base = Array.from({ length: 1536 }, (_, i) => (i === 0 ? 1 : 0));

  async function index(db: Database, artifactId: string, text: string, n: number) {
    const v = base.map((x, i) => (i === n + 1 ? 0.05 : x));
    await withWorkspace(db, workspaceId, (tx) =>
      tx.query(
        `insert into chunks (workspace_id, artifact_id, ordinal, content, content_hash, embedding, embedding_model, is_live)
         values ($1, $2, 0, $3, md5($3), $4::vector, 'test-model', true)`,
        [workspaceId, artifactId, text, toVectorLiteral(v)],
      ),
    );
  }

  async function cited(audience: AudienceFilter): Promise<Set<string | null>> {
    const rows = await withWorkspace(suite.db, workspaceId, (tx) =>
      matchArtifacts(tx, { workspaceId, embedding: base, queryText: 'matrixword', matchCount: 50, minSimilarity: -1, audience }),
    );
    return new Set(rows.map((r) => savedInOf.get(r.artifactId) as string | null));
  }

  it('saves a source in every channel and thread, and one workspace-wide', async () => {
    const [row] = await withService(suite.db, (tx) =>
      tx.query<{ id: string }>("insert into workspaces (slug, name, guild_id) values ('matrix', 'matrix', $1) returning id", [GUILD]),
    );
    workspaceId = (row as { id: string }).id;
    for (const [n, savedIn] of [null, ...SAVED_IN].entries()) {
      const c = savedIn ? shape(savedIn) : undefined;
      const text = `matrixword ${savedIn ? word(savedIn) : 'zqworkspace'} a note`;
      const saved = await saveSource(suite.db, {
        workspaceId,
        input: { kind: 'text', text, title: savedIn ?? 'workspace' },
        savedBy: 'discord:1',
        origin: c && { guildId: GUILD, channelId: c.id, thread: [10, 11, 12].includes(c.type), parentId: c.parentId, privateThread: c.type === 12 },
      });
      const artifactId = saved.artifacts[0]?.artifactId as string;
      artifactOf.set(savedIn, artifactId);
      savedInOf.set(artifactId, savedIn);
      await index(suite.db, artifactId, text, n);
    }
    const audiences = await withWorkspace(suite.db, workspaceId, (tx) =>
      tx.query<{ audience: string; chunk_audience: string }>(
        'select a.audience, c.audience as chunk_audience from artifacts a join chunks c on c.artifact_id = a.id where a.id = $1',
        [artifactOf.get(C.publicThread)],
      ),
    );
    // A public thread takes its parent's audience, and its passages carry it.
    expect(audiences).toEqual([{ audience: `channel:${C.general}`, chunk_audience: `channel:${C.general}` }]);
  });

  it('an ask in any channel cites no source someone reading that channel could not read, and finds every one it may', async () => {
    let crossChannel = 0;
    let conservative = 0;
    for (const asked of ASKED_IN) {
      const { filter } = await resolveAskAudience(suite.db, factsSource(facts), { workspaceId, guildId: GUILD, channel: shape(asked) });
      const got = await cited(filter);
      const keys = filter.kind === 'keys' ? new Set(filter.keys) : new Set<string>();
      const expected = new Set([null, ...SAVED_IN.filter((s) => keys.has(`channel:${canonicalKey(s)}`))]);
      expect(got, `asked in ${asked}`).toEqual(expected);
      for (const s of got) expect(truthChannelAllows(asked, s), `asked in ${asked}, cited ${s}`).toBe(true);
      crossChannel += [...got].filter((s) => s !== null && s !== asked && canonicalKey(s) !== canonicalKey(asked)).length;
      conservative += SAVED_IN.filter((s) => truthChannelAllows(asked, s) && !got.has(s)).length;
    }
    // Not "own channel only": public sources are cited in the staff channels, and so on.
    expect(crossChannel).toBeGreaterThan(100);
    console.info(`channel asks: ${crossChannel} cross-channel citations allowed; ${conservative} allowed by the ground truth but refused by the conservative comparison`);
  });

  it('a private ask from every member cites exactly what that member can read (private threads: only their managers, from outside)', async () => {
    let refusedThreads = 0;
    for (const m of members) {
      const { filter } = await resolveAskAudience(suite.db, factsSource(facts), { workspaceId, guildId: GUILD, channel: shape(C.general), member: m });
      const got = await cited(filter);
      for (const s of got) expect(s === null || truthReads(m, s), `member ${m.id} cited ${s}`).toBe(true);
      for (const s of SAVED_IN) {
        const privateThread = (byId.get(s) as RawChannel).type === 12;
        if (truthReads(m, s) && !got.has(s)) {
          expect(privateThread, `member ${m.id} may read ${s} and did not find it`).toBe(true);
          refusedThreads++;
        }
      }
    }
    console.info(`private asks: ${refusedThreads} private-thread sources withheld from thread members asking outside the thread`);
  });

  it('without guild facts (no bot token), a source is citable only in its channel and that channel’s threads', async () => {
    const general = await resolveAskAudience(suite.db, undefined, { workspaceId, guildId: GUILD, channel: shape(C.general) });
    expect(await cited(general.filter)).toEqual(new Set([null, C.general, C.publicThread]));
    expect(general.factsKnown).toBe(false);
    const thread = await resolveAskAudience(suite.db, undefined, { workspaceId, guildId: GUILD, channel: shape(C.privateThread) });
    expect(await cited(thread.filter)).toEqual(new Set([null, C.general, C.publicThread, C.privateThread]));
  });

  describe('through the stored facts, the everyone-readable passages', () => {
    let guilds: FakeDiscordGuilds | undefined;
    const clock = { t: 0 };
    afterAll(async () => guilds?.close());
    const guildState = (): FakeGuildState => ({
      id: GUILD,
      owner_id: OWNER,
      name: 'matrix',
      roles: roles.map((r) => ({ ...r, name: r.id })),
      channels: [...channels, ...threads].map((c) => ({ ...c, name: c.id, permission_overwrites: (c.permission_overwrites ?? []).map((o) => ({ ...o, type: o.type === 1 ? 1 : 0 })) })),
    });

    it('serve every channel ask whose allowed set is the everyone set once the flags follow the facts; a refresh that makes a channel staff-only never cites it, before and after the rewrite', async () => {
      guilds = await startFakeDiscordGuilds({ guilds: [guildState()] });
      const stored = createCachedGuildFacts({
        api: createDiscordApi({ apiBase: guilds.apiBase, botToken: guilds.botToken, retries: 0 }),
        logger: createLogger({ level: 'silent' }),
        db: suite.db,
        now: () => clock.t,
      });
      const ask = (asked: string) => resolveAskAudience(suite.db, stored, { workspaceId, guildId: GUILD, channel: shape(asked) });
      const flaggedIn = async (channelId: string) =>
        (await withService(suite.db, (tx) =>
          tx.query<{ n: number }>('select count(*)::int as n from chunks where workspace_id = $1 and audience = $2 and readable_by_everyone', [workspaceId, `channel:${channelId}`]),
        ))[0]?.n;
      // The first ask stores the facts; the flags do not follow them yet: by keys, and right.
      const first = await ask(C.announcements);
      expect(first.filter).not.toHaveProperty('everyone');
      expect(await cited(first.filter)).toContain(C.general);
      expect(await flaggedIn(C.general)).toBe(0);
      expect(await rewriteEveryoneFlags(suite.db, workspaceId)).toMatchObject({ settled: true });
      expect(await flaggedIn(C.general)).toBeGreaterThan(0);

      let byFlag = 0;
      for (const asked of ASKED_IN) {
        const { filter } = await ask(asked);
        const got = await cited(filter);
        // The flag returns what the keys name, and the ground truth allows it.
        expect(got, `asked in ${asked}`).toEqual(await cited(filter.kind === 'keys' ? { kind: 'keys', keys: filter.keys } : filter));
        for (const s of got) expect(truthChannelAllows(asked, s), `asked in ${asked}, cited ${s}`).toBe(true);
        if (filter.kind === 'keys' && filter.everyone) byFlag++;
      }
      // #general, #announcements and #rules (and their public threads) are readable by every member.
      expect(byFlag).toBeGreaterThanOrEqual(5);
      // Private asks: a member who reads nothing beyond what everyone reads is served by the flag too
      // (none here: every member of the matrix reads some channel that not everyone reads).
      let privateByFlag = 0;
      for (const m of members) {
        const { filter } = await resolveAskAudience(suite.db, stored, { workspaceId, guildId: GUILD, channel: shape(C.general), member: m });
        for (const s of await cited(filter)) expect(s === null || truthReads(m, s), `member ${m.id} cited ${s}`).toBe(true);
        if (filter.kind === 'keys' && filter.everyone) privateByFlag++;
      }
      console.info(`by the everyone flag: ${byFlag} of ${ASKED_IN.length} channel asks, ${privateByFlag} of ${members.length} members' private asks`);
      const before = await ask(C.announcements);
      expect(before.filter).toMatchObject({ everyone: true });
      expect(await cited(before.filter)).toContain(C.general);

      // An admin makes #general staff-only; the next ask's refresh stores it, and rewrites nothing.
      const general = guilds.guilds.get(GUILD)?.channels.find((c) => c.id === C.general);
      if (general) general.permission_overwrites = staffOnly.map((o) => ({ ...o, type: 0 }));
      clock.t = GUILD_FACTS_TTL_MS + 1;
      const readsBefore = guilds.reads();
      const flipped = await ask(C.announcements);
      expect(guilds.reads(), 'the ask refreshed the facts').toBeGreaterThan(readsBefore);
      expect(await flaggedIn(C.general), 'the rewrite has not run').toBeGreaterThan(0);
      expect(flipped.filter).not.toHaveProperty('everyone');
      const byKeys = await cited(flipped.filter);
      expect(byKeys).not.toContain(C.general);
      expect(byKeys).not.toContain(C.publicThread);
      expect(byKeys).toContain(C.announcements);
      // Even a caller that marked it anyway is answered by keys: match_artifacts checks the flags.
      if (flipped.filter.kind !== 'keys') throw new Error('a channel ask filters by keys');
      expect(await cited({ ...flipped.filter, everyone: true })).toEqual(byKeys);

      // The rewrite converges; the next ask takes the everyone key again, and still never cites #general.
      expect(await rewriteEveryoneFlags(suite.db, workspaceId)).toMatchObject({ settled: true });
      expect(await flaggedIn(C.general)).toBe(0);
      const after = await ask(C.announcements);
      expect(after.filter).toMatchObject({ everyone: true });
      const citedAfter = await cited(after.filter);
      expect(citedAfter).toEqual(byKeys);
    });
  });
});

function canonicalKey(id: string): string {
  const c = byId.get(id) as RawChannel;
  return c.type === 10 || c.type === 11 ? (c.parent_id as string) : id;
}
