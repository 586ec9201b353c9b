import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, lazyChild } from '../src/index.ts';

function parentLogger(level: 'info' | 'warn') {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const parent = createLogger({ level, destination });
  return { parent, lines, childCalls: vi.spyOn(parent, 'child') };
}

describe('lazyChild', () => {
  it('builds no child for lines below the level, nor when its methods are only looked up', () => {
    const { parent, lines, childCalls } = parentLogger('warn');
    const log = lazyChild(parent, { interactionId: 'i1' });
    for (const method of ['info', 'error', 'debug', 'fatal', 'warn', 'trace', 'child'] as const) expect(typeof log[method]).toBe('function');
    log.info('received');
    log.debug({ a: 1 }, 'details');
    expect(log.isLevelEnabled('info')).toBe(false);
    expect(childCalls).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it('builds the child once, at the first line that is written, with its bindings redacted like any child', () => {
    const { parent, lines, childCalls } = parentLogger('info');
    const log = lazyChild(parent, { interactionId: 'i2', token: 'interaction-token-abc' });
    log.info('first');
    log.warn({ n: 2 }, 'second');
    expect(childCalls).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => [l.msg, l.interactionId, l.token])).toEqual([
      ['first', 'i2', '[redacted]'],
      ['second', 'i2', '[redacted]'],
    ]);
  });

  it('behaves as the child for everything else: its level, bindings and children', () => {
    const { parent, lines } = parentLogger('info');
    const log = lazyChild(parent, { reqId: 'r1' });
    expect(log.level).toBe('info');
    expect(log.bindings()).toMatchObject({ reqId: 'r1' });
    log.child({ jobId: 'j1' }).info('nested');
    expect(lines[0]).toMatchObject({ reqId: 'r1', jobId: 'j1', msg: 'nested' });
  });

  it('builds at once when given options (a level of its own)', () => {
    const { parent, lines, childCalls } = parentLogger('info');
    const log = lazyChild(parent, { reqId: 'r2' }, { level: 'warn' });
    expect(childCalls).toHaveBeenCalledTimes(1);
    log.info('hidden');
    log.warn('shown');
    expect(lines.map((l) => l.msg)).toEqual(['shown']);
  });
});
