import type { FastifyReply } from 'fastify';
import type { SafeHtml } from '../html/html.ts';
import { page, type PageOptions } from '../html/layout.ts';

/**
 * Sends a server-rendered page with the headers every such page gets: never cached (they carry
 * tokens and per-browser state), no referrer (a magic-link URL must not leak to another site),
 * no framing, and a CSP that allows no script and no external resource at all.
 */
export function sendPage(reply: FastifyReply, status: number, title: string, body: SafeHtml, options: Omit<PageOptions, 'title' | 'body'> = {}): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'")
    .send(page({ title, body, ...options }));
}
