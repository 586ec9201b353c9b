/** The file URL of `entry` compiled into `cacheDir` (compiling it first when the sources changed), or undefined when it cannot be compiled. */
export function compiledMain(options: { root: string; entry: string; cacheDir: string }): Promise<string | undefined>;
/** The repository's root folder. */
export const REPO_ROOT: string;
