import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '@brain/errors';
import { mimeTypeForFileName, type SourceInput } from '@brain/ingest';

export const SAVEABLE_EXTENSIONS = new Set(['.html', '.htm', '.pdf', '.md', '.markdown', '.txt']);

export interface Target {
  label: string;
  input: SourceInput;
}

/** A URL stays a URL; a folder becomes every document below it, named by its path inside the folder. */
export function expandTarget(raw: string, title: string | undefined): Target[] {
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw) && !fs.existsSync(raw)) return [{ label: raw, input: { kind: 'url', url: raw, title } }];
  let stat: fs.Stats;
  try {
    stat = fs.statSync(raw);
  } catch {
    throw new AppError({ code: 'SAVE_NOT_FOUND', message: `${raw} is neither a URL nor an existing file or folder.`, nextStep: 'Check the path, or give a full URL starting with https://.' });
  }
  if (stat.isFile()) return [fileTarget(raw, path.basename(raw), title)];
  const files: Target[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && SAVEABLE_EXTENSIONS.has(path.extname(entry.name).toLowerCase())) {
        files.push(fileTarget(full, path.relative(raw, full).split(path.sep).join('/'), undefined));
      }
    }
  };
  walk(raw);
  return files;
}

function fileTarget(file: string, name: string, title: string | undefined): Target {
  return {
    label: file,
    input: {
      kind: 'file',
      bytes: fs.readFileSync(file),
      fileName: name,
      mimeType: mimeTypeForFileName(name) ?? 'application/octet-stream',
      title,
      // The same path saved again is the same source, refreshed, even after the file was edited.
      identity: path.resolve(file),
    },
  };
}

