import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, JSONRPCRequest, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Logger } from '@brain/observability';
import { clip } from '../budget.ts';
import { toolError } from '../tool-result.ts';
import { invalidArguments } from './invalid-arguments.ts';
import { toToolJsonSchema } from './json-schema.ts';
import { JSONRPC_INVALID_PARAMS, JSONRPC_METHOD_NOT_FOUND, ProtocolError } from './protocol-error.ts';

export interface ToolDefinition<In extends z.ZodRawShape, Out extends z.ZodRawShape> {
  title: string;
  description: string;
  inputSchema: In;
  outputSchema: Out;
  annotations: ToolAnnotations;
}

/** What a handler gets besides its arguments: the request's cancellation. */
export interface ToolCallExtra {
  signal: AbortSignal;
}

export type ToolHandler<In extends z.ZodRawShape> = (args: z.output<z.ZodObject<In>>, extra: ToolCallExtra) => Promise<CallToolResult>;

interface RegisteredTool {
  listing: Tool;
  input: z.ZodType;
  output: z.ZodType;
  handler: (args: unknown, extra: ToolCallExtra) => Promise<CallToolResult>;
}

/**
 * The tools, served on the SDK's low-level Server rather than McpServer, because McpServer puts
 * the protocol errors where the specification does not: an unknown tool and invalid arguments
 * came back as isError results, a tools/call without a name as -32603 with a zod dump, and it
 * declares `tools.listChanged` though a stateless server can never send that notification.
 * Here: unknown tool and malformed params are JSON-RPC -32602 errors (the spec's protocol
 * errors); arguments that fail the schema are an isError result with the stable code
 * INVALID_ARGUMENTS and a "Next:" line, like every other tool error, so the model can fix them.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();

  constructor(private readonly logger: Logger) {}

  registerTool<In extends z.ZodRawShape, Out extends z.ZodRawShape>(name: string, definition: ToolDefinition<In, Out>, handler: ToolHandler<In>): void {
    // strictObject: an argument the tool does not take is refused (additionalProperties: false), not silently dropped.
    const input = z.strictObject(definition.inputSchema);
    const output = z.object(definition.outputSchema);
    this.tools.set(name, {
      listing: {
        name,
        title: definition.title,
        description: definition.description,
        inputSchema: toToolJsonSchema(input, 'input') as Tool['inputSchema'],
        outputSchema: toToolJsonSchema(output, 'output') as Tool['outputSchema'],
        annotations: definition.annotations,
      },
      input,
      output,
      handler: handler as RegisteredTool['handler'],
    });
  }

  list(): Tool[] {
    return [...this.tools.values()].map((t) => t.listing);
  }

  /** Serves tools/list and tools/call on `server`, which must declare the `tools` capability. */
  serve(server: Server): void {
    // Not setRequestHandler: the SDK would parse tools/call with its own schema first and answer
    // a missing name with its zod dump. The fallback sees the raw request; other methods stay the SDK's.
    const fallback = server.fallbackRequestHandler;
    server.fallbackRequestHandler = async (request, extra) => {
      if (request.method === 'tools/list') return { tools: this.list() };
      if (request.method === 'tools/call') return this.call(request, extra);
      if (fallback) return fallback(request, extra);
      throw new ProtocolError(JSONRPC_METHOD_NOT_FOUND, `Method not found: ${clip(request.method, 100)}.`);
    };
  }

  async call(request: Pick<JSONRPCRequest, 'params'>, extra: ToolCallExtra): Promise<CallToolResult> {
    const params = (request.params ?? {}) as { name?: unknown; arguments?: unknown };
    if (typeof params.name !== 'string' || params.name === '') {
      throw new ProtocolError(JSONRPC_INVALID_PARAMS, `Invalid params: tools/call needs "name", one of ${this.names()}.`);
    }
    const tool = this.tools.get(params.name);
    if (!tool) throw new ProtocolError(JSONRPC_INVALID_PARAMS, `Unknown tool: "${clip(params.name, 100)}". This server's tools are ${this.names()}.`);
    const args = params.arguments ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new ProtocolError(JSONRPC_INVALID_PARAMS, `Invalid params: "arguments" must be an object of named arguments for ${params.name}.`);
    }
    const parsed = await tool.input.safeParseAsync(args);
    if (!parsed.success) return invalidArguments(params.name, parsed.error, this.logger);
    let result: CallToolResult;
    try {
      result = await tool.handler(parsed.data, extra);
    } catch (error) {
      result = toolError(error, this.logger);
    }
    if (result.isError) return result;
    // A result that breaks its own outputSchema is our bug: the client would reject it anyway.
    const checked = await tool.output.safeParseAsync(result.structuredContent);
    if (!checked.success) return toolError(new Error(`${params.name} returned structuredContent outside its outputSchema: ${z.prettifyError(checked.error)}`), this.logger);
    return result;
  }

  private names(): string {
    return [...this.tools.keys()].join(', ');
  }
}
