import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/index.ts';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('redacts secrets by key, at the top level and one level down', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'info', destination });
    logger.info({ token: 'discord-bot-token', config: { apiKey: 'sk-live-123', databaseUrl: 'postgres://u:pw@h/db' }, req: { headers: { authorization: 'Bearer abc' } } }, 'hello');
    const text = lines.join('');
    for (const secret of ['discord-bot-token', 'sk-live-123', 'postgres://u:pw@h/db', 'Bearer abc']) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
    expect(JSON.parse(lines[0] as string).msg).toBe('hello');
  });
});
