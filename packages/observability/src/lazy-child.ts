import type { Bindings, ChildLoggerOptions, Level, Logger } from 'pino';

const LEVELS: readonly Level[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

/**
 * `parent.child(bindings)`, built only when a line at an enabled level is written or the logger
 * is otherwise used. Where a child is made per request but rarely logs (an acknowledgement at
 * LOG_LEVEL=warn), this spares the child's cost: pino runs its bindings through the redaction of
 * every key (tens of µs each), on the thread that acknowledges interactions. With options (a
 * level of its own) the child is built at once, as the level check needs it.
 */
export function lazyChild(parent: Logger, bindings: Bindings, options?: ChildLoggerOptions): Logger {
  if (options && Object.keys(options).length > 0) return parent.child(bindings, options);
  let real: Logger | undefined;
  const built = (): Logger => (real ??= parent.child(bindings));
  const methods = new Map<PropertyKey, unknown>();
  for (const level of LEVELS) {
    // A wrapper, not the child's method: looking a method up (fastify checks that they exist) builds nothing.
    methods.set(level, (...args: Parameters<Logger['info']>) => {
      if (!real && !parent.isLevelEnabled(level)) return;
      built()[level](...args);
    });
  }
  methods.set('child', (childBindings: Bindings, childOptions?: ChildLoggerOptions) => built().child(childBindings, childOptions));
  methods.set('isLevelEnabled', (level: string) => (real ?? parent).isLevelEnabled(level));
  return new Proxy({} as Logger, {
    get(_target, property) {
      if (methods.has(property)) return methods.get(property);
      const target = built();
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    set: (_target, property, value) => Reflect.set(built(), property, value),
    has: (_target, property) => methods.has(property) || Reflect.has(built(), property),
  });
}
