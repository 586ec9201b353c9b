import type { FastifyInstance } from 'fastify';
import { clientFacingError } from '../client-error.ts';
import { sendAppError } from '../pages/message-page.ts';

const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * What a scope of server-rendered pages needs: HTML forms parsed (in this scope only), and
 * errors rendered as pages with the AppError's message and next step, rather than JSON.
 */
export function usePageScope(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.setErrorHandler((error, request, reply) => {
    const { appError, status } = clientFacingError(error);
    if (status >= 500) request.log.error({ err: error, code: appError.code }, 'page failed');
    else request.log.warn({ code: appError.code, message: appError.message }, 'page refused');
    return sendAppError(reply, appError, status);
  });
}
