import { stemmer as porterStem } from 'stemmer';

/**
 * A small thesaurus of software and documentation vocabulary: words in one group share an extra
 * feature, so "stop the server" and "shut down the instance" meet even though they share no stem.
 * It is deliberately general (no product names, nothing specific to one corpus), English only, and
 * short: every group is a bet that the words are interchangeable in technical questions, and a
 * wrong bet pulls unrelated passages together. Multi-word phrases are not matched; their words are.
 */
const GROUPS: readonly string[] = [
  'log logs logger loggers logging logged',
  'configure configuration config configs setting settings option options customize customise',
  'error errors exception exceptions failure failures fail fails failed failing crash throw throws thrown',
  'start starts started starting launch launches boot bootstrap listen listens listening startup',
  'stop stops stopped close closes closed closing shutdown shut terminate terminates exit graceful gracefully',
  'delete deletes deleted remove removes removed removal erase drop destroy unset clear',
  'create creates created add adds added make makes define defines declare declares register registers registered registration',
  'fetch retrieve read reads obtain access accessing lookup',
  'send sends sent respond responds response responses reply replies answer',
  'request requests req incoming',
  'route routes routing router endpoint endpoints url urls uri path paths',
  'plugin plugins extension extensions addon addons',
  'hook hooks lifecycle interceptor middleware middlewares',
  'validate validates validation validator validators verify verifies verification',
  'schema schemas jsonschema shape shapes',
  'serialize serializes serialization serializer serializers stringify encode encoding',
  'parse parses parser parsers parsing decode deserialize',
  'header headers',
  'body payload payloads',
  'limit limits limited maximum max cap threshold',
  'size length large big huge',
  'timeout timeouts expire expires expiry deadline',
  'fast faster fastest speed performance performant slow latency quick quickly throughput benchmark benchmarks',
  'test tests testing tested inject mock mocks',
  'typescript typing typings typed generic generics',
  'async await asynchronous promise promises',
  'auth authentication authenticate login credential credentials authorization authorize authorise permission permissions',
  'security secure vulnerability vulnerabilities attack attacks protect protection exploit',
  'deprecated deprecation deprecate obsolete legacy',
  'warning warnings warn',
  'version versions release releases upgrade upgrading migrate migration',
  'install installs installation installing dependency dependencies package packages npm',
  'default defaults fallback',
  'custom override overrides overriding overwrite replace replaces',
  'decorate decorates decorator decorators extend extends augment attach',
  'encapsulation encapsulate encapsulated scope scoped scopes isolation isolated context',
  'share shared sharing global globally reuse reused',
  'stream streams streaming pipe',
  'compress compression compressed gzip brotli deflate',
  'redirect redirects redirection',
  'cookie cookies session sessions',
  'file files upload uploads multipart attachment disk fs filesystem',
  'static asset assets',
  'disable disables disabled ignore ignores ignored skip skips omit prevent prevents stop',
  'enable enables enabled activate allow allows allowed',
  'handler handlers handle handles handling controller',
  'database databases db sql postgres postgresql mysql mongodb storage persist',
  'environment environments env variable variables',
  'documentation docs doc guide guides reference manual tutorial',
  'query queries querystring',
  'parameter parameters param params argument arguments',
  'prefix prefixes namespace mount mounted',
  'instance instances server servers app application',
  'before pre prior earlier',
  'after post later afterwards',
  'memory leak leaks heap',
  'https tls ssl certificate certificates http2',
  'proxy proxies forwarded',
  'change changes changed modify modifies modified alter update updates updated edit mutate transform',
  'client clients user users caller browser consumer',
  'connection connections socket sockets keepalive',
  'concurrent concurrency parallel simultaneous',
  'retry retries retried',
  'cache caches caching cached memoize',
  'missing notfound 404 unknown nonexistent',
  'status statuscode',
  'redact redacts redacted redaction mask masked censor obfuscate conceal hide hidden secret secrets password passwords sensitive confidential pii',
  'id ids identifier identifiers uuid',
  'reject rejects rejected refuse refuses deny denies denied invalid',
  'restrict restricts restricted restriction restrictions constrain constraint constraints',
  'type types contenttype mime',
  'event events emit emits emitter listener listeners',
  'order ordering sequence sequential',
  'run runs execute executes executed execution invoke invokes invoked call calls called',
  'example examples sample snippet',
  'object objects json',
  'string strings text',
  'number numbers integer integers numeric',
  'list array arrays',
  'property properties field fields attribute attributes',
  'function functions method methods',
  'require requires required mandatory',
  'wait waits waiting delay pause',
  'signal signals sigterm sigint',
  'ip address addresses host hostname',
  'port ports',
];

/** HTTP status codes (100–599) written as numbers share the concept of the "status" group. */
export const STATUS_CONCEPT: number = GROUPS.findIndex((group) => group.startsWith('status '));

/** Stem → the concept ids it belongs to. Built once from GROUPS with the same stemmer as the text. */
export const CONCEPTS: ReadonlyMap<string, readonly number[]> = buildConcepts();

function buildConcepts(): Map<string, number[]> {
  const map = new Map<string, number[]>();
  GROUPS.forEach((group, id) => {
    const words = group.split(/\s+/).filter((w) => w.length > 0);
    if (words.length < 2) return;
    for (const word of words) {
      const stem = porterStem(word);
      const ids = map.get(stem) ?? [];
      if (!ids.includes(id)) ids.push(id);
      map.set(stem, ids);
    }
  });
  return map;
}
