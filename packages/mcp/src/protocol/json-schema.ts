import { z } from 'zod';

type JsonObject = Record<string, unknown>;

/** Keywords whose values are data, not schemas: never rewritten. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required']);
/** Keywords that describe the whole value, kept beside anyOf rather than inside a branch. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', '$schema']);

/**
 * A tool's schema as JSON Schema (draft-07, as the SDK's clients expect), with every
 * `"type": ["string", "null"]` written as `anyOf: [{type: "string", …}, {type: "null"}]`.
 * Type arrays are valid JSON Schema, but some validators and LLM tool formats read them
 * differently (the Inspector's --strict flags them), while anyOf reads the same everywhere.
 */
export function toToolJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  return withoutTypeArrays(z.toJSONSchema(schema, { target: 'draft-7', io })) as JsonObject;
}

export function withoutTypeArrays(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutTypeArrays);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) out[key] = DATA_KEYWORDS.has(key) ? value : withoutTypeArrays(value);
  if (!Array.isArray(out.type)) return out;
  const types = out.type as string[];
  const kept: JsonObject = {};
  const constraints: JsonObject = {};
  for (const [key, value] of Object.entries(out)) {
    if (key === 'type') continue;
    (ANNOTATIONS.has(key) ? kept : constraints)[key] = value;
  }
  // Constraints (minLength, minimum, items…) only ever applied to their own type: they go in its branch.
  return { ...kept, anyOf: types.map((type) => (type === 'null' ? { type } : { type, ...constraints })) };
}
