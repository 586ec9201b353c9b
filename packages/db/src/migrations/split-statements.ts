/**
 * Splits a migration file into statements exactly as the Supabase CLI does (pkg/parser: a state
 * machine over the text; each statement with its trailing semicolons trimmed, then whitespace;
 * empty ones dropped), because `brain migrate` writes the CLI's ledger row, whose `statements`
 * column is that list. Quirks are the CLI's and kept on purpose: a leading comment belongs to
 * the next statement, a trailing comment is a statement of its own, a `;` inside parentheses or
 * `BEGIN ATOMIC … END` does not split, and `\` escapes the next character outside quotes.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let state: State = ready;
  let start = 0;
  let i = 0;
  while (i < sql.length) {
    const codePoint = sql.codePointAt(i) as number;
    const ch = String.fromCodePoint(codePoint);
    i += ch.length;
    // The token so far: every look-back of the CLI's parser stays within the current statement.
    const token = sql.slice(start, i);
    const next = state.next(ch, token);
    if (next === null) {
      push(statements, token);
      start = i;
      state = ready;
      continue;
    }
    state = next;
    // The CLI advances one byte at a time (its loop's width is shadowed), so it also feeds each
    // continuation byte of a multi-byte character, as U+FFFD with a window that ends mid-character
    // and so matches no delimiter. That can end a state, e.g. a dollar tag `$é$`.
    for (let extra = utf8Length(codePoint) - 1; extra > 0; extra--) state = state.next(REPLACEMENT, token + REPLACEMENT) ?? ready;
  }
  if (start < sql.length) push(statements, sql.slice(start));
  return statements;
}

const REPLACEMENT = '\uFFFD';

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  return codePoint < 0x10000 ? 3 : 4;
}

function push(statements: string[], token: string): void {
  const trimmed = goTrimSpace(token.replace(/;+$/, ''));
  if (trimmed.length > 0) statements.push(trimmed);
}

/** null emits the statement. */
interface State {
  next(ch: string, token: string): State | null;
}

const BEGIN_ATOMIC = 'ATOMIC';
const END_ATOMIC = 'END';

const ready: State = {
  next(ch, token) {
    switch (ch) {
      case '$':
        return tagState(token.length - 1);
      case "'":
      case '"':
        return quoteState(ch);
      case '-':
        return commentState;
      case '/':
        return blockState();
      case '\\':
        return escapeState;
      case ';':
        return null;
      case '(':
        return atomicState(ready, ')');
      case 'c':
      case 'C':
        if (isBeginAtomic(token)) return atomicState(ready, END_ATOMIC);
    }
    return ready;
  },
};

function isBeginAtomic(token: string): boolean {
  const offset = token.length - BEGIN_ATOMIC.length;
  if (offset < 0 || token.slice(offset).toUpperCase() !== BEGIN_ATOMIC) return false;
  if (offset > 0 && isIdentifierChar(lastChar(token.slice(0, offset)))) return false;
  const prefix = goTrimRightSpace(token.slice(0, offset));
  const at = prefix.length - 'BEGIN'.length;
  if (at < 0 || prefix.slice(at).toUpperCase() !== 'BEGIN') return false;
  return at === 0 || !isIdentifierChar(lastChar(prefix.slice(0, at)));
}

const commentState: State = {
  next(ch, token) {
    // `--` runs to the end of the line; a single `-` is just a character.
    if (ch === '-') return dollarState('\n');
    return ready.next(ch, token);
  },
};

function blockState(): State {
  let depth = 0;
  const self: State = {
    next(ch, token) {
      const window = token.slice(-2);
      if (window === '/*') {
        depth += 1;
        return self;
      }
      if (depth === 0) return ready.next(ch, token);
      if (window === '*/') {
        depth -= 1;
        if (depth === 0) return ready;
      }
      return self;
    },
  };
  return self;
}

function quoteState(delimiter: string): State {
  let escape = false;
  const self: State = {
    next(ch, token) {
      if (escape) {
        // A doubled delimiter is an escaped one; anything else closed the quote.
        if (ch === delimiter) {
          escape = false;
          return self;
        }
        return ready.next(ch, token);
      }
      if (ch === delimiter) escape = true;
      return self;
    },
  };
  return self;
}

function dollarState(delimiter: string): State {
  const self: State = {
    next(_ch, token) {
      return token.endsWith(delimiter) ? ready : self;
    },
  };
  return self;
}

function tagState(offset: number): State {
  const self: State = {
    next(ch, token) {
      if (ch === '$') return dollarState(token.slice(offset));
      if (/^[\p{L}\p{Nd}_]$/u.test(ch)) return self;
      return ready.next(ch, token);
    },
  };
  return self;
}

const escapeState: State = {
  next() {
    return ready;
  },
};

function atomicState(initial: State, delimiter: string): State {
  let prev = initial;
  const self: State = {
    next(ch, token) {
      const current = prev.next(ch, token);
      if (current !== null) prev = current;
      if (prev === ready && token.slice(-delimiter.length).toUpperCase() === delimiter.toUpperCase()) return ready;
      return self;
    },
  };
  return self;
}

function lastChar(text: string): string {
  const chars = Array.from(text);
  return chars[chars.length - 1] ?? '';
}

function isIdentifierChar(ch: string): boolean {
  return /^[\p{L}\p{Nd}_$]$/u.test(ch);
}

// Go's unicode.IsSpace: the White_Space property (which includes U+0085), unlike JavaScript's trim.
const SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;

function goTrimRightSpace(text: string): string {
  let end = text.length;
  while (end > 0 && SPACE.test(text[end - 1] as string)) end--;
  return text.slice(0, end);
}

function goTrimSpace(text: string): string {
  let begin = 0;
  while (begin < text.length && SPACE.test(text[begin] as string)) begin++;
  return goTrimRightSpace(text.slice(begin));
}
