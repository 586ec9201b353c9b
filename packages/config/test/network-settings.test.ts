import { describe, expect, it } from 'vitest';
import type { AppError } from '@brain/errors';
import { checkServingConfig, loadConfig } from '../src/index.ts';

const cwd = '/srv/brain';
const POSTGRES = { DATABASE_URL: 'postgres://u:secret@db.example.com:5432/app' };

function thrown(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a configuration error');
}

describe('where the web server listens (HOST)', () => {
  it('listens on this machine only in embedded mode, on every interface in PostgreSQL mode, and HOST overrides both', () => {
    expect(loadConfig({}, { cwd }).host).toBe('127.0.0.1');
    expect(loadConfig(POSTGRES, { cwd }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }, { cwd }).host).toBe('0.0.0.0');
    expect(loadConfig({ ...POSTGRES, HOST: '10.0.0.5' }, { cwd }).host).toBe('10.0.0.5');
    expect(loadConfig({ HOST: '::' }, { cwd }).host).toBe('::');
    expect(loadConfig({ HOST: '' }, { cwd }).host).toBe('127.0.0.1');
  });

  it('refuses a HOST that is not an address, saying what one looks like', () => {
    expect(thrown(() => loadConfig({ HOST: 'http://0.0.0.0:3000' }, { cwd })).message).toContain('HOST: must be an address to listen on, for example 127.0.0.1');
  });
});

describe('which proxies are believed about the client address (BRAIN_TRUST_PROXY)', () => {
  it('believes no one by default, in either mode', () => {
    expect(loadConfig({}, { cwd }).trustProxy).toBe(false);
    expect(loadConfig(POSTGRES, { cwd }).trustProxy).toBe(false);
    expect(loadConfig({ BRAIN_TRUST_PROXY: '0' }, { cwd }).trustProxy).toBe(false);
  });

  it('takes a hop count or a list of addresses and CIDRs', () => {
    expect(loadConfig({ BRAIN_TRUST_PROXY: '1' }, { cwd }).trustProxy).toBe(1);
    expect(loadConfig({ BRAIN_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback' }, { cwd }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback']);
  });

  it('refuses "true" (every proxy, so every client) and malformed entries', () => {
    for (const value of ['true', '10.0.0.0/33', 'proxy.example.com', '1.2.3.4/8/1']) {
      expect(thrown(() => loadConfig({ BRAIN_TRUST_PROXY: value }, { cwd })).message).toContain('BRAIN_TRUST_PROXY: must be a number of proxy hops');
    }
  });
});

describe('settings a serving process needs (checkServingConfig)', () => {
  it('requires BRAIN_METRICS_TOKEN in PostgreSQL mode, by name, for the web and for the worker’s metrics port', () => {
    const web = thrown(() => checkServingConfig(loadConfig(POSTGRES, { cwd }), 'web'));
    expect(web.code).toBe('CONFIG_INVALID');
    expect(web.message).toContain('Invalid configuration');
    expect(web.message).toContain('BRAIN_METRICS_TOKEN: required in PostgreSQL mode');
    expect(web.message).toContain('GET /metrics');
    expect(thrown(() => checkServingConfig(loadConfig(POSTGRES, { cwd }), 'worker metrics')).message).toContain('BRAIN_METRICS_PORT');
  });

  it('accepts PostgreSQL mode with a token, and embedded mode without one (it listens on loopback)', () => {
    expect(() => checkServingConfig(loadConfig({ ...POSTGRES, BRAIN_METRICS_TOKEN: 'm'.repeat(24) }, { cwd }), 'web')).not.toThrow();
    expect(() => checkServingConfig(loadConfig({}, { cwd }), 'web')).not.toThrow();
  });
});
