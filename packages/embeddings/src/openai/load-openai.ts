import type * as Sdk from 'openai';

export type OpenAISdk = typeof Sdk;

let sdk: Promise<OpenAISdk> | undefined;

/**
 * The openai SDK, imported the first time a request needs it. It is about 150 modules: a bot on
 * the local embedder and the extractive answerer, and every one-shot `brain` command, would
 * otherwise load it at start for nothing (0.4 s of each start).
 */
export function loadOpenAI(): Promise<OpenAISdk> {
  return (sdk ??= import('openai'));
}
