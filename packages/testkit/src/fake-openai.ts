import { startFakeHttpServer, type FakeHttpServer, type FakeResponse, type RecordedRequest } from './fake-http-server.ts';

/**
 * A fake of the OpenAI API's two endpoints the product uses, close enough to the real one that a
 * client which works against it works against OpenAI: the same request limits (2048 inputs,
 * tokens per input and per request), `dimensions` only for text-embedding-3-*, base64 or float
 * encodings, OpenAI's error body, and scripted failures (429 with retry-after, 5xx, 4xx) for
 * retry tests. Vectors are deterministic: the same text always gets the same unit vector.
 */
export interface FakeOpenAIOptions {
  /** When set, a request without `Authorization: Bearer <apiKey>` gets a 401. */
  apiKey?: string;
  /** Milliseconds before each answer (latency of the real service). */
  latencyMs?: number;
  /** Dimensions by model when the request does not ask for any. Unknown models get 1536. */
  modelDimensions?: Record<string, number>;
  /** Limits of the real API; token counts are estimated as ceil(characters / 4). */
  maxInputs?: number;
  maxTokensPerInput?: number;
  maxTokensPerRequest?: number;
  chat?: ChatResponder;
  /**
   * How a text becomes its vector. The default is a pseudo-random unit vector seeded by the text:
   * fine for clients, but unlike any real model's (no two texts are alike, so retrieval through it
   * finds nothing above a similarity floor), and the worst case for an HNSW graph. Tests and
   * benchmarks of what happens after the API pass a text-derived vector instead (the local
   * embedder's, or one text's vector for a group of related ones).
   */
  vectorFor?: (text: string, dimensions: number) => number[];
}

/** What a scripted failure answers instead of the normal response. */
export interface ScriptedFailure {
  status: number;
  headers?: Record<string, string>;
  /** Defaults to OpenAI's error shape with a message naming the status. */
  body?: unknown;
  /** OpenAI's `error.code` (e.g. "insufficient_quota") when `body` is not given. */
  code?: string;
}

export type ChatResponse = string | { content: string; finishReason?: string };
/** Turns the parsed request body of POST /v1/chat/completions into the assistant's message. */
export type ChatResponder = (body: ChatRequestBody) => ChatResponse | Promise<ChatResponse>;

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: unknown }[];
  stream?: boolean;
  [key: string]: unknown;
}

export interface EmbeddingCall {
  model: string;
  inputs: string[];
  dimensions: number | undefined;
  encodingFormat: string | undefined;
  /** The HTTP status the fake answered with. */
  status: number;
}

export interface FakeOpenAI {
  /** Base URL including /v1, as the openai SDK's `baseURL` expects. */
  url: string;
  server: FakeHttpServer;
  /** Every request to /v1/embeddings, in order, failed ones included. */
  embeddingCalls: EmbeddingCall[];
  /** Every parsed request body sent to /v1/chat/completions, in order. */
  chatCalls: ChatRequestBody[];
  /** The next `count` requests to the route get `failure` instead of an answer. */
  failNext(route: 'embeddings' | 'chat', count: number, failure: ScriptedFailure): void;
  setLatency(ms: number): void;
  /**
   * Requests to the route are recorded on arrival but not answered until the returned function
   * is called: the test decides when the work waiting on them may finish.
   */
  hold(route: 'embeddings' | 'chat'): () => void;
  setChatResponder(responder: ChatResponder): void;
  /** The vector the fake returns for `text` (to compare with what a client got back). */
  vectorFor(text: string, dimensions: number): number[];
  close(): Promise<void>;
}

