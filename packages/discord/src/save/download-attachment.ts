import { AppError } from '@brain/errors';
import type { AttachmentDownloader } from '../interactions/types.ts';

/** Where Discord serves attachments. Nothing else is ever fetched by this downloader. */
export const DISCORD_CDN_HOSTS = ['cdn.discordapp.com', 'media.discordapp.net'];

function refused(message: string, code = 'ATTACHMENT_DOWNLOAD_FAILED'): AppError {
  return new AppError({ code, message, userMessage: `I couldn't download that file: ${message}`, nextStep: 'Upload it again in a minute.', retryable: true, httpStatus: 502 });
}

/**
 * Downloads a `/save file:` attachment from Discord's CDN. The URL comes from a signed
 * interaction, and only Discord's CDN hosts over https are accepted (no redirects elsewhere),
 * so this cannot be pointed at an internal address; the size cap holds while streaming.
 */
export function createAttachmentDownloader(options: { hosts?: string[]; timeoutMs?: number; allowHttp?: boolean } = {}): AttachmentDownloader {
  const hosts = new Set((options.hosts ?? DISCORD_CDN_HOSTS).map((h) => h.toLowerCase()));
  const timeoutMs = options.timeoutMs ?? 30_000;
  return async (url, { maxBytes, signal }) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw refused('its address is not a URL.', 'ATTACHMENT_URL_INVALID');
    }
    const schemeOk = parsed.protocol === 'https:' || (options.allowHttp === true && parsed.protocol === 'http:');
    if (!schemeOk || !hosts.has(parsed.host.toLowerCase())) throw refused('it is not on Discord’s file server.', 'ATTACHMENT_URL_REFUSED');
    const res = await fetch(parsed, { redirect: 'error', signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) }).catch((error: unknown) => {
      throw refused(error instanceof Error && error.name === 'TimeoutError' ? 'Discord took too long to send it.' : 'Discord did not send it.');
    });
    if (!res.ok || !res.body) throw refused(`Discord answered ${res.status}.`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > maxBytes) throw new AppError({ code: 'SAVE_TOO_LARGE', message: 'attachment over the size limit', userMessage: `That file is larger than ${Math.round(maxBytes / 1048576)} MB.`, nextStep: 'Split it, or save the part that matters as text.', httpStatus: 400 });
      chunks.push(Buffer.from(chunk));
    }
    return { bytes: Buffer.concat(chunks), contentType: res.headers.get('content-type') ?? undefined };
  };
}
