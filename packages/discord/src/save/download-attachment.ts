import { AppError } from '@brain/errors';
import type { AttachmentDownloader } from '../interactions/types.ts';

/** Where Discord serves attachments. Nothing else is ever fetched by this downloader. */
export const DISCORD_CDN_HOSTS = ['cdn.discordapp.com', 'media.discordapp.net'];

/** The fetch underneath: the SSRF-safe fetcher (@brain/fetch safeFetch) in the composition root. */
export type FetchBytes = (url: string, options: { maxBytes: number; signal: AbortSignal }) => Promise<{ bytes: Buffer; contentType: string | undefined }>;

/**
 * Downloads a `/save file:` attachment. The URL comes from a signed interaction, and only
 * Discord's CDN over https is accepted before the SSRF-safe fetcher even resolves it.
 */
export function createAttachmentDownloader(fetchBytes: FetchBytes, options: { hosts?: string[] } = {}): AttachmentDownloader {
  const hosts = new Set((options.hosts ?? DISCORD_CDN_HOSTS).map((h) => h.toLowerCase()));
  return async (url, { maxBytes, signal }) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.protocol !== 'https:' || !hosts.has(parsed.host.toLowerCase())) {
      throw new AppError({
        code: 'ATTACHMENT_URL_REFUSED',
        message: `Not a Discord attachment URL: ${url.slice(0, 200)}`,
        userMessage: 'That file is not on Discord’s file server, so I did not download it.',
        nextStep: 'Attach the file to the /save command itself.',
        httpStatus: 400,
      });
    }
    return fetchBytes(parsed.href, { maxBytes, signal });
  };
}
