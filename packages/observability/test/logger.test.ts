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

  it('redacts the secrets of a config-shaped object two levels down, and keeps what is not secret', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'info', destination });
    const config = {
      stripe: { secretKey: 'sk_live_abc', webhookSecret: 'whsec_abc', priceId: 'price_visible' },
      discord: { botToken: 'bot-token-abc', clientSecret: 'client-secret-abc', publicKey: 'ab'.repeat(32) },
      database: { url: 'postgres://brain:pw-abc@db/brain', display: 'db:5432/brain' },
      supabase: { serviceRoleKey: 'service-role-abc' },
      cookieSecret: 'cookie-secret-abc',
      metricsToken: 'metrics-token-abc',
    };
    logger.child({ jobId: 'j1' }).info({ config }, 'loaded');
    const text = lines.join('');
    for (const secret of ['sk_live_abc', 'whsec_abc', 'bot-token-abc', 'client-secret-abc', 'pw-abc', 'service-role-abc', 'cookie-secret-abc', 'metrics-token-abc']) {
      expect(text).not.toContain(secret);
    }
    const line = JSON.parse(lines[0] as string);
    expect(line.config.stripe.priceId).toBe('price_visible');
    expect(line.config.database.display).toBe('db:5432/brain');
    expect(line.jobId).toBe('j1');
  });
});
