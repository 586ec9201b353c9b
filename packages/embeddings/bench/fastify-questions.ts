/**
 * The question set local-hash-v1 was designed against: questions about the fastify docs that ship
 * in the fastify npm package, half of them paraphrases that avoid the docs' own words. A chunk is
 * relevant when it comes from `file` and its heading contains `heading` (or its content contains
 * `content`). This is a tuning set for the embedder, not the project's retrieval eval.
 */
export interface Relevant {
  file: string;
  heading?: string;
  content?: string;
}

export interface Question {
  question: string;
  kind: 'lexical' | 'paraphrase';
  relevant: Relevant[];
}

const lexical = (question: string, ...relevant: Relevant[]): Question => ({ question, kind: 'lexical', relevant });
const paraphrase = (question: string, ...relevant: Relevant[]): Question => ({ question, kind: 'paraphrase', relevant });

export const QUESTIONS: Question[] = [
  lexical('What does the bodyLimit option do?', { file: 'Server.md', heading: 'bodyLimit' }),
  lexical('How do I use addContentTypeParser?', { file: 'ContentTypeParser.md' }, { file: 'Server.md', heading: 'addContentTypeParser' }),
  lexical('What is the onRequest hook?', { file: 'Hooks.md', heading: 'onRequest' }),
  lexical('How does trustProxy work?', { file: 'Server.md', heading: 'trustProxy' }),
  lexical('What is FST_ERR_CTP_INVALID_MEDIA_TYPE?', { file: 'Errors.md', content: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }),
  lexical('How do I decorate the request object?', { file: 'Decorators.md', heading: 'decorateRequest' }),
  lexical('What is the preHandler hook used for?', { file: 'Hooks.md', heading: 'preHandler' }),
  lexical('How does reply.redirect work?', { file: 'Reply.md', heading: '.redirect' }),
  lexical('How do I set a custom log level for a route?', { file: 'Routes.md', heading: 'Custom Log Level' }),
  lexical('How do I redact fields in the logs?', { file: 'Logging.md', heading: 'Log Redaction' }),
  lexical('What is the pluginTimeout option?', { file: 'Server.md', heading: 'pluginTimeout' }),
  lexical('How does route prefixing work with register?', { file: 'Routes.md', heading: 'Route Prefixing' }, { file: 'Plugins.md', heading: 'Route Prefixing' }),
  lexical('What does fastify.ready do?', { file: 'Server.md', heading: 'ready' }),
  lexical('How do I use TypeBox as a type provider?', { file: 'Type-Providers.md', heading: 'TypeBox' }, { file: 'TypeScript.md', heading: 'TypeBox' }),
  lexical('How do I add a shared schema with addSchema?', { file: 'Validation-and-Serialization.md', heading: 'shared schema' }, { file: 'Server.md', heading: 'addSchema' }),
  lexical('What is the long term support schedule?', { file: 'LTS.md' }),
  lexical('How do I use HTTP2 with Fastify?', { file: 'HTTP2.md' }, { file: 'Server.md', heading: 'http2' }),
  lexical('What does the onClose hook do?', { file: 'Hooks.md', heading: 'onClose' }),
  lexical('What is the genReqId option?', { file: 'Server.md', heading: 'genReqId' }, { file: 'Server.md', heading: 'setgenreqid' }),
  lexical('How do I use Express middleware with @fastify/express?', { file: 'Middleware.md' }),
  lexical('What does reply.hijack do?', { file: 'Reply.md', heading: '.hijack' }),
  lexical('What does ignoreTrailingSlash do?', { file: 'Server.md', heading: 'ignoreTrailingSlash' }),
  lexical('How do I test routes with fastify.inject?', { file: 'Testing.md' }, { file: 'Server.md', heading: 'inject' }),
  lexical('What is the schemaErrorFormatter?', { file: 'Validation-and-Serialization.md', heading: 'schemaErrorFormatter' }, { file: 'Server.md', heading: 'chemaErrorFormatter' }),

  paraphrase('How can I cap the size of JSON payloads clients upload?', { file: 'Server.md', heading: 'bodyLimit' }, { file: 'Routes.md', content: 'bodyLimit' }),
  paraphrase('How do I shut down cleanly and let in-flight requests finish?', { file: 'Lifecycle.md', heading: 'Shutdown' }, { file: 'Server.md', heading: 'close' }, { file: 'Server.md', heading: 'forceCloseConnections' }, { file: 'Server.md', heading: 'return503OnClosing' }, { file: 'Hooks.md', heading: 'preClose' }),
  paraphrase('How can I run some code right before my route handler executes?', { file: 'Hooks.md', heading: 'preHandler' }, { file: 'Hooks.md', heading: 'onRequest' }, { file: 'Hooks.md', heading: 'preValidation' }, { file: 'Hooks.md', heading: 'Route level hooks' }),
  paraphrase('How do I attach my own property to every incoming request?', { file: 'Decorators.md', heading: 'decorateRequest' }, { file: 'Hooks.md', heading: 'Inject Custom Properties' }),
  paraphrase("Behind a load balancer, how do I get the client's real IP address?", { file: 'Server.md', heading: 'trustProxy' }, { file: 'Request.md', content: 'request.ip' }),
  paraphrase('How do I stop the per-request log lines?', { file: 'Server.md', heading: 'disableRequestLogging' }),
  paraphrase('How can I keep passwords out of the log output?', { file: 'Logging.md', heading: 'Log Redaction' }),
  paraphrase('Can I generate my own identifiers for each request?', { file: 'Server.md', heading: 'genReqId' }, { file: 'Server.md', heading: 'setgenreqid' }, { file: 'Server.md', heading: 'requestIdHeader' }, { file: 'Logging.md', heading: 'Request ID' }),
  paraphrase('What happens when a plugin takes too long to boot?', { file: 'Server.md', heading: 'pluginTimeout' }, { file: 'Errors.md', content: 'FST_ERR_PLUGIN_TIMEOUT' }),
  paraphrase('Should /users and /users/ be treated as one path?', { file: 'Server.md', heading: 'ignoreTrailingSlash' }, { file: 'Server.md', heading: 'ignoreDuplicateSlashes' }),
  paraphrase('How can my API accept XML bodies instead of JSON?', { file: 'ContentTypeParser.md' }, { file: 'Server.md', heading: 'addContentTypeParser' }),
  paraphrase('How do I reuse one database connection pool across the whole application?', { file: 'Database.md' }, { file: 'Encapsulation.md' }, { file: 'Plugins-Guide.md' }),
  paraphrase("How can I reject requests whose query string isn't shaped the way I expect?", { file: 'Validation-and-Serialization.md', heading: 'Validation' }, { file: 'Routes.md', content: 'querystring' }),
  paraphrase('How do I answer with a 201 instead of 200?', { file: 'Reply.md', heading: '.code' }, { file: 'Reply.md', heading: 'statusCode' }),
  paraphrase('How do I customise what users see when no route matches the URL?', { file: 'Server.md', heading: 'setNotFoundHandler' }, { file: 'Reply.md', heading: 'callNotFound' }, { file: 'Server.md', heading: 'defaultRoute' }),
  paraphrase('Which major versions still receive security patches?', { file: 'LTS.md' }),
  paraphrase('How do I pipe a file from disk to the client?', { file: 'Reply.md', heading: 'Streams' }),
  paraphrase('How do I get request.body typed in my handlers?', { file: 'TypeScript.md', heading: 'Generics' }, { file: 'Type-Providers.md' }, { file: 'TypeScript.md', heading: 'Type Providers' }),
  paraphrase('How can I catch exceptions thrown in handlers and format the output myself?', { file: 'Server.md', heading: 'setErrorHandler' }, { file: 'Errors.md', heading: 'Custom Error Handler' }),
  paraphrase('Can the server answer 503 while it is going down?', { file: 'Server.md', heading: 'return503OnClosing' }),
  paraphrase('How do I restrict a route to requests for one hostname?', { file: 'Routes.md', heading: 'Host Constraints' }),
  paraphrase('How can I mount all my endpoints under /v1?', { file: 'Routes.md', heading: 'Route Prefixing' }, { file: 'Plugins.md', heading: 'Route Prefixing' }, { file: 'Server.md', heading: 'prefix' }),
  paraphrase('How can I make turning responses into JSON faster?', { file: 'Validation-and-Serialization.md', heading: 'Serialization' }, { file: 'Server.md', heading: 'setReplySerializer' }, { file: 'Server.md', heading: 'serializerOpts' }),
  paraphrase('How long are idle keep-alive sockets kept open?', { file: 'Server.md', heading: 'keepAliveTimeout' }),
];
