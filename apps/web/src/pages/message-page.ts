import type { FastifyReply } from 'fastify';
import type { AppError } from '@brain/errors';
import { html, type SafeHtml } from '../html/html.ts';
import { sendPage } from './send-page.ts';

/** A page that says what happened and what to do next. */
export function sendMessage(reply: FastifyReply, status: number, title: string, lines: SafeHtml | string, next?: SafeHtml): FastifyReply {
  return sendPage(reply, status, title, html`<h1>${title}</h1><p>${lines}</p>${next ?? ''}`);
}

/** An error as a page: an AppError's own words; for anything else, nothing internal. */
export function sendAppError(reply: FastifyReply, error: AppError, status: number): FastifyReply {
  if (error.code === 'INTERNAL') {
    return status >= 500
      ? sendMessage(reply, 500, 'Something went wrong on our side', 'Nothing was changed. Try again in a minute.')
      : sendMessage(reply, status, 'The request was refused', 'Go back, reload the page and try again.');
  }
  return sendMessage(
    reply,
    status,
    error.userMessage,
    error.nextStep ?? '',
    error.code === 'RATE_LIMITED' ? html`<p class="muted">Limits keep links and accounts safe from guessing.</p>` : undefined,
  );
}
