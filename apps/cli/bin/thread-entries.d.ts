/** Repository-relative paths of the modules `brain`'s threads and child processes start from. */
export const THREAD_ENTRIES: readonly string[];
