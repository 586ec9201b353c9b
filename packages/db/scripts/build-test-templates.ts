// npm run test:templates: builds the migrated test databases (the PGlite data-dir dump, and the
// PostgreSQL template when TEST_DATABASE_URL is set) once, before the packages' suites start.
// turbo.json runs it ahead of every package's tests but apps/cli's, the longest, which starts at once.
import globalSetup from '../src/testing/global-setup.ts';

await globalSetup();
