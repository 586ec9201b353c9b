import type OpenAI from 'openai';
import { loadOpenAI } from '@brain/embeddings';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAIChatClientOptions {
  /** Optional for endpoints that need none (a local Ollama); OpenAI itself requires one. */
  apiKey?: string | undefined;
  /** Any OpenAI-compatible endpoint. Default: OpenAI's. */
  baseUrl?: string | undefined;
  timeoutMs: number;
  maxRetries: number;
}

/** The endpoint without trailing slashes, as both the client and the error messages name it. */
export function chatBaseUrl(baseUrl: string | undefined): string {
  return (baseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
}

/**
 * The SDK client every chat-model caller (the answerer, the follow-up rewriter) uses, made on its
 * first request (the SDK is loaded then: see loadOpenAI). Every option the SDK would otherwise read
 * from process.env is given explicitly: packages take their configuration as arguments, and a
 * stray OPENAI_ORG_ID must not change behaviour.
 */
export function openAIChatClient(options: OpenAIChatClientOptions): () => Promise<OpenAI> {
  let client: Promise<OpenAI> | undefined;
  return () => (client ??= loadOpenAI().then((sdk) => newClient(sdk.default, options)));
}

function newClient(OpenAISdk: typeof OpenAI, options: OpenAIChatClientOptions): OpenAI {
  return new OpenAISdk({
    apiKey: options.apiKey ?? 'not-needed',
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    baseURL: chatBaseUrl(options.baseUrl),
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
    logLevel: 'off',
  });
}
