/**
 * Deterministic clean-up of answer text before any surface renders it. Defence in depth: the
 * Discord layer also sends `allowed_mentions: { parse: [] }` and suppresses link previews, but
 * the text itself must be harmless wherever it is pasted (MCP clients, the dashboard, logs).
 */

const ZWSP = '\u200b';
// Bidirectional overrides and isolates can make text read differently from what it is.
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/g;
const MASS_MENTION = /@(everyone|here)\b/gi;
const ROLE_MENTION = /<@&\d+>/g;
const USER_MENTION = /<@!?\d+>/g;
const MASKED_LINK = /\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const BARE_URL = /\b(?:https?:\/\/|www\.)[^\s<>"'`)\]]+/gi;
const INVITE = /\b(?:discord(?:app)?\.(?:gg|com\/invite|io|me|li)|dsc\.gg)\/[\w-]+/gi;
const TRAILING_PUNCTUATION = /[.,;:!?'"]+$/;

export const LINK_REMOVED = '(link removed)';

/** `@everyone`, `@here`, role and user mentions can no longer ping anyone, and read the same. */
export function neutraliseMentions(text: string): string {
  return text
    .replace(MASS_MENTION, `@${ZWSP}$1`)
    .replace(ROLE_MENTION, `@${ZWSP}role`)
    .replace(USER_MENTION, `@${ZWSP}user`);
}

export function stripInvisibleControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '').replace(ZERO_WIDTH, '');
}

/** The allowed sources' own addresses, and every link written inside their text. */
export function allowedUrlsOf(sources: readonly { url: string | null; content: string }[]): Set<string> {
  const allowed = new Set<string>();
  for (const source of sources) {
    if (source.url) allowed.add(trimUrl(source.url));
    for (const m of source.content.matchAll(BARE_URL)) allowed.add(trimUrl(m[0]));
    for (const m of source.content.matchAll(INVITE)) allowed.add(trimUrl(m[0]));
  }
  return allowed;
}

/**
 * Masked links (`[text](url)`) are unmasked, so a link can never pretend to go somewhere else,
 * and any URL or Discord invite that is not allowed is removed: a model coaxed into building
 * `https://attacker.test/?d=<secrets>` has nowhere to put it.
 */
export function removeUnlistedLinks(text: string, allowed: ReadonlySet<string>): string {
  const isAllowed = (url: string) => allowed.has(trimUrl(url));
  return text
    .replace(MASKED_LINK, (_all, label: string, url: string) =>
      isAllowed(url) ? `${label} (${trimUrl(url)})` : label,
    )
    .replace(BARE_URL, (url) => keepOrRemove(url, isAllowed))
    .replace(INVITE, (url) => keepOrRemove(url, isAllowed));
}

function keepOrRemove(url: string, isAllowed: (url: string) => boolean): string {
  const trimmed = trimUrl(url);
  return isAllowed(trimmed) ? url : LINK_REMOVED + url.slice(trimmed.length);
}

function trimUrl(url: string): string {
  return url.trim().replace(TRAILING_PUNCTUATION, '');
}
