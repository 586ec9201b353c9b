import type { FastifyPluginAsync } from 'fastify';
import type { DevOutboxMailer } from '@brain/accounts';
import { devOutboxPage } from '../../pages/dev-outbox-page.ts';
import { sendMessage } from '../../pages/message-page.ts';
import { sendPage } from '../../pages/send-page.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * GET /dev/outbox: the magic links that would have been emailed, for local use without an
 * email service. These links claim workspaces, so the page answers only a caller on this
 * machine talking to us directly: the socket's own address, never X-Forwarded-For, and no
 * proxy in between.
 */
export const devOutboxRoute: FastifyPluginAsync<{ outbox: DevOutboxMailer }> = async (app, { outbox }) => {
  app.get('/dev/outbox', async (request, reply) => {
    const direct = LOOPBACK.test(request.socket.remoteAddress ?? '') && request.headers['x-forwarded-for'] === undefined;
    if (!direct) return sendMessage(reply, 403, 'The dev outbox is only shown on this machine', 'Open it from the machine that runs Company Brain.');
    return sendPage(reply, 200, 'Dev outbox', devOutboxPage(outbox.entries()), { wide: true });
  });
};
