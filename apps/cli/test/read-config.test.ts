import { afterEach, describe, expect, it, vi } from 'vitest';
import { helperThreadPriority, setHelperThreadPriority } from '@brain/db';
import { readConfig } from '../src/context.ts';

describe('readConfig', () => {
  const before = helperThreadPriority();
  afterEach(() => {
    vi.unstubAllEnvs();
    // Files share this process (isolate: false): later suites start their threads at the usual priority.
    setHelperThreadPriority(before);
  });

  it('lets helper threads give way as configured only in a process that acknowledges interactions', () => {
    vi.stubEnv('BRAIN_HELPER_THREAD_PRIORITY', 'idle');
    readConfig({ acknowledgesInteractions: true });
    expect(helperThreadPriority()).toBe('idle');
    // A one-shot command or the worker: nothing to give way to, so nothing slows it on a busy machine.
    readConfig();
    expect(helperThreadPriority()).toBe('normal');

    vi.stubEnv('BRAIN_HELPER_THREAD_PRIORITY', undefined);
    readConfig({ acknowledgesInteractions: true });
    expect(helperThreadPriority()).toBe('nice');
  });
});
