import fs from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';

export interface MarkdownLink {
  file: string;
  line: number;
  target: string;
}

/** Lines outside fenced code blocks, with their 1-based numbers: a `#` or `](` inside code is not markdown. */
function proseLines(text: string): { line: number; text: string }[] {
  let fenced = false;
  const out: { line: number; text: string }[] = [];
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) out.push({ line: i + 1, text: line.replace(/`[^`]*`/g, (m) => (m.includes('](') ? '' : m)) });
  });
  return out;
}

/** The anchors GitHub gives a file's headings, duplicates numbered as GitHub numbers them. */
export function headingAnchors(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const { text: line } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) anchors.add(slugger.slug(heading[1]!.replace(/`/g, '')));
  }
  return anchors;
}

export function relativeLinks(file: string, text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { line, text: prose } of proseLines(text)) {
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (!/^[a-z]+:/i.test(target)) links.push({ file, line, target });
    }
  }
  return links;
}

/** Why a relative link does not resolve (missing file, missing heading), or undefined when it does. */
export function brokenReason(link: MarkdownLink): string | undefined {
  const [pathPart, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const resolved = pathPart === '' ? link.file : path.resolve(path.dirname(link.file), pathPart);
  if (!fs.existsSync(resolved)) return `no file ${pathPart}`;
  if (anchor === undefined) return undefined;
  if (!resolved.endsWith('.md')) return `an anchor into a file that is not markdown`;
  return headingAnchors(fs.readFileSync(resolved, 'utf8')).has(anchor) ? undefined : `no heading #${anchor} in ${path.basename(resolved)}`;
}

/** The body of a `## title` section, up to the next heading of the same or a higher level. */
export function section(text: string, title: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l === `## ${title}`);
  if (start < 0) return '';
  const end = lines.findIndex((l, i) => i > start && /^#{1,2} /.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}