const DEFAULT_MODEL_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const server = await startFakeHttpServer('openai');
  const scripts: Record<'embeddings' | 'chat', ScriptedFailure[]> = { embeddings: [], chat: [] };
  const embeddingCalls: EmbeddingCall[] = [];
  const chatCalls: ChatRequestBody[] = [];
  let latencyMs = options.latencyMs ?? 0;
  const held: Record<'embeddings' | 'chat', Promise<void> | undefined> = { embeddings: undefined, chat: undefined };
  let chatResponder: ChatResponder = options.chat ?? (() => 'This is a fake answer.');
  const limits = {
    maxInputs: options.maxInputs ?? 2048,
    maxTokensPerInput: options.maxTokensPerInput ?? 8192,
    maxTokensPerRequest: options.maxTokensPerRequest ?? 300_000,
  };
  const vectorFor = options.vectorFor ?? deterministicVector;
  const dimensionsOf = (model: string) => options.modelDimensions?.[model] ?? DEFAULT_MODEL_DIMENSIONS[model] ?? 1536;

  /** Auth and scripted failures, common to both routes; undefined means "answer normally". */
  const preflight = (route: 'embeddings' | 'chat', req: RecordedRequest): FakeResponse | undefined => {
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return apiError(401, 'Incorrect API key provided.', 'invalid_api_key');
    }
    const failure = scripts[route].shift();
    if (!failure) return undefined;
    return {
      status: failure.status,
      headers: failure.headers ?? {},
      body: failure.body ?? apiErrorBody(failure.status, `Scripted failure ${failure.status}.`, failure.code ?? null),
    };
  };

  server.on('POST', '/v1/embeddings', async (req) => {
    const body = (req.json ?? {}) as Record<string, unknown>;
    const model = typeof body.model === 'string' ? body.model : '';
    const raw = body.input;
    const inputs = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw.map((x) => (typeof x === 'string' ? x : '')) : [];
    const requested = typeof body.dimensions === 'number' ? body.dimensions : undefined;
    const encodingFormat = typeof body.encoding_format === 'string' ? body.encoding_format : undefined;
    const call: EmbeddingCall = { model, inputs, dimensions: requested, encodingFormat, status: 200 };
    embeddingCalls.push(call);
    await held.embeddings;
    const out = preflight('embeddings', req) ?? answerEmbeddings(model, inputs, requested, encodingFormat);
    call.status = out.status ?? 200;
    return { ...out, delayMs: latencyMs };
  });

  const answerEmbeddings = (model: string, inputs: string[], requested: number | undefined, encoding: string | undefined): FakeResponse => {
    if (!model) return apiError(400, "you must provide a model parameter", null);
    if (inputs.length === 0) return apiError(400, "'$.input' is invalid: it must be a non-empty string or array of strings.", null);
    if (inputs.length > limits.maxInputs) {
      return apiError(400, `'$.input' is invalid: the array must have at most ${limits.maxInputs} elements, got ${inputs.length}.`, null);
    }
    if (inputs.some((input) => input === '')) return apiError(400, "'$.input' is invalid: empty strings are not allowed.", null);
    let total = 0;
    for (const input of inputs) {
      const tokens = Math.ceil(input.length / 4);
      if (tokens > limits.maxTokensPerInput) {
        return apiError(400, `This model's maximum context length is ${limits.maxTokensPerInput} tokens, however you requested ${tokens} tokens.`, null);
      }
      total += tokens;
    }
    if (total > limits.maxTokensPerRequest) {
      return apiError(400, `Requested ${total} tokens, max ${limits.maxTokensPerRequest} tokens per request`, 'max_tokens_per_request');
    }
    if (requested !== undefined && !model.startsWith('text-embedding-3')) {
      return apiError(400, 'This model does not support specifying dimensions.', null);
    }
    const dimensions = requested ?? dimensionsOf(model);
    return {
      status: 200,
      body: {
        object: 'list',
        model,
        // Out of order on purpose: clients must place vectors by `index`.
        data: inputs
          .map((input, index) => {
            const vector = vectorFor(input, dimensions);
            return { object: 'embedding', index, embedding: encoding === 'base64' ? toBase64(vector) : vector };
          })
          .reverse(),
        usage: { prompt_tokens: total, total_tokens: total },
      },
    };
  };

  server.on('POST', '/v1/chat/completions', async (req) => {
    const body = (req.json ?? {}) as ChatRequestBody;
    chatCalls.push(body);
    await held.chat;
    const failed = preflight('chat', req);
    if (failed) return { ...failed, delayMs: latencyMs };
    const reply = await chatResponder(body);
    const { content, finishReason } = typeof reply === 'string' ? { content: reply, finishReason: 'stop' } : { finishReason: 'stop', ...reply };
    const id = `chatcmpl-fake-${chatCalls.length}`;
    const created = 1_700_000_000;
    const promptTokens = Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
    const completionTokens = Math.ceil(content.length / 4);
    if (body.stream) {
      const base = { id, object: 'chat.completion.chunk', created, model: body.model };
      const words = content.match(/\S+\s*/g) ?? [''];
      const events = [
        { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
        ...words.map((word) => ({ ...base, choices: [{ index: 0, delta: { content: word }, finish_reason: null }] })),
        { ...base, choices: [{ index: 0, delta: {}, finish_reason: finishReason }] },
      ];
      return {
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        body: events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('') + 'data: [DONE]\n\n',
        delayMs: latencyMs,
      };
    }
    return {
      status: 200,
      delayMs: latencyMs,
      body: {
        id,
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: finishReason, logprobs: null }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      },
    };
  });

  return {
    url: `${server.url}/v1`,
    server,
    embeddingCalls,
    chatCalls,
    failNext(route, count, failure) {
      for (let i = 0; i < count; i++) scripts[route].push(failure);
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    hold(route) {
      let release = () => {};
      held[route] = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held[route] = undefined;
        release();
      };
    },
    setChatResponder(responder) {
      chatResponder = responder;
    },
    vectorFor,
    close: () => server.close(),
  };
}

function apiErrorBody(status: number, message: string, code: string | null) {
  const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code } };
}

function apiError(status: number, message: string, code: string | null): FakeResponse {
  return { status, body: apiErrorBody(status, message, code) };
}

/** A unit vector seeded by the text (FNV-1a → xorshift), rounded to float32 like the real API's. */
function deterministicVector(text: string, dimensions: number): number[] {
  let seed = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) seed = Math.imul(seed ^ text.charCodeAt(i), 0x01000193) >>> 0;
  let state = seed || 1;
  const values = new Float32Array(dimensions);
  let norm = 0;
  for (let i = 0; i < dimensions; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    const v = state / 0xffffffff - 0.5;
    values[i] = v;
    norm += v * v;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < dimensions; i++) values[i] = (values[i] as number) / norm;
  return Array.from(values);
}

function toBase64(vector: number[]): string {
  const bytes = Buffer.from(new Float32Array(vector).buffer);
  return bytes.toString('base64');
}
