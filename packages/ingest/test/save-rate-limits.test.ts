import { beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter } from '@brain/accounts';
import { withService } from '@brain/db';
import { describeDb } from '@brain/db/testing';
import { isAppError } from '@brain/errors';
import { describeSeconds, saveSource, type SaveRateLimits } from '../src/index.ts';
import { createWorkspace } from './helpers.ts';

// Windows far longer than the test, so no window rolls over halfway through it.
const LONG = 100_000_000;

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return { code: error.code, status: error.httpStatus, text: error.toUserString(), retryAfterSeconds: error.details?.retryAfterSeconds };
}

describeDb('save rate limits', (suite) => {
  let ws = '';
  let other = '';
  let limits: SaveRateLimits;
  beforeAll(async () => {
    ws = await createWorkspace(suite.db, 'limited');
    other = await createWorkspace(suite.db, 'unlimited');
    limits = { counter: createRateLimiter(suite.db), perMember: { limit: 3, windowSeconds: LONG }, perWorkspace: { limit: 5, windowSeconds: LONG } };
  });

  const save = (workspaceId: string, savedBy: string, text: string) =>
    saveSource(suite.db, { workspaceId, input: { kind: 'text', text }, savedBy }, { rateLimits: limits });
  const artifactCount = async (workspaceId: string) =>
    (await withService(suite.db, (tx) => tx.query<{ n: number }>('select count(*)::int as n from artifacts where workspace_id = $1', [workspaceId])))[0]?.n;

  it('refuses a member past their limit with a code and when to try again, and writes nothing', async () => {
    for (let i = 0; i < 3; i++) await save(ws, 'discord:1', `member one note ${i}`);
    const refused = await refusal(save(ws, 'discord:1', 'member one note 3'));
    expect(refused).toMatchObject({ code: 'SAVE_RATE_LIMITED_MEMBER', status: 429 });
    expect(refused.text).toMatch(/^You have saved 3 sources in the last .+, the most one member may\. Try again in \d+ (hour|minute|second)s?.*; nothing was saved this time\.$/);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(await artifactCount(ws)).toBe(3);
  });

  it("refuses the workspace past its limit, whoever saves, and leaves other workspaces alone", async () => {
    await save(ws, 'discord:2', 'member two note 0');
    await save(ws, 'mcp:agent', 'agent note 0');
    const refused = await refusal(save(ws, 'discord:3', 'member three note 0'));
    expect(refused.code).toBe('SAVE_RATE_LIMITED_WORKSPACE');
    expect(refused.text).toMatch(/^This server has saved 5 sources in the last .+\. Try again in /);
    expect(await artifactCount(ws)).toBe(5);
    await save(other, 'discord:1', 'elsewhere');
    expect(await artifactCount(other)).toBe(1);
  });

  it('saves without limits when none are given (the operator CLI) or a limit is 0', async () => {
    for (let i = 0; i < 4; i++) await saveSource(suite.db, { workspaceId: other, input: { kind: 'text', text: `cli ${i}` }, savedBy: 'cli' });
    const off: SaveRateLimits = { ...limits, perMember: { limit: 0, windowSeconds: LONG }, perWorkspace: { limit: 0, windowSeconds: LONG } };
    for (let i = 0; i < 6; i++) await saveSource(suite.db, { workspaceId: ws, input: { kind: 'text', text: `off ${i}` }, savedBy: 'discord:1' }, { rateLimits: off });
    expect(await artifactCount(other)).toBe(5);
    expect(await artifactCount(ws)).toBe(11);
  });
});

describe('waits people can read', () => {
  it('says seconds, minutes, hours', () => {
    expect(describeSeconds(0.2)).toBe('1 second');
    expect(describeSeconds(45)).toBe('45 seconds');
    expect(describeSeconds(61)).toBe('2 minutes');
    expect(describeSeconds(3600)).toBe('1 hour');
    expect(describeSeconds(3900)).toBe('1 hour 5 minutes');
  });
});
