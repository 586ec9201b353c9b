import { ensureWorkspace, withService, type Database } from '@brain/db';
import { AppError } from '@brain/errors';

/** The CLI's workspace when --workspace is not given: created on first use. */
export const LOCAL_WORKSPACE = 'local';

/** Resolves `--workspace <slug>` to its id, creating the workspace on first use. */
export async function resolveWorkspace(db: Database, slug: string | undefined): Promise<{ id: string; slug: string }> {
  const wanted = (slug ?? LOCAL_WORKSPACE).toLowerCase();
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(wanted)) {
    throw new AppError({
      code: 'WORKSPACE_SLUG_INVALID',
      message: `"${slug}" is not a workspace name.`,
      nextStep: 'Use lower-case letters, digits and dashes, e.g. --workspace acme-docs.',
    });
  }
  const workspace = await withService(db, (tx) => ensureWorkspace(tx, wanted));
  return { id: workspace.id, slug: workspace.slug };
}
