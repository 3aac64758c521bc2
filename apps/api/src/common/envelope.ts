// Wraps what a handler returns in the success envelope. Routes marked @RawResponse() (metrics, the echo, the
// event log, the web pages) answer as they are; nothing else is guessed. The wrapping is done where Nest
// hands a handler's result to Fastify (EnvelopeFastifyAdapter.reply), not in a global interceptor: any
// interceptor puts every request through Nest's rxjs pipeline; without it the echo took 13 to 37 % less CPU
// (docs/decisions.md, "Request path: the envelope in the adapter": every target of the api, the bearer echo's
// most).
import { ServerResponse } from 'node:http';

import { FastifyAdapter, RouteConfig } from '@nestjs/platform-fastify';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import { successEnvelope } from '@svc/protocol';
import type { FastifyReply } from 'fastify';

/** The key in a route's Fastify config (`request.routeOptions.config`) saying it answers unwrapped. */
const RAW_RESPONSE = 'rawResponse';

/**
 * The route answers as it is, outside the envelope. On a method, or on a controller for all its routes
 * (Fastify's route config is per route, so the controller's methods each get it).
 */
export function RawResponse(): ClassDecorator & MethodDecorator {
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor): void => {
    if (descriptor) {
      markRaw(descriptor.value as object);
      return;
    }
    const prototype = (target as { prototype: Record<string, unknown> }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const method = Object.getOwnPropertyDescriptor(prototype, name)?.value as unknown;
      if (name !== 'constructor' && typeof method === 'function') markRaw(method);
    }
  };
}

function markRaw(method: object): void {
  const config = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, method) as object | undefined;
  RouteConfig({ ...config, [RAW_RESPONSE]: true })(method, '', { value: method });
}

/** Whether the route answering `reply` is @RawResponse(). */
function isRawResponse(reply: Pick<FastifyReply, 'request'>): boolean {
  const config = reply.request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  return config?.[RAW_RESPONSE] === true;
}

type Reply = Parameters<FastifyAdapter['reply']>[0];

/**
 * Nest's Fastify adapter, with the success envelope put around what a route handler returns. Nest calls
 * `reply` with a handler's result; the exception filter answers through `replyAsIs`, its bodies being
 * envelopes already.
 */
export class EnvelopeFastifyAdapter extends FastifyAdapter {
  override reply(response: Reply, body: unknown, statusCode?: number): ReturnType<FastifyAdapter['reply']> {
    const enveloped = !(response instanceof ServerResponse) && !isRawResponse(response);
    return super.reply(response, enveloped ? successEnvelope(body ?? {}) : body, statusCode);
  }

  /** An answer written as it is (the exception filter's), `response` being the one Nest handed it. */
  replyAsIs(response: unknown, body: unknown, statusCode?: number): void {
    super.reply(response as Reply, body, statusCode);
  }
}

/**
 * The success envelope around `data` already written as JSON text, for the routes that write their answer
 * themselves (@RawResponse) so that a value in it reaches the caller exactly as stored.
 */
export function successEnvelopeText(dataJson: string): string {
  return `{"code":200,"data":${dataJson},"error":null}`;
}
