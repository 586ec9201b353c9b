/**
 * `entries` (absolute paths of .ts files under `root`) compiled together into `cacheDir`, compiling
 * first when the sources changed: each entry's source file URL → its compiled file URL, or
 * undefined when they cannot be compiled.
 */
export function compiledEntries(options: { root: string; entries: string[]; cacheDir: string }): Promise<Record<string, string> | undefined>;
/** The repository's root folder. */
export const REPO_ROOT: string;
