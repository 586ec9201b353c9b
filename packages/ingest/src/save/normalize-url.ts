import { AppError } from '@brain/errors';

// Tracking parameters change nothing about a page; they only make one source look like many.
const TRACKING_PARAMS = /^(utm_[a-z]+|fbclid|gclid|mc_cid|mc_eid|ref_src)$/i;

/**
 * The identity of a URL source: same page, same key, whatever the casing of the host, the
 * fragment or the tracking parameters. Only http(s); the fetcher re-checks everything else.
 */
export function normalizeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppError({
      code: 'SAVE_INVALID_URL',
      message: `Not a URL: ${raw.slice(0, 200)}`,
      userMessage: `That is not a link I can save: ${raw.slice(0, 100)}`,
      nextStep: 'Send a full address starting with https://.',
      httpStatus: 400,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError({
      code: 'SAVE_INVALID_URL',
      message: `Unsupported scheme ${url.protocol} in ${raw.slice(0, 200)}`,
      userMessage: `Only web links (http or https) can be saved, not ${url.protocol.replace(':', '')} links.`,
      nextStep: 'Upload the file instead, or paste its text.',
      httpStatus: 400,
    });
  }
  url.hash = '';
  for (const key of [...url.searchParams.keys()]) {
    if (TRACKING_PARAMS.test(key)) url.searchParams.delete(key);
  }
  // URL already lower-cases the host and drops default ports.
  return url.toString();
}
