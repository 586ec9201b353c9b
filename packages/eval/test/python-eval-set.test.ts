import { describeHtmlEvalSet, strippedText } from './html-eval-set-checks.ts';

// Tags stripped rather than extractDocument: the 67 pages take about 15 s through the extractor
// (npm test is at its time limit) against milliseconds here, and each of this set's gold strings
// was found both ways when the postgres-docs set moved the checks into html-eval-set-checks.ts.
describeHtmlEvalSet({ name: 'python-docs', debianPackage: 'python3.11-doc', htmlRoot: '/usr/share/doc/python3.11/html', readPage: strippedText });
