import { defineConfig } from 'vitest/config';

// The calibration test tokenizes ~900 passages with a reference tokenizer; on a shared machine
// that can take longer than vitest's default 5 s.
export default defineConfig({ test: { testTimeout: 60_000 } });
