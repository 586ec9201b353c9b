import type { FastifyRequest } from 'fastify';

/** A parsed HTML form or query string: every field a string, or absent. */
export type FormBody = Record<string, string | undefined>;

export function formOf(request: FastifyRequest): FormBody {
  return (typeof request.body === 'object' && request.body !== null ? request.body : {}) as FormBody;
}

export function queryOf(request: FastifyRequest): FormBody {
  return (request.query ?? {}) as FormBody;
}

export function paramOf(request: FastifyRequest, name: string): string {
  return ((request.params ?? {}) as Record<string, string | undefined>)[name] ?? '';
}
