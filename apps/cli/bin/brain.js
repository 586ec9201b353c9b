#!/usr/bin/env node
// The workspace packages are TypeScript; tsx compiles them on load, so there is no build step
// between a clone and a running bot.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
