import OpenAI from 'openai';

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
 * The SDK client every chat-model caller (the answerer, the follow-up rewriter) uses. Every
 * option the SDK would otherwise read from process.env is given explicitly: packages take their
 * configuration as arguments, and a stray OPENAI_ORG_ID must not change behaviour.
 */
export function openAIChatClient(options: OpenAIChatClientOptions): OpenAI {
  return new OpenAI({
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
