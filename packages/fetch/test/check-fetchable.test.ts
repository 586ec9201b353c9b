import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '@brain/errors';
import { startFakeHttpServer, type FakeHttpServer } from '@brain/testkit';
import { checkFetchable, type Resolver } from '../src/index.ts';

let canary: FakeHttpServer;
beforeAll(async () => {
  canary = await startFakeHttpServer('canary');
});
afterAll(() => canary.close());

const resolver: Resolver = async (host) => {
  if (host === 'docs.example.com') return [{ address: '93.184.215.14', family: 4 }];
  if (host === 'internal.example.com') return [{ address: '10.0.0.7', family: 4 }];
  if (host === 'flaky.example.com') throw Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' });
  throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
};

async function codeOf(url: string, allowPrivateHosts: string[] = []): Promise<string | undefined> {
  try {
    await checkFetchable(url, { allowPrivateHosts, resolver });
    return undefined;
  } catch (error) {
    return isAppError(error) ? error.code : String(error);
  }
}

describe('checkFetchable (save-time refusal, no connection)', () => {
  it('refuses what safeFetch would refuse, with the same codes and message', async () => {
    expect(await codeOf('http://169.254.169.254/latest/meta-data/')).toBe('FETCH_BLOCKED_ADDRESS');
    expect(await codeOf(`http://127.0.0.1:${canary.port}/`)).toBe('FETCH_BLOCKED_ADDRESS');
    expect(await codeOf('http://internal.example.com/')).toBe('FETCH_BLOCKED_ADDRESS');
    expect(await codeOf('http://nope.example.com/')).toBe('FETCH_HOST_NOT_FOUND');
    expect(await codeOf('ftp://docs.example.com/')).toBe('FETCH_INVALID_URL');
    expect(await codeOf('http://docs.example.com:25/')).toBe('FETCH_BLOCKED_PORT');
    const error = await checkFetchable(`http://127.0.0.1:${canary.port}/`, { allowPrivateHosts: [] }).catch((e: unknown) => e);
    expect(isAppError(error) && error.userMessage).toBe('The address 127.0.0.1 is not allowed: it is a loopback address (this machine).');
  });

  it('passes public hosts, allow-listed ones, and transient DNS failures (the fetch retries those)', async () => {
    expect(await codeOf('https://docs.example.com/guide')).toBeUndefined();
    expect(await codeOf(`http://127.0.0.1:${canary.port}/`, ['127.0.0.1'])).toBeUndefined();
    expect(await codeOf('http://flaky.example.com/')).toBeUndefined();
  });

  it('never connects', () => {
    expect(canary.requests).toHaveLength(0);
  });
});
