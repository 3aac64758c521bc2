// Holds every answer the e2e tests receive against the served OpenAPI document: the operation is found by
// method and path template, then the status, the content type and the JSON body must be documented. A
// route answering outside its schema fails the test that made the request.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenAPIObject } from '@nestjs/swagger';

export interface ContractAnswer {
  readonly method: string;
  /** The request path, with or without its query string. */
  readonly path: string;
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
}

const pointer = (...segments: string[]) =>
  segments.map((segment) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

export class OpenApiContract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  /** Path templates as patterns, literal paths before templated ones (/webhooks/deliveries first). */
  private readonly templates: { template: string; pattern: RegExp }[];

  constructor(private readonly document: OpenAPIObject) {
    addFormats(this.ajv);
    this.ajv.addSchema(document, 'openapi.json');
    this.templates = Object.keys(document.paths)
      .map((template) => ({
        template,
        params: (template.match(/\{/g) ?? []).length,
        pattern: new RegExp(
          `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
        ),
      }))
      .sort((a, b) => a.params - b.params);
  }

  /** The operation `method path` is, if the document has one. */
  operation(method: string, path: string): { template: string; method: string } | undefined {
    const pathname = path.split('?')[0] ?? path;
    const lower = method.toLowerCase();
    const found = this.templates.find(
      ({ template, pattern }) =>
        pattern.test(pathname) && (this.document.paths[template] as Record<string, unknown>)[lower],
    );
    return found && { template: found.template, method: lower };
  }

  /** Throws, saying what differs, when the answer is not one the document describes. */
  check(answer: ContractAnswer): void {
    const operation = this.operation(answer.method, answer.path);
    // Routes the document does not have (404s for unknown paths) and test-only routes are not its business.
    if (
      !operation ||
      answer.method.toUpperCase() === 'HEAD' ||
      operation.template.startsWith('/api/v1/test/')
    )
      return;
    const where = `${answer.method.toUpperCase()} ${operation.template} answered ${answer.status}`;
    const responses = (
      this.document.paths[operation.template] as Record<string, { responses: Record<string, unknown> }>
    )[operation.method]!.responses;
    const status = [String(answer.status), `${String(answer.status)[0]}XX`, 'default'].find(
      (key) => key in responses,
    );
    if (!status) throw new Error(`${where}, a status the document does not list`);
    const response = responses[status] as { content?: Record<string, unknown> };
    const mediaType = answer.contentType?.split(';')[0]?.trim().toLowerCase();
    if (!response.content) {
      if (answer.text === '') return;
      throw new Error(`${where} with a body the document does not describe`);
    }
    const documented = Object.keys(response.content).find((key) => key.split(';')[0]?.trim() === mediaType);
    if (!mediaType || !documented) {
      throw new Error(
        `${where} as ${mediaType ?? 'no content type'}; the document lists ${Object.keys(response.content).join(', ')}`,
      );
    }
    if (mediaType === 'text/event-stream') {
      // What was read of the stream: each complete message is checked (streams are read in part).
      for (const message of parseEventStream(answer.text))
        this.checkStreamMessage(answer.method, answer.path, message);
      return;
    }
    if (mediaType !== 'application/json') return;
    const ref = `openapi.json#/${pointer('paths', operation.template, operation.method, 'responses', status, 'content', documented, 'schema')}`;
    this.validate(ref, JSON.parse(answer.text), where, answer.text);
  }

  /**
   * Throws when a message of a text/event-stream answer is not one the document describes: its `id` and the
   * JSON of its `data` against the route's `x-itemSchema` (OpenAPI 3.2's itemSchema, as an extension).
   */
  checkStreamMessage(method: string, path: string, message: StreamMessage): void {
    const operation = this.operation(method, path);
    if (!operation) throw new Error(`${method} ${path} is not in the document`);
    const where = `${method.toUpperCase()} ${operation.template} stream message`;
    const base = [
      'paths',
      operation.template,
      operation.method,
      'responses',
      '200',
      'content',
      'text/event-stream',
    ];
    const media = (
      this.document.paths[operation.template] as Record<string, { responses: Record<string, unknown> }>
    )[operation.method]!.responses['200'] as { content?: Record<string, Record<string, unknown>> };
    if (!media.content?.['text/event-stream']?.['x-itemSchema'])
      throw new Error(`${where}: the document describes no messages (x-itemSchema)`);
    const item = (...segments: string[]) =>
      `openapi.json#/${pointer(...base, 'x-itemSchema', 'properties', ...segments)}`;
    this.validate(item('id'), message.id, where, message.id ?? '(no id)');
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      throw new Error(`${where}: data is not JSON: ${message.data.slice(0, 200)}`);
    }
    this.validate(item('data', 'contentSchema'), data, where, message.data);
  }

  private validate(ref: string, value: unknown, where: string, text: string): void {
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    if (!validate(value)) {
      const problems = (validate.errors ?? [])
        .slice(0, 5)
        .map(
          (error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
        );
      throw new Error(
        `${where} outside its schema:\n  ${problems.join('\n  ')}\nbody: ${text.slice(0, 2000)}`,
      );
    }
  }
}

/** One message of a Server-Sent Events stream: its `id` (when it has one) and its `data` lines joined. */
export interface StreamMessage {
  readonly id: string | undefined;
  readonly data: string;
}

/**
 * The complete messages (those that carry data) in `text`, as the Server-Sent Events format defines them:
 * lines `field: value`, `:` comments, a blank line ends a message. A last message without its blank line
 * is left out: the stream was cut there.
 */
export function parseEventStream(text: string): StreamMessage[] {
  const messages: StreamMessage[] = [];
  let id: string | undefined;
  let data: string[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop(); // after the last line break: incomplete
  for (const line of lines) {
    if (line === '') {
      if (data.length > 0) messages.push({ id, data: data.join('\n') });
      data = [];
      id = undefined;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  }
  return messages;
}
