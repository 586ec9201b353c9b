import { describeHtmlEvalSet } from './html-eval-set-checks.ts';

describeHtmlEvalSet({ name: 'postgres-docs', debianPackage: 'postgresql-doc-15', htmlRoot: '/usr/share/doc/postgresql-doc-15/html' });
